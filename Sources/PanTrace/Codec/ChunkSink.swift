/// Where a ``TraceWriter`` puts each finished gzip member.
protocol ChunkSink: AnyObject {
    func write(_ member: [UInt8]) throws(PanTraceError)
    func close()
}

/// Collects members in memory (``TraceEncoder``, tests, benchmarks).
final class MemorySink: ChunkSink {
    var bytes: [UInt8] = []
    func write(_ member: [UInt8]) { bytes.append(contentsOf: member) }
    func close() {}
}

/// Appends members to a file created for the purpose, optionally syncing each one.
final class FileSink: ChunkSink {
    private let file: FileDescriptor
    private let synchronizes: Bool

    init(_ file: FileDescriptor, synchronizes: Bool) {
        self.file = file
        self.synchronizes = synchronizes
    }

    /// Appends `member`; the first write also names the file (it was created unpublished).
    func write(_ member: [UInt8]) throws(PanTraceError) {
        try file.writeAll(member)
        if synchronizes { try file.synchronize() }
        try file.publish()
    }

    func close() { file.close() }
}

package import PanReplay
package import PanTrace

/// The labels of every tuned trace, kept in columns (``ChunkedColumn``) so that a corpus of
/// millions of gestures costs tens of bytes a gesture, not a few hundred.
///
/// A trace's file is kept once per distinct file: a corpus gesture's label
/// (`corpus.pantraces#name`, where the name is the trace's identifier) is stored as the
/// corpus's path and a flag. Identifiers share one byte buffer. Tags and source are kept once
/// per distinct combination, which the breakdown groups by. Reading an element builds the
/// ``TunedTrace`` it stands for, equal to the one added.
package struct TunedTraces: Sendable, RandomAccessCollection {
    /// A trace's tags and source: what the breakdown groups by.
    package struct LabelSet: Sendable, Hashable {
        /// The tags, as recorded.
        package var tags: [String]
        /// The source.
        package var source: String
    }

    /// The most bytes of identifiers one sweep keeps (their offsets are 32-bit).
    package static let maximumIdentifierBytes = Int(UInt32.max)

    /// What the person meant, per trace.
    package private(set) var intents = ChunkedColumn<Intent>()
    /// ``TraceSubsets/foldHash(of:)`` per trace.
    package private(set) var foldHashes = ChunkedColumn<UInt64>()
    /// Index into ``labelSets`` per trace.
    package private(set) var labelSetOfTrace = ChunkedColumn<UInt32>()
    /// Each distinct combination of tags and source, in the order first seen.
    package private(set) var labelSets: [LabelSet] = []
    private var labelSetIndex: [LabelSet: UInt32] = [:]
    /// Each distinct file (or corpus), in the order first seen.
    private var files: [String] = []
    private var fileIndex: [String: UInt32] = [:]
    /// Index into `files` per trace; the top bit says the label is `file#identifier`.
    private var fileOfTrace = ChunkedColumn<UInt32>()
    private var identifierBytes = ChunkedColumn<UInt8>()
    /// Where each trace's identifier ends in `identifierBytes`.
    private var identifierEnds = ChunkedColumn<UInt32>()

    private static let gestureFlag: UInt32 = 1 << 31

    /// No traces.
    package init() {}

    /// The traces given, in order.
    package init(_ traces: some Sequence<TunedTrace>) throws(ReplayError) {
        for trace in traces { try append(trace) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { intents.count }

    /// The trace at `index`, as it was added.
    package subscript(index: Int) -> TunedTrace {
        let start = index == 0 ? 0 : Int(identifierEnds[index - 1])
        let id = String(decoding: (start..<Int(identifierEnds[index])).lazy.map { identifierBytes[$0] }, as: UTF8.self)
        let fileEntry = fileOfTrace[index]
        let path = files[Int(fileEntry & ~Self.gestureFlag)]
        let labels = labelSets[Int(labelSetOfTrace[index])]
        return TunedTrace(
            file: fileEntry & Self.gestureFlag != 0 ? path + "#" + id : path, id: id, intent: intents[index], tags: labels.tags,
            source: labels.source, foldHash: foldHashes[index])
    }

    /// Adds `trace` at the end.
    /// - Throws: ``ReplayError/noTraces(_:)`` naming the limit when the identifiers would pass
    ///   ``maximumIdentifierBytes`` (nothing is added).
    package mutating func append(_ trace: TunedTrace) throws(ReplayError) {
        let id = trace.id.utf8
        guard identifierBytes.count + id.count <= Self.maximumIdentifierBytes, files.count < Int(Self.gestureFlag) - 1 else {
            throw ReplayError.noTraces(
                "\(trace.file): more than \(Self.maximumIdentifierBytes) bytes of trace identifiers in one sweep; tune the corpus in shards (--partial) and merge them"
            )
        }
        var path = trace.file[...]
        var flag: UInt32 = 0
        if let hash = trace.file.utf8.lastIndex(of: UInt8(ascii: "#")), trace.file.utf8[trace.file.utf8.index(after: hash)...].elementsEqual(id) {
            path = trace.file[..<hash]
            flag = Self.gestureFlag
        }
        // Traces come file after file, and a corpus's gestures one after another: the file and
        // the labels of the trace before are checked first, without hashing.
        let file = files.last.map { $0 == path } == true ? UInt32(files.count - 1) : Self.intern(String(path), in: &files, index: &fileIndex)
        let labels = LabelSet(tags: trace.tags, source: trace.source)
        let labelSet =
            labelSetOfTrace.last.flatMap { labelSets[Int($0)] == labels ? $0 : nil }
            ?? Self.intern(labels, in: &labelSets, index: &labelSetIndex)
        identifierBytes.append(contentsOf: id)
        identifierEnds.append(UInt32(identifierBytes.count))
        fileOfTrace.append(file | flag)
        labelSetOfTrace.append(labelSet)
        foldHashes.append(trace.foldHash)
        intents.append(trace.intent)
    }

    /// The number of `value` in `values`, adding it at the end the first time.
    private static func intern<Value: Hashable>(_ value: Value, in values: inout [Value], index: inout [Value: UInt32]) -> UInt32 {
        if let known = index[value] { return known }
        let number = UInt32(values.count)
        values.append(value)
        index[value] = number
        return number
    }
}

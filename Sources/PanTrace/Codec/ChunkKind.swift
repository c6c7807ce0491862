/// The first byte of every chunk payload after the header (docs/FORMAT.md §3).
enum ChunkKind: UInt8 {
    /// Samples, in columns.
    case samples = 0x53  // "S"
    /// A replacement for the header's metadata (an intent labelled after the gesture, say).
    case metadata = 0x4D  // "M"
    /// The end of the recording, with the total sample count.
    case end = 0x45  // "E"
}

/// Constants of the header chunk.
enum HeaderFormat {
    /// The eight bytes every header payload starts with.
    static let magic: [UInt8] = Array("PANTRACE".utf8)
    /// The format version this code writes and the newest it reads (it reads 1 and 2 as well).
    static let version = 4
    /// Version 3 header flags, bit 0: the samples are on ``SampleGrid/standard`` (no scales follow).
    static let standardGridFlag: UInt64 = 1

    /// A file's name without its folder and without `.pantrace`: the id a version 3 header
    /// leaves out when the metadata's id equals it.
    static func name(ofPath path: String) -> String {
        var name = Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if name.hasSuffix(".pantrace") { name = name.dropLast(".pantrace".count) }
        return String(name)
    }
}

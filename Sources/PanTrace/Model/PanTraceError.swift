/// An error reading, writing or converting a trace, with where it happened.
///
/// One public struct wrapping a private code: new kinds of failure can be added
/// without breaking callers. ``description`` is the one line a user sees, naming the file
/// and the chunk, byte offset, line or sample where the problem is.
public struct PanTraceError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case emptyFile
        case notGzip
        case badMagic
        case unsupportedVersion(Int)
        case badHeader(String)
        case badCorpus(String)
        case corruptChunk(String)
        case chunkTooLarge(limit: Int)
        case outputLimit(limit: Int)
        case truncated
        case unfinished
        case invalidSample(String)
        case invalidValue(String)
        case io(String)
        case malformedLine(String)
        case unsupportedFormat(String)
        case alreadyExists
    }

    let code: Code

    /// Whether storage failed (a write or read the system refused: a full disk, a file too
    /// large, a removed folder), not the data: the same data may succeed later.
    public var isStorageFailure: Bool {
        if case .io = code { return true }
        return false
    }

    /// The file the problem is in, when there is one.
    public internal(set) var file: String?
    /// The 0-based index of the gesture in a corpus file (`.pantraces`) the problem is in.
    public internal(set) var gesture: Int?
    /// The name of that gesture, when its record was read.
    public internal(set) var gestureName: String?
    /// The index of the chunk (gzip member) the problem is in; the header is chunk 0.
    public internal(set) var chunk: Int?
    /// The byte offset in the file (or, for payload problems, where the chunk starts).
    public internal(set) var byteOffset: Int?
    /// The 1-based line, for text formats.
    public internal(set) var line: Int?
    /// The 0-based sample index, for problems with one sample.
    public internal(set) var sample: Int?
    /// The field the bad value is in, as the format spells it (`t`, `tx`, `notes`, `screen`).
    public internal(set) var field: String?

    init(
        _ code: Code, file: String? = nil, chunk: Int? = nil, byteOffset: Int? = nil, line: Int? = nil, sample: Int? = nil,
        field: String? = nil
    ) {
        self.code = code
        self.file = file
        self.chunk = chunk
        self.byteOffset = byteOffset
        self.line = line
        self.sample = sample
        self.field = field
    }

    /// Whether the problem is only that the file ends early: inside a chunk (cut off), or
    /// after whole chunks without its end mark (a recording that was never finished).
    public var isTruncation: Bool { code == .truncated || code == .unfinished }

    /// Whether the problem is that a file to be created already exists.
    package var isAlreadyExists: Bool { code == .alreadyExists }

    /// The same error, naming `file`.
    func `in`(file: String) -> PanTraceError {
        var copy = self
        copy.file = file
        return copy
    }

    /// The problem alone, without where (for errors that wrap this one).
    package var problem: String {
        switch code {
        case .emptyFile: "empty file"
        case .notGzip: "not a .pantrace file: no gzip member starts here"
        case .badMagic: "not a .pantrace file: the header chunk does not start with PANTRACE"
        case .unsupportedVersion(let v): "format version \(v) is newer than this pantrace reads (1…\(HeaderFormat.version)); upgrade pantrace"
        case .badHeader(let why): "bad header: \(why)"
        case .badCorpus(let why): "bad corpus: \(why)"
        case .corruptChunk(let why): "corrupt chunk: \(why)"
        case .chunkTooLarge(let limit): "chunk inflates past the \(limit)-byte chunk limit (a deflate bomb or a damaged file)"
        case .outputLimit(let limit): "file inflates past the \(limit)-byte total limit"
        case .truncated: "file ends inside a chunk (truncated, e.g. by a crash while recording or a copy cut short)"
        case .unfinished:
            "no end mark after the last whole chunk: an unfinished recording (its writer stopped or crashed before the gesture ended) or a copy cut between chunks"
        case .invalidSample(let why): "invalid sample: \(why)"
        case .invalidValue(let why): why
        case .io(let why): why
        case .malformedLine(let why): why
        case .unsupportedFormat(let why): why
        case .alreadyExists: "already exists; pantrace never overwrites a recording (choose another name or remove it first)"
        }
    }

    /// `file: chunk 3 at byte 1234: corrupt chunk: …`, `corpus.pantraces: gesture 5 (a/b) chunk 1 at byte 880: …`, `file.jsonl: line 7 field t: …`: every
    /// known location, then the problem.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        var location: [String] = []
        if let gesture { location.append(gestureName.map { "gesture \(gesture) (\($0))" } ?? "gesture \(gesture)") }
        if let line { location.append("line \(line)") }
        if let chunk { location.append("chunk \(chunk)") }
        if let byteOffset { location.append("at byte \(byteOffset)") }
        if let sample { location.append("sample \(sample)") }
        if let field { location.append("field \(field)") }
        if !location.isEmpty { parts.append(location.joined(separator: " ")) }
        parts.append(problem)
        return parts.joined(separator: ": ")
    }
}

/// Constants and records of a corpus file, `.pantraces`: many gestures in one file
/// (docs/FORMAT.md §11).
enum CorpusFormat {
    /// The eight bytes the first chunk of a corpus starts with.
    static let magic: [UInt8] = Array("PTCORPUS".utf8)
    /// The corpus layout version this code writes and the newest it reads.
    static let version = 1
    /// The first byte of a gesture record, "G": never the first byte of a `.pantrace` payload
    /// (`P` of the header's magic, `S`, `M`, `E`).
    static let gestureRecord: UInt8 = 0x47
    /// The longest gesture name, in bytes.
    static let maximumNameBytes = 4096
    /// Record bytes gathered before the writer seals a chunk of packed gestures; a packed
    /// gesture is at most this long, so a chunk stays well under the reader's 4 MiB cap.
    static let groupBytes = 1 << 20
    /// The file name ending of a corpus.
    static let fileExtension = ".pantraces"

    /// A packed gesture's payloads as stored: the header's magic, the same for every
    /// gesture, is left out and put back by the reader.
    static func packed(_ payloads: [UInt8]) -> ArraySlice<UInt8> {
        precondition(payloads.starts(with: HeaderFormat.magic), "a gesture's payloads start with its header")
        return payloads[HeaderFormat.magic.count...]
    }

    /// Whether a name is one a gesture may have: a relative path of `/`-separated parts,
    /// none empty, hidden (a leading `.`) or holding a NUL, at most ``maximumNameBytes``.
    /// Returns the problem, or nil.
    static func problem(withName name: String) -> String? {
        var name = name
        return name.withUTF8 { bytes -> String? in
            guard !bytes.isEmpty else { return "an empty gesture name" }
            guard bytes.count <= maximumNameBytes else { return "a gesture name of \(bytes.count) bytes (at most \(maximumNameBytes))" }
            // One pass over the bytes (a corpus checks every record's name): a part starts at
            // 0 and after each "/".
            var partStart = true
            for byte in bytes {
                if partStart {
                    if byte == UInt8(ascii: "/") {
                        return "gesture name \"\(String(decoding: bytes, as: UTF8.self))\" has an empty part (a leading, trailing or double /)"
                    }
                    if byte == UInt8(ascii: ".") {
                        return "gesture name \"\(String(decoding: bytes, as: UTF8.self))\" has a hidden part or a . or .. (a part starting with .)"
                    }
                }
                if byte == 0 { return "gesture name \"\(String(decoding: bytes, as: UTF8.self))\" holds a NUL byte" }
                partStart = byte == UInt8(ascii: "/")
            }
            return partStart ? "gesture name \"\(String(decoding: bytes, as: UTF8.self))\" has an empty part (a leading, trailing or double /)" : nil
        }
    }

    /// The last part of a gesture's name: the name of its file without `.pantrace`, the id a
    /// version 3 header leaves out.
    static func baseName(_ name: String) -> String {
        guard let slash = name.utf8.lastIndex(of: UInt8(ascii: "/")) else { return name }
        return String(name[name.utf8.index(after: slash)...])
    }

    static func encodeHeader(into w: inout ByteWriter) {
        w.raw(magic)
        w.varint(UInt64(version))
    }

    /// How a packed gesture's header is stored: in full (``none``), in full and kept for the
    /// gestures after it in the chunk (``kept``, with its length in bytes, magic left out), or
    /// as the index of a kept header of the chunk (``shared``), the bytes then left out.
    enum HeaderSharing: Equatable {
        case none
        case kept(length: Int)
        case shared(index: Int)

        var code: UInt8 {
            switch self {
            case .none: 0
            case .kept: 3
            case .shared: 4
            }
        }
    }

    /// The most headers one chunk keeps for sharing.
    static let maximumKeptHeaders = 64

    /// A gesture record. `previous` is the name of the record before it in the same chunk
    /// (empty for the chunk's first): the bytes both start with are counted, not repeated.
    static func encodeGesture(
        index: Int, name: String, previous: String = "", storage: CorpusGesture.Storage, sharing: HeaderSharing = .none, length: Int?,
        into w: inout ByteWriter
    ) {
        let bytes = Array(name.utf8), before = Array(previous.utf8)
        var shared = 0
        while shared < bytes.count, shared < before.count, bytes[shared] == before[shared] { shared += 1 }
        w.byte(gestureRecord)
        w.varint(UInt64(index))
        w.varint(UInt64(shared))
        w.varint(UInt64(bytes.count - shared))
        w.raw(bytes[shared...])
        w.byte(storage == .packed ? sharing.code : storage.code)
        switch sharing {
        case .none: break
        case .kept(let length): w.varint(UInt64(length))
        case .shared(let index): w.varint(UInt64(index))
        }
        if let length { w.varint(UInt64(length)) }
    }
}

/// One gesture of a corpus file, as its record describes it.
public struct CorpusGesture: Sendable, Hashable {
    /// How a corpus holds a gesture (docs/FORMAT.md §11).
    public enum Storage: String, Sendable, Hashable {
        /// The gesture's payloads inside a corpus chunk, many gestures to a chunk: what the
        /// archive writer would write for its trace, without a gzip member of its own.
        case packed
        /// The bytes of a `.pantrace` file, whole and unchanged, after the record's chunk.
        case verbatim
        /// A `.pantrace` file written as the gesture happened, up to the next gesture record.
        case live

        var code: UInt8 {
            switch self {
            case .packed: 0
            case .verbatim: 1
            case .live: 2
            }
        }

        init?(code: UInt8) {
            switch code {
            case 0, 3, 4: self = .packed  // 3 and 4: its header kept or shared (CorpusFormat.HeaderSharing)
            case 1: self = .verbatim
            case 2: self = .live
            default: return nil
            }
        }
    }

    /// The gesture's 0-based position in the corpus.
    public var index: Int
    /// Its name: a relative path without `.pantrace` (`swipe-down-120hz/synth-19-00000`),
    /// where extracting the corpus into a folder puts it.
    public var name: String
    /// How it is stored.
    public var storage: Storage
    /// Where the chunk holding its record starts in the corpus file.
    public var byteOffset: Int
    /// For verbatim and live gestures, the bytes of the corpus that are its `.pantrace` file.
    public var fileRange: Range<Int>?

    /// The path a gesture is shown under: `corpus.pantraces#name`.
    public func label(in corpus: String) -> String { "\(corpus)#\(name)" }
}

/// Recognises corpus files by name.
public enum GestureCorpus {
    /// The file name ending of a corpus, `.pantraces`.
    public static let fileExtension = CorpusFormat.fileExtension

    /// Whether `path` names a corpus file (ends with `.pantraces`, any case).
    public static func isCorpus(path: String) -> Bool {
        path.lowercased().hasSuffix(CorpusFormat.fileExtension)
    }
}

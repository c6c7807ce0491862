/// Whole-buffer gzip, for baselines and tools that want plain gzip files.
public enum Gzip {
    /// `bytes` as one gzip member at zlib level 6.
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        GzipDeflater().appendMember(of: bytes, to: &out)
        return out
    }

    /// Every member of a gzip file, concatenated; throws on damage or past `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int = 1 << 30) throws(PanTraceError) -> [UInt8] {
        let inflater = GzipInflater()
        var out: [UInt8] = [], member: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            switch inflater.inflateMember(bytes, from: offset, limit: limit - out.count, into: &member) {
            case .complete(let consumed):
                out.append(contentsOf: member)
                offset += consumed
            case .truncated:
                throw PanTraceError(.truncated, byteOffset: offset)
            case .overLimit:
                throw PanTraceError(.outputLimit(limit: limit), byteOffset: offset)
            case .corrupt(let message, let at):
                throw PanTraceError(.corruptChunk(message), byteOffset: at)
            }
        }
        return out
    }
}

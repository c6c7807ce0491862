package import Foundation
internal import TransitionEngine

/// A replay as JSON Lines, written as it is computed: every frame (with `frames`), then the
/// summary line. Memory stays flat whatever the length: at most about ``chunkBytes`` wait in
/// the buffer before `write` takes them.
///
/// The bytes are those `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`,
/// one object and a line feed per frame (``JSONWriter/frame(_:)``, held to `JSONEncoder` by
/// `FrameStateJSONTests`). A frame holding a number JSON cannot carry (NaN, infinity) goes
/// through `JSONEncoder` instead, which throws as it always did.
package enum ReplayJSONLines {
    /// How many bytes gather before they are handed to `write` (64 KiB: a pipe's buffer).
    package static let chunkBytes = 1 << 16

    /// The encoder of the summary line (and of a frame the fast path cannot write).
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Sorted keys: Foundation's key order is otherwise not stable from run to run.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Replays the rest of `replayer`'s frames into `write`, in chunks of about `chunkBytes`,
    /// then the summary line.
    /// - Parameters:
    ///   - frames: false for the summary line alone.
    ///   - write: takes each chunk; it may throw (a closed pipe, a full disk), which stops the replay.
    package static func stream(
        _ replayer: inout Replayer, frames: Bool = true, chunkBytes: Int = chunkBytes, to write: ([UInt8]) throws -> Void
    ) throws {
        let encoder = encoder()
        var out = JSONWriter(capacity: chunkBytes + 4096)
        if frames {
            while let frame = replayer.nextFrame() {
                let start = out.bytes.count
                out.frame(frame)
                if !out.isValid {
                    out.truncate(to: start)
                    out.append(Array(try encoder.encode(frame)))
                }
                out.raw("\n")
                if out.bytes.count >= chunkBytes {
                    try write(out.bytes)
                    out.truncate(to: 0)
                }
            }
        }
        out.append(Array(try encoder.encode(replayer.summary)))
        out.raw("\n")
        try write(out.bytes)
    }
}

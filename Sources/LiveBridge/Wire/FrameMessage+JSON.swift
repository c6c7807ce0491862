internal import PanReplay
internal import TransitionEngine

extension FrameMessage {
    /// The `frame` server message as JSON, without `Codable`: the bytes `JSONEncoder` writes for
    /// `ServerMessage.frame(self)` with `[.sortedKeys, .withoutEscapingSlashes]`.
    ///
    /// Frames are the one message sent many times a second, and encoding them through
    /// `JSONEncoder` took most of the time between a frame's `emitted_us` stamp and its first
    /// write. `FrameMessageJSONTests` holds this to the `Codable` output byte for byte, over
    /// the golden fixtures and seeded random frames; a field added to `FrameState` or `Layer`
    /// without being added here fails those tests.
    /// - Returns: nil when a number is not finite (JSON has no NaN or infinity): the caller
    ///   falls back to `JSONEncoder`, which reports it the same way as for any other message.
    func sortedKeysJSON() -> [UInt8]? {
        guard let body = Self.bodyJSON(frame) else { return nil }
        return sortedKeysJSON(body: body)
    }

    /// The `frame` object alone, to be shared by every message of that frame; nil when a number
    /// is not finite.
    static func bodyJSON(_ frame: FrameState) -> [UInt8]? {
        var out = JSONWriter(capacity: 1024)
        out.frame(frame)
        return out.isValid ? out.bytes : nil
    }

    /// The message around a `frame` object already written (``bodyJSON(_:)``).
    func sortedKeysJSON(body: [UInt8]) -> [UInt8]? {
        var out = JSONWriter(capacity: body.count + 160)
        out.raw("{\"emitted_us\":")
        out.integer(emittedMicroseconds)
        out.raw(",\"frame\":")
        out.append(body)
        if let ifReleased {
            out.raw(",\"if_released\":{\"decision\":")
            out.string(ifReleased.decision)
            out.raw(",\"margin\":")
            out.number(ifReleased.margin)
            out.raw(",\"reason\":")
            out.string(ifReleased.reason)
            out.raw("}")
        }
        out.raw(",\"load\":")
        out.integer(load)
        out.raw(",\"recording\":")
        out.string(recording)
        out.raw(",\"seq\":")
        out.integer(seq)
        if let source {
            out.raw(",\"source\":")
            out.integer(source)
        }
        out.raw(",\"type\":\"frame\"}")
        return out.isValid ? out.bytes : nil
    }
}

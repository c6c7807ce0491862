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
        out.write(frame)
        return out.isValid ? out.bytes : nil
    }

    /// The message around a `frame` object already written (``bodyJSON(_:)``).
    func sortedKeysJSON(body: [UInt8]) -> [UInt8]? {
        var out = JSONWriter(capacity: body.count + 160)
        out.raw("{\"emitted_us\":")
        out.integer(emittedMicroseconds)
        out.raw(",\"frame\":")
        out.append(body)
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

// Keys in each object below are in sorted order (byte order of their UTF-8), as `.sortedKeys` writes them.
extension JSONWriter {
    fileprivate mutating func write(_ frame: FrameState) {
        if let gesture = frame.gesture {
            raw("{\"gesture\":{\"phase\":")
            string(gesture.phase.rawValue)
            raw(",\"time\":")
            number(gesture.time)
            raw(",\"translation\":")
            write(gesture.translation)
            raw(",\"velocity\":")
            write(gesture.velocity)
            raw("},\"layers\":[")
        } else {
            raw("{\"layers\":[")
        }
        for (index, layer) in frame.layers.enumerated() {
            if index > 0 { raw(",") }
            write(layer)
        }
        raw("],\"phase\":")
        string(frame.phase.rawValue)
        raw(",\"progress\":")
        number(frame.progress)
        if let release = frame.release {
            raw(",\"release\":")
            write(release)
        }
        raw(",\"rendered_progress\":")
        number(frame.renderedProgress)
        raw(",\"time\":")
        number(frame.time)
        raw("}")
    }

    private mutating func write(_ layer: Layer) {
        raw("{\"alpha\":")
        number(layer.alpha)
        raw(",\"corner_radius\":")
        number(layer.cornerRadius)
        raw(",\"frame\":{\"height\":")
        number(layer.frame.height)
        raw(",\"width\":")
        number(layer.frame.width)
        raw(",\"x\":")
        number(layer.frame.x)
        raw(",\"y\":")
        number(layer.frame.y)
        raw("}")
        if let mask = layer.mask {
            raw(",\"mask\":{\"center\":")
            write(mask.center)
            raw(",\"radius\":")
            number(mask.radius)
            if let radiusY = mask.radiusY {
                raw(",\"radius_y\":")
                number(radiusY)
            }
            raw("}")
        }
        raw(",\"role\":")
        string(layer.role.rawValue)
        raw(",\"scale\":")
        number(layer.scale)
        raw(",\"translation\":")
        write(layer.translation)
        raw("}")
    }

    private mutating func write(_ release: ReleaseReport) {
        raw("{\"completion_model\":")
        string(release.completionModel)
        raw(",\"completion_time\":")
        number(release.completionTime)
        raw(",\"decision\":")
        write(release.decision)
        raw(",\"margin\":")
        number(release.margin)
        raw(",\"reason\":")
        string(release.reason)
        raw(",\"rule\":")
        string(release.rule)
        raw("}")
    }

    private mutating func write(_ decision: Decision) {
        raw("{\"axis_velocity\":")
        number(decision.axisVelocity)
        raw(",\"basis\":")
        string(decision.basis.rawValue)
        raw(",\"comparison\":")
        string(decision.comparison.rawValue)
        raw(",\"is_velocity_gated\":")
        bool(decision.isVelocityGated)
        raw(",\"margin\":")
        number(decision.margin)
        raw(",\"outcome\":")
        string(decision.outcome.rawValue)
        raw(",\"progress_velocity\":")
        number(decision.progressVelocity)
        raw(",\"statistic\":")
        number(decision.statistic)
        raw(",\"threshold\":")
        number(decision.threshold)
        raw("}")
    }

    private mutating func write(_ vector: Vector2) {
        raw("{\"x\":")
        number(vector.x)
        raw(",\"y\":")
        number(vector.y)
        raw("}")
    }
}

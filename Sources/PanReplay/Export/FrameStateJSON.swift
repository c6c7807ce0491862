package import TransitionEngine

// A frame without `Codable`, shared by the viewer's `frame` messages (LiveBridge) and
// `pantrace replay`'s JSON Lines. `FrameMessageJSONTests` and `FrameStateJSONTests` hold it to
// `JSONEncoder`'s output byte for byte: a field added to `FrameState` or `Layer` without being
// added here fails them.
//
// Keys in each object below are in sorted order (byte order of their UTF-8), as `.sortedKeys` writes them.
extension JSONWriter {
    /// Appends a frame as `JSONEncoder` writes it with `[.sortedKeys, .withoutEscapingSlashes]`
    /// (its `isValid` turns false on a number JSON cannot carry: fall back to `JSONEncoder`).
    package mutating func frame(_ frame: FrameState) {
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

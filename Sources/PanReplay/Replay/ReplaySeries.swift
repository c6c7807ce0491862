internal import PanCapture
internal import PanTrace
package import TransitionEngine

/// A whole replay at a glance: every frame's progress, drawn progress, finger translation and
/// velocity, with the moments that matter (touch-down, release, settle) and the stage at each.
///
/// The viewer draws its timeline from this, so the chart shows the whole replay as soon as a
/// recording is loaded or a page joins, however few frames it has been sent (docs/VIEWER.md).
/// It is computed from a fresh replay, so it is exactly what playing every frame would show.
package struct ReplaySeries: Sendable, Hashable, Codable {
    /// One point of the series: a frame (or, past ``maximumPoints``, every `stride`-th frame).
    package struct Point: Sendable, Hashable, Codable {
        package var time: Double
        package var phase: TransitionPhase
        package var progress: Double
        package var renderedProgress: Double
        /// The finger's translation, pt, while a gesture sample is in effect (nil after the release).
        package var translation: Vector2?
        /// What the velocity source says at this instant, pt/s (nil after the release): the
        /// estimator asked at the frame's time, with its own "pointer stopped" rule, or for a
        /// recorded velocity, the recorded values joined linearly between samples.
        package var velocity: Vector2?

        private enum CodingKeys: String, CodingKey {
            case time, phase, progress, translation, velocity
            case renderedProgress = "rendered_progress"
        }
    }

    /// A frame of the stage at a moment that matters, for the filmstrip.
    package struct Keyframe: Sendable, Hashable, Codable {
        /// `touch_down`, `release`, `mid_completion` or `settle`.
        package var moment: String
        package var frame: FrameState
    }

    package var points: [Point]
    /// Frames between consecutive points (1 unless the replay has more than the maximum).
    package var stride: Int
    package var touchDown: Double
    package var release: Double
    package var settle: Double
    /// The release frame's decision, reason and margin.
    package var releaseReport: ReleaseReport?
    package var keyframes: [Keyframe]

    /// The largest number of points a series carries (a chart is at most a few thousand pixels wide).
    package static let maximumPoints = 4000

    private enum CodingKeys: String, CodingKey {
        case points, stride, release, settle, keyframes
        case touchDown = "touch_down"
        case releaseReport = "release_report"
    }

    /// The series of `replayer`'s replay (from its first frame, whatever it has played).
    package init(of replayer: Replayer, maximumPoints: Int = ReplaySeries.maximumPoints) {
        var replay = replayer
        let count = replay.frameCount
        let stride = max(1, (count + maximumPoints - 1) / max(1, maximumPoints))
        let track = replay.track
        var velocity = SeriesVelocity(track: track, source: replay.configuration.parameters.velocity)
        let releaseTime = track.release.time
        var points: [Point] = []
        points.reserveCapacity(count / stride + 2)
        var indices = Array(Swift.stride(from: 0, to: count, by: stride))
        if let last = indices.last, last != count - 1, count > 0 { indices.append(count - 1) }
        var releaseReport: ReleaseReport?
        var releaseFrameIndex: Int?
        for index in indices {
            replay.seek(toFrame: index)
            guard let frame = replay.nextFrame() else { break }
            let gestureDown = frame.time < releaseTime && frame.gesture != nil
            points.append(
                Point(
                    time: frame.time, phase: frame.phase, progress: frame.progress, renderedProgress: frame.renderedProgress,
                    translation: gestureDown ? frame.gesture?.translation : nil,
                    velocity: gestureDown ? velocity.at(frame.time) : nil))
        }
        // The release frame is the first at or after the release sample; it carries the decision.
        let first = replay.time(ofFrame: 0)
        let rate = replay.configuration.frameRate
        var candidate = max(0, Int(((releaseTime - first) * rate).rounded(.down)))
        while candidate < count, replay.time(ofFrame: candidate) < releaseTime { candidate += 1 }
        if candidate < count {
            replay.seek(toFrame: candidate)
            let frame = replay.nextFrame()
            releaseReport = frame?.release
            releaseFrameIndex = candidate
        }
        var keyframes: [Keyframe] = []
        func keyframe(_ moment: String, _ index: Int) {
            guard index >= 0, index < count else { return }
            replay.seek(toFrame: index)
            if let frame = replay.nextFrame() { keyframes.append(Keyframe(moment: moment, frame: frame)) }
        }
        keyframe("touch_down", 0)
        if let releaseFrameIndex {
            keyframe("release", releaseFrameIndex)
            keyframe("mid_completion", releaseFrameIndex + (count - 1 - releaseFrameIndex) / 2)
        }
        keyframe("settle", count - 1)
        self.points = points
        self.stride = stride
        self.touchDown = track.inputs.first?.time ?? 0
        self.release = releaseTime
        self.settle = count > 0 ? replay.time(ofFrame: count - 1) : releaseTime
        self.releaseReport = releaseReport
        self.keyframes = keyframes
    }
}

/// The velocity source asked at any instant of the gesture, in time order.
private struct SeriesVelocity {
    let track: GestureTrack
    var tracker: VelocityTracker?
    var fed = 0

    init(track: GestureTrack, source: VelocitySource) {
        self.track = track
        tracker = source.strategy.map { VelocityTracker(strategy: $0) }
    }

    /// The velocity at `time` (not earlier than the previous call's).
    mutating func at(_ time: Double) -> Vector2 {
        let inputs = track.inputs
        guard var tracker else { return recorded(at: time) }
        while fed < inputs.count, inputs[fed].time <= time, !inputs[fed].phase.isRelease {
            // Integer nanoseconds, as the replay's own tracker feeds them (GestureTrack).
            tracker.add(x: inputs[fed].translation.x, y: inputs[fed].translation.y, atNanoseconds: Self.nanoseconds(inputs[fed].time))
            fed += 1
        }
        self.tracker = tracker
        guard let v = tracker.velocity(atNanoseconds: Self.nanoseconds(time)) else { return .zero }
        return Vector2(x: v.x, y: v.y)
    }

    /// The recorded velocities, joined linearly between the samples around `time`.
    private mutating func recorded(at time: Double) -> Vector2 {
        let inputs = track.inputs
        while fed + 1 < inputs.count, inputs[fed + 1].time <= time { fed += 1 }
        let a = inputs[fed]
        guard fed + 1 < inputs.count, time > a.time else { return a.velocity }
        let b = inputs[fed + 1]
        let f = (time - a.time) / (b.time - a.time)
        return Vector2(x: a.velocity.x + (b.velocity.x - a.velocity.x) * f, y: a.velocity.y + (b.velocity.y - a.velocity.y) * f)
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }
}

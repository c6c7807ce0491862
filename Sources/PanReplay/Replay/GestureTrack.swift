package import PanTrace
package import TransitionEngine
internal import PanCapture

/// One recorded gesture as the engine consumes it: its samples up to the release as
/// ``GestureInput``s, with velocity from the chosen ``VelocitySource``.
///
/// A track is built once per trace and velocity source; it does not depend on the preset, so
/// a tuner computes each trace's ``ReleaseState`` once per progress mapping and decides it
/// under every grid point.
package struct GestureTrack: Sendable, Hashable {
    /// The trace's identifier.
    package var id: String
    /// What the person meant.
    package var intent: Intent
    /// The screen the transition runs on, in points.
    package var screen: Size
    /// The samples from the first to the release (`ended` or `cancelled`), in time order.
    package var inputs: [GestureInput]
    /// When the finger last moved before the release, s (the stopped-finger gate's input),
    /// computed exactly as ``InteractiveTransition`` does.
    package var lastMoveTime: Double

    /// Builds the track of `trace`.
    ///
    /// - Parameters:
    ///   - trace: the recording.
    ///   - velocity: recorded, or recomputed with an estimator from the samples' translations.
    ///   - screen: the screen to replay on; the trace's own screen when nil.
    ///   - releaseVelocityOnly: estimate the velocity at the release only, and leave the
    ///     other samples' zero (every sample still feeds the estimator, so the release's is
    ///     the same to the bit): all a release state reads, at a fraction of the cost.
    /// - Throws: ``ReplayError`` when the trace has no `ended`/`cancelled` sample, or ends
    ///   before it begins.
    package init(trace: Trace, velocity: VelocitySource, screen: Size? = nil, releaseVelocityOnly: Bool = false) throws {
        guard let releaseIndex = trace.samples.firstIndex(where: { $0.phase.isTerminal }) else {
            throw ReplayError.noRelease.about(trace.metadata.id)
        }
        guard releaseIndex > 0 else { throw ReplayError.neverBegan.about(trace.metadata.id) }
        // Checked before any velocity is estimated: a span of years would overflow the
        // estimators' nanoseconds and ask a replay for billions of frames.
        let span = trace.samples[releaseIndex].time - trace.samples[0].time
        guard span <= ValueLimits.replaySpan else {
            throw ReplayError.tooLong("the gesture", seconds: span).about(trace.metadata.id)
        }
        let screen = screen ?? Size(trace.metadata.screen)
        for value in [screen.width, screen.height] where !(value.isFinite && ValueLimits.screenPoints.contains(value)) {
            throw ReplayError.invalidScreen("\(screen.width) × \(screen.height) points is outside 1…100000").about(trace.metadata.id)
        }
        let samples = trace.samples[...releaseIndex]
        // The recorded velocity is each sample's own (nil here): no list of them is made.
        let velocities = velocity.strategy.map { Self.velocities(of: samples, strategy: $0, releaseOnly: releaseVelocityOnly) }
        var inputs: [GestureInput] = []
        inputs.reserveCapacity(samples.count)
        var lastMoveTime = samples.first!.time
        var previous: Vector2?
        for (offset, sample) in samples.enumerated() {
            let input = GestureInput(sample, velocity: velocities?[offset])
            // As the engine does: a began/changed sample that moves the finger is a move; the
            // lift's own position is not.
            if !sample.phase.isTerminal, previous.map({ $0 != input.translation }) ?? true {
                lastMoveTime = input.time
            }
            if !sample.phase.isTerminal { previous = input.translation }
            inputs.append(input)
        }
        self.id = trace.metadata.id
        self.intent = trace.metadata.intent
        self.screen = screen
        self.inputs = inputs
        self.lastMoveTime = lastMoveTime
    }

    /// The release sample (`ended` or `cancelled`).
    package var release: GestureInput { inputs[inputs.count - 1] }

    /// The release state through `mapping`, read as `reading` says: what every decision of
    /// this gesture needs, exactly as ``InteractiveTransition`` computes it.
    package func releaseState(mapping: ProgressMapping, reading: CallbackReading) -> ReleaseState {
        let lastChanged = inputs.last { $0.phase == .changed }
        let shown: Double?
        if reading.progressSource == .lift {
            shown = nil
        } else {
            shown = lastChanged.map { mapping.progress(for: $0.translation) }
        }
        return ReleaseState(
            sample: release, shownProgress: shown, hasChanged: lastChanged != nil, lastMoveTime: lastMoveTime,
            mapping: mapping, reading: reading)
    }

    /// The release state under `preset` on this track's screen.
    package func releaseState(preset: Preset) -> ReleaseState {
        releaseState(mapping: preset.mapping(screen: screen), reading: preset.reading)
    }

    /// The velocity at each sample from an estimator: what the platform's tracker reports right
    /// after the sample (at a lift or cancel, what the platform hands over; none becomes zero).
    private static func velocities(of samples: ArraySlice<PanSample>, strategy: VelocityStrategy, releaseOnly: Bool) -> [Vector2] {
        var feeder = VelocityFeeder(strategy: strategy)
        let last = samples.endIndex - 1
        return samples.indices.map { index in
            let sample = samples[index]
            // The tracker works in integer nanoseconds, as Android's `nsecs_t` does.
            let nanoseconds = Int64((sample.time * 1e9).rounded())
            let fed = VelocitySample(
                nanoseconds: nanoseconds, x: sample.translation.x, y: sample.translation.y, phase: VelocitySample.Phase(sample.phase))
            let reported: PanVector?
            switch feeder.feed(fed) {
            case .tracking: reported = releaseOnly && index != last ? nil : feeder.tracker.velocity(atNanoseconds: nanoseconds)
            case .released(let velocity), .cancelled(let velocity): reported = velocity
            }
            return reported.map { Vector2(x: $0.x, y: $0.y) } ?? .zero
        }
    }
}

package import PanTrace
package import TransitionEngine

/// Replays one gesture through a preset, display frame by display frame, in virtual time.
///
/// Frame `k` is at `t₀ + k/f` (the first sample's time plus `k` frame intervals, computed
/// directly so that no error accumulates), from the first sample to the first frame at or
/// after the end of the completion. Before a frame is drawn, every sample at or before its
/// time is fed to the ``InteractiveTransition``, so while the finger is down a frame shows the
/// latest sample at or before it, as UIKit applies gesture callbacks at the next frame; the
/// release is decided from the `ended`/`cancelled` sample itself, at its own time.
///
/// Virtual time never sleeps and never reads a clock: the same trace and configuration give
/// the same frames, bit for bit. ``run(clock:speed:emit:)`` paces the same frames on a clock
/// the caller injects (the CLI's `--realtime` passes `ContinuousClock`).
package struct Replayer: Sendable {
    /// What to replay on.
    package struct Configuration: Sendable, Hashable {
        /// The preset, overrides and velocity source.
        package var parameters: ReplayParameters
        /// The display frame rate, Hz (60, 120 or 240 for the CLI).
        package var frameRate: Double
        /// The screen in points; the trace's own when nil.
        package var screen: Size?

        /// Creates a configuration.
        package init(parameters: ReplayParameters, frameRate: Double = 60, screen: Size? = nil) {
            precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be positive")
            self.parameters = parameters
            self.frameRate = frameRate
            self.screen = screen
        }
    }

    /// The configuration.
    package let configuration: Configuration
    /// The gesture being replayed.
    package let track: GestureTrack
    /// The decision and metrics (known before the first frame: they depend only on the
    /// samples up to the release).
    package private(set) var summary: ReplaySummary
    /// How many frames the replay has.
    package let frameCount: Int
    /// The index of the next frame.
    package private(set) var frameIndex = 0

    private var transition: InteractiveTransition
    private var cursor = 0
    private var nextInputTime: Double
    private let startTime: Double

    /// Prepares the replay of `trace`.
    ///
    /// - Throws: ``ReplayError`` when the trace has no release or never begins.
    package init(trace: Trace, configuration: Configuration) throws {
        let track = try GestureTrack(trace: trace, velocity: configuration.parameters.velocity, screen: configuration.screen)
        try self.init(track: track, intentOf: trace, configuration: configuration)
    }

    /// Prepares the replay of an already built track (its velocity source and screen are used
    /// as they are).
    ///
    /// - Throws: ``ReplayError`` when the gesture never begins.
    package init(track: GestureTrack, configuration: Configuration) throws {
        try self.init(track: track, intentOf: nil, configuration: configuration)
    }

    private init(track: GestureTrack, intentOf trace: Trace?, configuration: Configuration) throws {
        let preset = configuration.parameters.preset
        let rate = configuration.frameRate
        var dryRun = InteractiveTransition(preset: preset, screen: track.screen, displayFrameRate: rate)
        for input in track.inputs { _ = dryRun.handle(input) }
        guard let release = dryRun.release, let decision = dryRun.decision, let trajectory = dryRun.trajectory else {
            throw ReplayError.neverBegan.about(track.id)
        }
        let metrics = TransitionMetrics(release: release, preset: preset, displayFrameRate: rate)
        let start = track.inputs[0].time
        let end = release.time + trajectory.duration
        guard end - start <= ValueLimits.replaySpan else {
            // A NaN span fails this test too.
            throw ReplayError.tooLong("the gesture and its completion", seconds: end - start).about(track.id)
        }
        let frames = Self.lastFrame(from: start, atOrAfter: end, rate: rate) + 1

        self.configuration = configuration
        self.track = track
        self.startTime = start
        self.nextInputTime = start
        self.frameCount = frames
        self.transition = InteractiveTransition(preset: preset, screen: track.screen, displayFrameRate: rate)
        self.summary = ReplaySummary(
            trace: track.id,
            preset: preset.name.rawValue,
            velocity: configuration.parameters.velocity,
            frameRate: rate,
            frames: frames,
            decision: decision.outcome,
            reason: decision.reason,
            rule: preset.policy.rule.identifier,
            margin: decision.margin,
            marginUnit: decision.isVelocityBased ? "pt/s" : "progress",
            progressAtRelease: release.progress,
            releaseVelocity: decision.axisVelocity,
            releaseTime: release.time,
            completionModel: preset.completion.identifier,
            completionTime: trajectory.duration,
            settleTime: metrics.settleTime,
            overshoot: metrics.overshoot,
            overshootPoints: metrics.overshootPoints,
            discontinuity: metrics.velocityDiscontinuity,
            isFlipProne: metrics.isFlipProne,
            isFrameRateDependent: metrics.isFrameRateDependent,
            intent: track.intent,
            isCorrect: track.intent.outcome.map { $0 == decision.outcome }
        )
        let fit = GestureFit(inputs: track.inputs, mapping: preset.mapping(screen: track.screen))
        summary.drag = preset.dragDescription
        summary.fit = fit.verdict
        summary.fitNote = fit.explanation
        summary.peakProgress = fit.peakProgress
        summary.suggestedDirection = fit.suggestedDirection
        var warnings = preset.unreachableOutcomes
        if trajectory.isBounded {
            warnings.append(
                "the completion would take \(Self.seconds(trajectory.plannedDuration)) s; it is bounded to \(Self.seconds(trajectory.duration)) s (docs/MODEL.md §4.12)"
            )
        }
        summary.warnings = warnings
    }

    private static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : "\(rounded)"
    }

    /// The smallest `k ≥ 0` with `start + k/rate ≥ end`.
    private static func lastFrame(from start: Double, atOrAfter end: Double, rate: Double) -> Int {
        var k = max(0, Int(((end - start) * rate).rounded(.up)))
        while k > 0 && start + Double(k - 1) / rate >= end { k -= 1 }
        while start + Double(k) / rate < end { k += 1 }
        return k
    }

    /// The gesture time of frame `index`, s.
    package func time(ofFrame index: Int) -> Double {
        startTime + Double(index) / configuration.frameRate
    }

    /// Whether every frame has been produced.
    package var isFinished: Bool { frameIndex >= frameCount }

    /// The next frame without heap allocation (the hot path), or nil after the last.
    package mutating func nextSnapshot() -> FrameSnapshot? {
        guard frameIndex < frameCount else { return nil }
        let time = self.time(ofFrame: frameIndex)
        feed(upTo: time)
        frameIndex += 1
        return transition.snapshot(at: time)
    }

    /// The next frame, ready to encode (the release frame carries the decision), or nil
    /// after the last.
    package mutating func nextFrame() -> FrameState? {
        guard frameIndex < frameCount else { return nil }
        let time = self.time(ofFrame: frameIndex)
        feed(upTo: time)
        frameIndex += 1
        return transition.frameState(at: time)
    }

    /// Positions the replay so that its next frame is `index` (clamped to `0…frameCount`),
    /// forwards or back, at the cost of the samples in between, never of the frames.
    ///
    /// Frames are pure functions of the samples fed so far (completion is analytic and a
    /// snapshot changes nothing), so skipping the frames between here and `index` gives the
    /// same frame `index` as drawing them all.
    package mutating func seek(toFrame index: Int) {
        let target = max(0, min(frameCount, index))
        if target < frameIndex {
            transition = InteractiveTransition(
                preset: configuration.parameters.preset, screen: track.screen, displayFrameRate: configuration.frameRate)
            cursor = 0
            nextInputTime = startTime
        }
        if target > 0 { feed(upTo: time(ofFrame: target - 1)) }
        frameIndex = target
    }

    /// Every remaining frame.
    package mutating func remainingFrames() -> [FrameState] {
        var frames: [FrameState] = []
        frames.reserveCapacity(frameCount - frameIndex)
        while let frame = nextFrame() { frames.append(frame) }
        return frames
    }

    /// Feeds every sample at or before `time`: the latest one is in effect for the frame.
    ///
    /// Completion is analytic (``InteractiveTransition/snapshot(at:)`` reads the phase from the
    /// trajectory), so frames after the release only compare one number here.
    @inline(__always)
    private mutating func feed(upTo time: Double) {
        guard nextInputTime <= time else { return }
        while cursor < track.inputs.count && track.inputs[cursor].time <= time {
            _ = transition.handle(track.inputs[cursor])
            cursor += 1
        }
        nextInputTime = cursor < track.inputs.count ? track.inputs[cursor].time : .infinity
    }

    /// Plays the remaining frames on `clock`: frame `k` is due `(t_k − t₀)/speed` after the
    /// call started, is emitted as soon as the clock reaches it, and its lateness is recorded.
    ///
    /// The library never picks a clock: pass `ContinuousClock()` for wall time, or a
    /// ``VirtualClock`` to run instantly and deterministically.
    ///
    /// - Parameters:
    ///   - clock: the clock to pace on.
    ///   - speed: playback speed; 2 plays twice as fast.
    ///   - emit: called with each frame, in order.
    /// - Returns: how late frames were, on `clock`.
    /// - Throws: `CancellationError` from the clock's sleep, or what `emit` throws.
    package mutating func run<C: Clock>(
        clock: C, speed: Double = 1, emit: (FrameState) throws -> Void
    ) async throws -> PacingReport where C.Duration == Duration {
        precondition(speed > 0 && speed.isFinite, "speed must be positive")
        let origin = clock.now
        let firstOffset = time(ofFrame: frameIndex) - startTime
        var frames = 0
        var total = 0.0
        var largest = 0.0
        while frameIndex < frameCount {
            let offset = (time(ofFrame: frameIndex) - startTime - firstOffset) / speed
            let deadline = origin.advanced(by: .seconds(offset))
            try await clock.sleep(until: deadline, tolerance: nil)
            let lateness = max(0, Self.seconds(deadline.duration(to: clock.now)))
            guard let frame = nextFrame() else { break }
            try emit(frame)
            frames += 1
            total += lateness
            largest = max(largest, lateness)
        }
        return PacingReport(frames: frames, speed: speed, meanError: frames == 0 ? 0 : 1000 * total / Double(frames), maximumError: 1000 * largest)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

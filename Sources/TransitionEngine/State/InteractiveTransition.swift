/// An interactive transition as a value-type state machine:
/// `idle → interactive(p) → completing(to: q) → finished | cancelled`, with re-grab
/// during completion (pause, read `p` and `p′`, continue interactively).
///
/// Inputs are gesture samples and the passage of time; each `mutating` method returns an
/// ``Action`` saying what happened, and the caller performs any effects. Between inputs, ``snapshot(at:)`` and ``frameState(at:)`` evaluate the frame at
/// any time analytically, so replays at 60, 120 and 240 Hz agree (except for the display-link
/// stepper, which is frame-rate dependent by design and uses ``Configuration/displayFrameRate``).
public struct InteractiveTransition: Sendable {
    /// What the transition runs on.
    public struct Configuration: Sendable, Hashable {
        /// The preset.
        public var preset: Preset
        /// The screen size in points.
        public var screen: Size
        /// The display frame rate in Hz (used by the stepper and to spot the release frame).
        public var displayFrameRate: Double

        /// Creates a configuration.
        public init(preset: Preset, screen: Size, displayFrameRate: Double = 60) {
            precondition(screen.width > 0 && screen.height > 0, "screen must have a positive size")
            precondition(displayFrameRate > 0, "display frame rate must be positive")
            self.preset = preset
            self.screen = screen
            self.displayFrameRate = displayFrameRate
        }
    }

    /// The state.
    public enum State: Sendable, Hashable {
        /// Before the gesture.
        case idle
        /// Finger-driven at progress `p`.
        case interactive(progress: Double)
        /// Animating toward `target` since `releaseTime`.
        case completing(target: Double, releaseTime: Double)
        /// Arrived at 1.
        case finished
        /// Returned to 0.
        case cancelled
    }

    /// What an input did.
    public enum Action: Sendable, Hashable {
        /// Nothing (an input that does not apply in the current state).
        case none
        /// The interaction began at this progress.
        case began(progress: Double)
        /// Progress changed.
        case updated(progress: Double)
        /// The finger lifted: the decision and the planned completion.
        case released(ReleaseReport)
        /// A completion was grabbed again at `progress`, moving at `velocity` (progress/s).
        case paused(progress: Double, velocity: Double)
        /// The completion arrived at 1.
        case finished
        /// The completion arrived at 0.
        case cancelled
    }

    /// The configuration.
    public let configuration: Configuration
    /// The current state.
    public private(set) var state: State = .idle
    /// The mapping in effect (its start progress moves on re-grab).
    public private(set) var mapping: ProgressMapping
    /// The latest gesture input.
    public private(set) var gesture: GestureInput?
    /// When the finger last moved, s.
    public private(set) var lastMoveTime: Double = 0
    /// The last release, if any.
    public private(set) var release: ReleaseState?
    /// The last decision, if any.
    public private(set) var decision: Decision?
    /// The planned completion after the last release, if any.
    public private(set) var trajectory: CompletionTrajectory?
    /// The progress the last `changed` callback (or re-grab) left, UIKit's `percentComplete`;
    /// nil before any.
    public private(set) var shownProgress: Double?
    /// Whether a `changed` callback has come since the gesture began.
    public private(set) var hasChanged = false

    /// Creates a transition in the `idle` state.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.mapping = configuration.preset.mapping(screen: configuration.screen)
    }

    /// Creates a transition for `preset` on `screen`.
    public init(preset: Preset, screen: Size, displayFrameRate: Double = 60) {
        self.init(configuration: Configuration(preset: preset, screen: screen, displayFrameRate: displayFrameRate))
    }

    /// Feeds one gesture sample. Samples must come in time order.
    public mutating func handle(_ input: GestureInput) -> Action {
        switch (state, input.phase) {
        case (.idle, .began), (.idle, .changed):
            gesture = input
            lastMoveTime = input.time
            let progress = interactiveProgress(input)
            state = .interactive(progress: progress)
            return .began(progress: progress)
        case (.idle, .ended), (.idle, .cancelled):
            // A gesture that never began (UIKit's `failed`): nothing to drive.
            return .none
        case (.interactive, .began), (.interactive, .changed):
            if gesture.map({ $0.translation != input.translation }) ?? true {
                lastMoveTime = input.time
            }
            gesture = input
            let progress = interactiveProgress(input)
            state = .interactive(progress: progress)
            return .updated(progress: progress)
        case (.interactive, .ended), (.interactive, .cancelled):
            // The lift's own position does not count as a move (docs/MODEL.md §1.5, §8.1).
            gesture = input
            return releaseNow(input)
        case (.completing(_, let releaseTime), .began):
            return regrab(input, releaseTime: releaseTime)
        case (.completing, _), (.finished, _), (.cancelled, _):
            return .none
        }
    }

    /// The progress a `began` or `changed` input leaves (docs/MODEL.md §1.3): with
    /// ``ReleaseProgress/changed`` a `began` does not move the transition.
    private mutating func interactiveProgress(_ input: GestureInput) -> Double {
        let moves = input.phase == .changed || configuration.preset.reading.progressSource == .lift
        guard moves else {
            if case .interactive(let current) = state { return current }
            return shownProgress ?? mapping.startProgress
        }
        let progress = mapping.progress(for: input.translation)
        shownProgress = progress
        if input.phase == .changed { hasChanged = true }
        return progress
    }

    /// Moves time forward: a completion whose time is up becomes `finished` or `cancelled`.
    public mutating func advance(to time: Double) -> Action {
        guard case .completing(let target, let releaseTime) = state, let trajectory else { return .none }
        guard trajectory.isComplete(at: time - releaseTime) else { return .none }
        state = target == 1 ? .finished : .cancelled
        return target == 1 ? .finished : .cancelled
    }

    /// Grabs a running completion at `time` without a new sample, as a long-press with
    /// `minimumPressDuration = 0` does in Apple's sample (`pauseAnimation()`).
    public mutating func pause(at time: Double) -> Action {
        guard case .completing(_, let releaseTime) = state else { return .none }
        return regrab(GestureInput(time: time, phase: .began, translation: .zero), releaseTime: releaseTime)
    }

    private mutating func releaseNow(_ input: GestureInput) -> Action {
        let release = ReleaseState(
            sample: input, shownProgress: shownProgress, hasChanged: hasChanged, lastMoveTime: lastMoveTime,
            mapping: mapping, reading: configuration.preset.reading)
        let preset = configuration.preset
        let decision = preset.policy.decide(release)
        let trajectory = preset.completion.trajectory(release: release, decision: decision, displayFrameRate: configuration.displayFrameRate)
        self.release = release
        self.decision = decision
        self.trajectory = trajectory
        state = .completing(target: decision.target, releaseTime: input.time)
        return .released(report(decision, trajectory))
    }

    private mutating func regrab(_ input: GestureInput, releaseTime: Double) -> Action {
        guard let trajectory else { return .none }
        let elapsed = input.time - releaseTime
        let progress = trajectory.progress(at: elapsed)
        let velocity = trajectory.velocity(at: elapsed)
        // Continue from the paused progress: the new gesture's translation counts from here.
        let offset = mapping.rawProgress(for: input.translation) - mapping.startProgress
        mapping = mapping.continuing(from: progress - offset)
        gesture = input
        lastMoveTime = input.time
        self.trajectory = nil
        let regrabbed = mapping.progress(for: input.translation)
        shownProgress = regrabbed
        state = .interactive(progress: regrabbed)
        return .paused(progress: progress, velocity: velocity)
    }

    private func report(_ decision: Decision, _ trajectory: CompletionTrajectory) -> ReleaseReport {
        ReleaseReport(
            decision: decision,
            rule: configuration.preset.policy.rule.identifier,
            completionModel: configuration.preset.completion.identifier,
            completionTime: trajectory.duration
        )
    }

    /// The phase and timeline progress at `time` (≥ the latest input's time).
    public func progress(at time: Double) -> (phase: TransitionPhase, progress: Double) {
        switch state {
        case .idle:
            return (.idle, mapping.startProgress)
        case .interactive(let progress):
            return (.interactive, progress)
        case .completing(let target, let releaseTime):
            guard let trajectory else { return (.completing, target) }
            let elapsed = max(0, time - releaseTime)
            if trajectory.isComplete(at: elapsed) {
                return (target == 1 ? .finished : .cancelled, target)
            }
            return (.completing, trajectory.progress(at: elapsed))
        case .finished:
            return (.finished, 1)
        case .cancelled:
            return (.cancelled, 0)
        }
    }

    /// The frame at `time`, without heap allocation: the hot path of a replayer.
    public func snapshot(at time: Double) -> FrameSnapshot {
        let (phase, progress) = progress(at: time)
        let preset = configuration.preset
        let rendered = preset.renderedProgress(progress)
        return FrameSnapshot(
            time: time,
            phase: phase,
            progress: progress,
            renderedProgress: rendered,
            layers: preset.layers(renderedProgress: rendered, screen: configuration.screen)
        )
    }

    /// The encodable frame at `time`. On the release frame (the first display frame at or
    /// after the release, `releaseTime ≤ time < releaseTime + 1/displayFrameRate`) it carries
    /// the decision with its reason and margin.
    public func frameState(at time: Double) -> FrameState {
        var report: ReleaseReport?
        if case .completing(_, let releaseTime) = state, let decision, let trajectory,
            time >= releaseTime, time < releaseTime + 1 / configuration.displayFrameRate
        {
            report = self.report(decision, trajectory)
        }
        return FrameState(snapshot(at: time), gesture: gesture, release: report)
    }
}

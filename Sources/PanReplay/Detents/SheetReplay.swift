package import PanTrace
package import TransitionEngine

/// Recorded gestures replayed as drags of a sheet with detents, through several libraries'
/// rules at once (docs/MODEL.md §9).
///
/// A gesture's vertical translation moves the sheet from its start detent; at the release each
/// library reads the velocity its own way (its estimator, then its gate) and chooses a detent.
package struct SheetReplay: Sendable {
    /// What `pantrace detents` and `replay --set detents=…` ask for.
    package struct Setup: Sendable {
        /// The detents' positions, points from the top of the screen, most expanded first.
        package var detents: [Double]
        /// The index of the detent the sheet rests at when the drag begins.
        package var start: Int
        /// Start each gesture where its drag makes sense instead: an upward drag at the least
        /// expanded detent, a downward one at the most expanded (`--start auto`, for gestures
        /// recorded without a sheet, such as the bundled flings).
        package var startsByDirection = false
        /// The libraries, with their settings.
        package var presets: [DetentPreset]
        /// One estimator for every library instead of each library's own (`--set velocity=…`).
        package var velocity: VelocitySource?
        /// The screen to replay on; each trace's own when nil.
        package var screen: Size?

        /// A setup.
        package init(detents: [Double], start: Int, presets: [DetentPreset], velocity: VelocitySource? = nil, screen: Size? = nil) {
            self.detents = detents
            self.start = start
            self.presets = presets
            self.velocity = velocity
            self.screen = screen
        }
    }

    /// One library's choice for one gesture.
    package struct Verdict: Sendable, Hashable {
        /// The library.
        package var preset: DetentPresetName
        /// Where the sheet goes, and why.
        package var decision: DetentDecision
        /// The estimator the velocity came from (vaul's press mean reads none).
        package var estimator: VelocitySource?
        /// The velocity the rule read, points per second, after the library's gate.
        package var velocity: Double { release.velocity }
        /// What the rule read.
        package var release: DetentRelease
        /// The smallest change of that velocity that changes the outcome, and the outcome it
        /// gives; nil when none within ±``DetentPreset/marginSearch`` does.
        package var margin: Margin?
    }

    /// How close a verdict was to another outcome.
    package struct Margin: Sendable, Hashable {
        /// Points per second to add to the velocity read (negative: slower downward).
        package var velocityChange: Double
        /// What the sheet would do then.
        package var outcome: DetentOutcome
    }

    /// One gesture's verdicts.
    package struct Gesture: Sendable, Hashable {
        /// The trace's identifier.
        package var id: String
        /// The detent the drag began at.
        package var start: Int
        /// Where the sheet's top edge is at the release, points.
        package var releasePosition: Double
        /// The verdicts, in the setup's preset order.
        package var verdicts: [Verdict]
    }

    package let setup: Setup

    /// A replay of `setup`: every library in it replays every gesture.
    ///
    /// - Throws: ``ReplayError`` when `start` names no detent, the detents are not a sheet on
    ///   the setup's screen (checked again per trace when each trace brings its own screen), or
    ///   a library cannot drive the sheet (leave those out first:
    ///   ``Setup/presetsThatCannotDrive()``).
    package init(_ setup: Setup) throws(ReplayError) {
        if let first = try setup.presetsThatCannotDrive().first { throw .invalidSheet(first.problem) }
        self.setup = setup
    }

    /// The estimator `preset` reads with: its library's, unless the setup names one for all.
    package func estimator(for preset: DetentPresetName) -> VelocitySource? {
        if preset.velocityGate == .pressMean { return nil }
        return setup.velocity ?? Self.libraryEstimator(preset)
    }

    /// Each library's own estimator (docs/MODEL.md §9.1): UIKit's recognizer on iOS, Android's
    /// least-squares tracker behind `ViewDragHelper` and Compose, Flutter's tracker.
    package static func libraryEstimator(_ preset: DetentPresetName) -> VelocitySource {
        switch preset {
        case .floatingpanel, .panmodal, .gorhom, .vaul: .recorded
        case .mdcBottomsheet, .composeAnchored, .m3Sheet, .cssScrollSnap: .lsq2
        case .flutterSheet: .flutter
        }
    }

    /// Replays `trace` through every library.
    ///
    /// - Throws: ``ReplayError`` when the trace has no release, or the detents do not fit on
    ///   its screen.
    package func replay(_ trace: Trace) throws -> Gesture {
        let drag = try SheetDrag(trace: trace, estimators: setup.presets.compactMap { estimator(for: $0.name) }, screen: setup.screen)
        let sheet: SheetLayout
        do {
            sheet = try setup.sheet(screenHeight: drag.screen.height)
        } catch {
            throw error.about(trace.metadata.id)
        }
        let start = setup.startsByDirection ? (drag.moved < 0 ? setup.detents.count - 1 : 0) : setup.start
        var verdicts: [Verdict] = []
        for preset in setup.presets {
            let estimator = estimator(for: preset.name)
            let release = drag.release(from: start, on: sheet, gate: preset.name.velocityGate, estimator: estimator)
            let decision = preset.decide(release, on: sheet)
            let margin = preset.velocityMargin(release, on: sheet).map { Margin(velocityChange: $0.change, outcome: $0.outcome) }
            verdicts.append(Verdict(preset: preset.name, decision: decision, estimator: estimator, release: release, margin: margin))
        }
        return Gesture(id: trace.metadata.id, start: start, releasePosition: sheet.detents[start] + drag.moved, verdicts: verdicts)
    }
}

extension SheetReplay {
    /// How `verdict`'s library moves the sheet for `trace`, replayed as `gesture`: the drag,
    /// then the library's settle (docs/MODEL.md §9.5).
    ///
    /// - Throws: ``ReplayError`` when the trace has no release or the sheet does not fit its
    ///   screen.
    package func motion(of trace: Trace, _ gesture: Gesture, _ verdict: Verdict) throws -> SheetMotion {
        guard let preset = setup.presets.first(where: { $0.name == verdict.preset }) else {
            preconditionFailure("a verdict comes from one of the setup's libraries")
        }
        let track = try GestureTrack(trace: trace, velocity: .recorded, screen: setup.screen, releaseVelocityOnly: true)
        let sheet: SheetLayout
        do {
            sheet = try setup.sheet(screenHeight: track.screen.height)
        } catch {
            throw error.about(trace.metadata.id)
        }
        return SheetMotion(track: track, on: sheet, preset: preset, release: verdict.release, outcome: verdict.decision.outcome)
    }
}

extension DetentOutcome {
    /// The outcome a label means.
    package init(_ target: SheetLabel.Target) {
        switch target {
        case .detent(let index): self = .detent(index)
        case .dismissed: self = .dismissed
        }
    }

    /// The outcome as a label spells it: the one spelling of "where the sheet goes" in every
    /// JSON PanTrace writes (a detent index, or `"dismissed"`).
    package var target: SheetLabel.Target { index.map { .detent($0) } ?? .dismissed }
}

/// One recorded gesture read as a drag of a sheet: how far it moved, how long it was pressed,
/// and its release velocity through each estimator asked for, each estimated once. What
/// ``SheetReplay`` and ``DetentTuner`` hand a library's rule comes from here.
package struct SheetDrag: Sendable {
    /// The screen the gesture replays on, points.
    package let screen: Size
    /// The vertical translation at the release, points (positive downward).
    package let moved: Double
    /// From the first sample to the release, seconds (vaul's press time).
    package let pressDuration: Double
    /// The vertical release velocity through each estimator, points per second.
    private let velocities: [VelocitySource: Double]
    /// The vertical translation at each sample up to the release, points.
    private let path: [Double]

    /// Reads `trace` through `estimators`.
    ///
    /// - Throws: ``ReplayError`` when the trace has no release or its screen is out of range.
    package init(trace: Trace, estimators: [VelocitySource], screen: Size?) throws {
        var velocities: [VelocitySource: Double] = [:]
        let base = try GestureTrack(trace: trace, velocity: .recorded, screen: screen, releaseVelocityOnly: true)
        velocities[.recorded] = base.release.velocity.y
        for estimator in estimators where velocities[estimator] == nil {
            velocities[estimator] = try GestureTrack(trace: trace, velocity: estimator, screen: screen, releaseVelocityOnly: true).release.velocity.y
        }
        self.screen = base.screen
        self.moved = base.release.translation.y
        self.pressDuration = base.release.time - base.inputs[0].time
        self.velocities = velocities
        self.path = base.inputs.map(\.translation.y)
    }

    /// The release a library reads on `sheet` from detent `start`: the estimator's velocity
    /// (none for vaul's press mean) through the library's gate.
    ///
    /// - Precondition: `estimator` is one of those the drag was read with, or nil.
    package func release(from start: Int, on sheet: SheetLayout, gate: DetentVelocityGate, estimator: VelocitySource?) -> DetentRelease {
        let estimated =
            estimator.map { source in
                guard let velocity = velocities[source] else { preconditionFailure("the drag was not read with \(source)") }
                return velocity
            } ?? 0
        let velocity = gate.velocity(estimated: estimated, distance: moved, pressDuration: pressDuration)
        return DetentRelease(start: start, position: sheet.detents[start] + moved, velocity: velocity, pressDuration: pressDuration, path: path)
    }
}

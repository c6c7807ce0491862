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
        package var velocity: Double
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
        var tracks: [VelocitySource: GestureTrack] = [:]
        func track(_ source: VelocitySource) throws -> GestureTrack {
            if let made = tracks[source] { return made }
            let made = try GestureTrack(trace: trace, velocity: source, screen: setup.screen, releaseVelocityOnly: true)
            tracks[source] = made
            return made
        }
        let base = try track(.recorded)
        let sheet: SheetLayout
        do {
            sheet = try setup.sheet(screenHeight: base.screen.height)
        } catch {
            throw error.about(trace.metadata.id)
        }
        let moved = base.release.translation.y
        let start = setup.startsByDirection ? (moved < 0 ? setup.detents.count - 1 : 0) : setup.start
        let position = setup.detents[start] + moved
        let pressDuration = base.release.time - base.inputs[0].time
        var verdicts: [Verdict] = []
        for preset in setup.presets {
            let estimator = estimator(for: preset.name)
            let estimated = try estimator.map { try track($0).release.velocity.y } ?? 0
            let velocity = preset.name.velocityGate.velocity(estimated: estimated, distance: moved, pressDuration: pressDuration)
            let release = DetentRelease(start: start, position: position, velocity: velocity, pressDuration: pressDuration)
            let decision = preset.decide(release, on: sheet)
            let margin = preset.velocityMargin(release, on: sheet).map { Margin(velocityChange: $0.change, outcome: $0.outcome) }
            verdicts.append(Verdict(preset: preset.name, decision: decision, estimator: estimator, velocity: velocity, margin: margin))
        }
        return Gesture(id: trace.metadata.id, start: start, releasePosition: position, verdicts: verdicts)
    }
}

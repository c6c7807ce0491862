package import PanTrace
package import TransitionEngine

/// What survives of one recorded gesture once a driver has performed it: the release
/// velocity every estimator reads on what the driver delivers against the recording, and
/// the decision each preset takes on both (docs/EMIT.md, "The fidelity report").
package struct Fidelity: Sendable, Hashable {
    /// One estimator's release velocity on the recording and on the delivered events.
    package struct VelocityReading: Sendable, Hashable {
        package var estimator: ReleaseEstimator
        /// Points/s; nil where the estimator reports none (read as zero).
        package var original: PanVector?
        package var delivered: PanVector?
        /// The length of the difference, points/s.
        package var error: Double {
            let a = original ?? .zero
            let b = delivered ?? .zero
            return ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        /// The largest error a delivery off by the envelope's timing noise gives, points/s
        /// (nil: no envelope computed).
        package var envelope: Double?
        /// With measured deliveries: the error the driver's model already predicts, points/s
        /// (what the driver cannot carry by design).
        package var modelledError: Double?
        /// The original's speed, points/s.
        package var originalSpeed: Double {
            let a = original ?? .zero
            return (a.x * a.x + a.y * a.y).squareRoot()
        }
        /// The delivered events' speed, points/s (0 where the estimator reads none).
        package var deliveredSpeed: Double {
            let b = delivered ?? .zero
            return (b.x * b.x + b.y * b.y).squareRoot()
        }
    }

    /// One preset's decision under one estimator, on the recording and on the delivered events.
    package struct DecisionReading: Sendable, Hashable {
        package var preset: String
        package var estimator: ReleaseEstimator
        package var original: Decision.Outcome
        package var delivered: Decision.Outcome?
        /// The original decision's margin, in its unit (pt/s or progress).
        package var margin: Double
        package var marginUnit: String
        /// Whether the gesture moves along the preset's drag axis (its fit is `fits` or
        /// `wrong_way`): the presets a gesture drives.
        package var isDriven: Bool
        /// Whether the envelope's timing noise alone can change it: too close to call.
        package var isFragile = false
        package var isSame: Bool { original == delivered }
    }

    /// The recording's identifier.
    package var trace: String
    /// The driver.
    package var target: DriverTarget
    /// Per estimator.
    package var velocities: [VelocityReading]
    /// Per preset and estimator.
    package var decisions: [DecisionReading]
    /// Sentences about what was lost, from the plan and from the comparison.
    package var notes: [String]
    /// What would carry a decision the driver changed.
    package var suggestions: [String]

    /// Compares `original` with what `delivered` would make of it.
    ///
    /// - Parameters:
    ///   - presets: the presets to decide under (each with its own settings).
    ///   - frameRate: the replay's display rate.
    package init(
        original: Trace, delivered path: PointerPath, target: DriverTarget, presets: [Preset], notes: [String] = [],
        frameRate: Double = 60
    ) {
        let delivered = path.deliveredTrace(like: original)
        trace = original.metadata.id
        self.target = target
        self.notes = notes
        suggestions = []
        velocities = ReleaseEstimator.allCases.map { estimator in
            VelocityReading(
                estimator: estimator, original: ReleaseReading.velocity(of: original, estimator: estimator),
                delivered: delivered.flatMap { ReleaseReading.velocity(of: $0, estimator: estimator) })
        }
        if delivered == nil {
            self.notes.append("the driver delivers no move between the down and the lift: no pan begins")
        }
        decisions = []
        for preset in presets {
            for estimator in ReleaseEstimator.allCases {
                guard let source = estimator.source else { continue }
                let configuration = Replayer.Configuration(
                    parameters: ReplayParameters(preset: preset, velocity: source), frameRate: frameRate)
                guard let before = try? Replayer(trace: original, configuration: configuration).summary else {
                    // try?: a recording the replayer refuses has no decision to keep.
                    continue
                }
                let after = delivered.flatMap { try? Replayer(trace: $0, configuration: configuration).summary }
                let driven = before.fit == .fits || before.fit == .wrongWay
                decisions.append(
                    DecisionReading(
                        preset: preset.name.rawValue, estimator: estimator, original: before.decision, delivered: after?.decision,
                        margin: before.margin, marginUnit: before.marginUnit, isDriven: driven))
            }
        }
        suggestions = Self.suggestions(for: decisions, velocities: velocities, target: target)
    }

    /// Whether every driven preset decides the same under every estimator (decisions the
    /// envelope calls fragile aside).
    package var keepsDecision: Bool {
        decisions.allSatisfy { !$0.isDriven || $0.isFragile || $0.isSame }
    }

    /// Records, beside a measured delivery's errors, the errors `model` (the modelled
    /// delivery of the same gesture) predicts.
    package mutating func compare(withModel model: Fidelity) {
        for index in velocities.indices {
            velocities[index].modelledError = model.error(of: velocities[index].estimator)
        }
    }

    /// Marks the readings with `envelope`'s bounds and fragile decisions.
    package mutating func apply(_ envelope: Envelope) {
        for index in velocities.indices {
            velocities[index].envelope = envelope.velocity[velocities[index].estimator] ?? 0
        }
        for index in decisions.indices {
            decisions[index].isFragile = envelope.fragile.contains(
                Envelope.key(preset: decisions[index].preset, estimator: decisions[index].estimator))
        }
        suggestions = Self.suggestions(for: decisions, velocities: velocities, target: target)
    }

    /// The largest velocity error, points/s, of `estimator`.
    package func error(of estimator: ReleaseEstimator) -> Double {
        velocities.first { $0.estimator == estimator }?.error ?? 0
    }

    private static func suggestions(for decisions: [DecisionReading], velocities: [VelocityReading], target: DriverTarget) -> [String] {
        let changed = decisions.filter { $0.isDriven && !$0.isSame && !$0.isFragile }
        guard !changed.isEmpty else { return [] }
        var lines: [String] = []
        let names = Set(changed.map { "\($0.preset) (\($0.estimator.rawValue))" }).sorted().joined(separator: ", ")
        lines.append("the decision changes under \(names)")
        if !target.carriesPath {
            lines.append(
                "a driver that replays every event with its time (webdriver-touch, compose, evemu) carries the path; with this one, "
                    + "aim the swipe at the estimator the app uses (--estimator) or record a gesture that ends with a steadier velocity")
        } else if changed.contains(where: { $0.marginUnit == "pt/s" }) {
            lines.append(
                "the release velocity is within the driver's rounding of the threshold: a slightly faster or slower gesture, or a hold before the lift, would decide clearly"
            )
        } else {
            lines.append(
                "the release point is within the driver's rounding of the threshold: a gesture that ends farther from it would decide clearly")
        }
        return lines
    }
}

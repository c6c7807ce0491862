internal import PanCapture
package import PanTrace
package import TransitionEngine

extension Fidelity {
    /// How much a delivery whose event times are off by up to `jitter` seconds can move each
    /// estimator's reading and each decision: the reachable tolerance for a driver that does
    /// not keep time exactly (docs/EMIT.md, "What Chromium does to the events").
    package struct Envelope: Sendable, Hashable {
        /// Per estimator, the largest |reading − recorded reading| over the trials, points/s.
        package var velocity: [ReleaseEstimator: Double]
        /// The (preset, estimator) decisions that some trial changed: too close to call for
        /// a driver with that much timing noise.
        package var fragile: Set<String>

        /// The key of a decision in ``fragile``.
        package static func key(preset: String, estimator: ReleaseEstimator) -> String { "\(preset)/\(estimator.rawValue)" }
    }

    /// The envelope of `path` (the scheduled delivery): `trials` copies whose event times
    /// each move by a uniform amount in ±`jitter` s (seeded, so the same inputs give the same
    /// envelope), read by every estimator and decided under every preset the recording drives
    /// (the others are not asserted, so not shaken).
    package static func envelope(
        original: Trace, path: PointerPath, presets: [Preset], jitter: Double, trials: Int = 24, frameRate: Double = 60
    ) -> Envelope {
        var generator = SeededGenerator(seed: 0x5EED)
        var worst: [ReleaseEstimator: Double] = [:]
        var fragile: Set<String> = []
        var baseline: [String: Decision.Outcome] = [:]
        for preset in presets {
            for estimator in ReleaseEstimator.allCases {
                guard let source = estimator.source else { continue }
                let configuration = Replayer.Configuration(parameters: ReplayParameters(preset: preset, velocity: source), frameRate: frameRate)
                // try?: a recording the replayer refuses has no decision to keep.
                if let summary = try? Replayer(trace: original, configuration: configuration).summary,
                    summary.fit == .fits || summary.fit == .wrongWay
                {
                    baseline[Envelope.key(preset: preset.name.rawValue, estimator: estimator)] = summary.decision
                }
            }
        }
        let recorded = Dictionary(
            uniqueKeysWithValues: ReleaseEstimator.allCases.map { ($0, ReleaseReading.velocity(of: original, estimator: $0) ?? .zero) })
        for _ in 0..<trials {
            var shaken = path
            for index in shaken.points.indices where index > 0 {
                shaken.points[index].time += Double.random(in: -jitter...jitter, using: &generator)
            }
            // Events stay in order: a driver delivers them in order.
            for index in shaken.points.indices.dropFirst() where shaken.points[index].time < shaken.points[index - 1].time {
                shaken.points[index].time = shaken.points[index - 1].time
            }
            guard let trace = shaken.deliveredTrace(like: original) else { continue }
            for estimator in ReleaseEstimator.allCases {
                let reading = ReleaseReading.velocity(of: trace, estimator: estimator) ?? .zero
                let base = recorded[estimator] ?? .zero
                let error = ((reading.x - base.x) * (reading.x - base.x) + (reading.y - base.y) * (reading.y - base.y)).squareRoot()
                worst[estimator] = max(worst[estimator] ?? 0, error)
            }
            for preset in presets {
                for estimator in ReleaseEstimator.allCases {
                    guard let source = estimator.source else { continue }
                    let key = Envelope.key(preset: preset.name.rawValue, estimator: estimator)
                    guard let before = baseline[key], !fragile.contains(key) else { continue }
                    let configuration = Replayer.Configuration(parameters: ReplayParameters(preset: preset, velocity: source), frameRate: frameRate)
                    if let after = try? Replayer(trace: trace, configuration: configuration).summary, after.decision != before {
                        fragile.insert(key)
                    }
                }
            }
        }
        return Envelope(velocity: worst, fragile: fragile)
    }
}

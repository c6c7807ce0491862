package import PanCapture
package import PanTrace

/// The velocity estimators a fidelity report reads a release with: the three PanTrace
/// replays with, and Flutter's approximation of an iOS scroll view's fling
/// (`IOSScrollViewFlingVelocityTracker`), which reports a velocity but drives no replay.
package enum ReleaseEstimator: String, Sendable, Hashable, CaseIterable, Codable {
    case lsq2
    case impulse
    case flutter
    case iosFling = "ios-fling"

    /// The replay's velocity source, nil for the fling estimator.
    package var source: VelocitySource? {
        switch self {
        case .lsq2: .lsq2
        case .impulse: .impulse
        case .flutter: .flutter
        case .iosFling: nil
        }
    }
}

/// Reads the release velocity of a recording with one estimator, fed exactly as a replay
/// feeds it (``GestureTrack``: the began sample starts the history, the lift adds nothing).
package enum ReleaseReading {
    /// The release velocity `strategy` reports for `trace`, points/s; nil where Android
    /// reports none (a lift more than 40 ms after the last move).
    package static func velocity(of trace: Trace, strategy: VelocityStrategy) -> PanVector? {
        var feeder = VelocityFeeder(strategy: strategy)
        for sample in trace.samples {
            let fed = VelocitySample(
                nanoseconds: Int64((sample.time * 1e9).rounded()), x: sample.translation.x, y: sample.translation.y,
                phase: VelocitySample.Phase(sample.phase))
            switch feeder.feed(fed) {
            case .tracking: continue
            case .released(let velocity), .cancelled(let velocity): return velocity
            }
        }
        return nil
    }

    /// The release velocity `estimator` reports for `trace`, points/s (nil: none).
    package static func velocity(of trace: Trace, estimator: ReleaseEstimator) -> PanVector? {
        switch estimator {
        case .lsq2: return velocity(of: trace, strategy: .lsq2)
        case .impulse: return velocity(of: trace, strategy: .impulse)
        case .flutter: return velocity(of: trace, strategy: .flutter)
        case .iosFling:
            // The fling tracker keeps every sample like Flutter's base tracker and, like it,
            // reports a stopped pointer (more than 40 ms since the last sample) as zero.
            var tracker = VelocityTracker(strategy: .flutter)
            var last: Int64?
            for sample in trace.samples {
                let nanoseconds = Int64((sample.time * 1e9).rounded())
                if sample.phase.isTerminal {
                    if let last, nanoseconds - last > 40_000_000 { return .zero }
                    return tracker.iOSScrollFlingVelocity()
                }
                tracker.add(x: sample.translation.x, y: sample.translation.y, atNanoseconds: nanoseconds)
                last = nanoseconds
            }
            return nil
        }
    }
}

import PanCapture
import PanTrace
import Testing
import TransitionEngine

@testable import PanReplay

/// `synth --target-velocity`: the shortest gesture an estimator reads as a target, or why none.
struct InverseSynthesisTests {
    static let presets = ["swipe-dismiss", "swipe-back", "drawer", "uikit-percent"]

    /// Targets across the range: the target's estimator reads the synthesized gesture's
    /// release velocity within 0.5 % (+ 0.5 pt/s for Android's single-precision fit), and so
    /// does every other estimator when the gesture has the three events Flutter needs; the
    /// replay reads the progress within 0.001.
    @Test(arguments: [VelocityStrategy.lsq2, .impulse, .flutter])
    func everyEstimatorReadsTheTargetAcrossTheRange(estimator: VelocityStrategy) throws {
        for name in Self.presets {
            let preset = try Preset(named: name)
            for velocity in [0.0, 100, 400, 1000, 2500, 5000] {
                for progress in [0.2, 0.5, 0.8] {
                    let target = InverseSynthesis.Target(velocity: velocity, progress: progress, estimator: estimator, period: 1.0 / 120)
                    let trace: Trace
                    do {
                        trace = try InverseSynthesis.gesture(for: target, preset: preset, screen: .phone)
                    } catch {
                        // Only a fast target over a short drag may be refused, and with the count.
                        #expect(error.description.contains("events at 120 Hz"), "\(name) \(velocity) \(progress): \(error)")
                        #expect(velocity >= 2500)
                        continue
                    }
                    let summary = try Replayer(
                        trace: trace,
                        configuration: .init(parameters: ReplayParameters(preset: preset, velocity: VelocitySource(rawValue: estimator.rawValue)!))
                    ).summary
                    #expect(abs(summary.progressAtRelease - progress) < 0.001, "\(name) \(velocity) \(progress)")
                    let readers: [VelocityStrategy] = trace.samples.count >= 4 ? [.lsq2, .impulse, .flutter] : [estimator]
                    for reader in readers {
                        let read = ReleaseReading.velocity(of: trace, strategy: reader) ?? .zero
                        let along = (read.x * read.x + read.y * read.y).squareRoot()
                        #expect(
                            abs(along - velocity) <= 0.005 * velocity + 0.5, "\(name) \(velocity) \(progress) read by \(reader.rawValue): \(along)")
                    }
                }
            }
        }
    }

    @Test func aShortFastTargetIsRefusedWithTheEventCount() throws {
        let target = InverseSynthesis.Target(velocity: 8000, progress: 0.1, estimator: .flutter, period: 1.0 / 60)
        let error = #expect(throws: ReplayError.self) {
            try InverseSynthesis.gesture(for: target, preset: Preset(named: "swipe-dismiss"), screen: .phone)
        }
        #expect(error?.description.contains("0 events at 60 Hz, and flutter needs 3") == true)
    }

    @Test func aDragShorterThanTheSlopIsRefused() throws {
        let target = InverseSynthesis.Target(velocity: 500, progress: 0.01, estimator: .lsq2)
        let error = #expect(throws: ReplayError.self) {
            try InverseSynthesis.gesture(for: target, preset: Preset(named: "swipe-dismiss"), screen: .phone)
        }
        #expect(error?.description.contains("shorter than the 10 pt slop") == true)
    }

    @Test func anUnreachableProgressAndASlowLongDragAreRefused() throws {
        let preset = try Preset(named: "swipe-dismiss")
        let beyond = #expect(throws: ReplayError.self) {
            try InverseSynthesis.gesture(for: .init(velocity: 500, progress: -0.5, estimator: .lsq2), preset: preset, screen: .phone)
        }
        #expect(beyond?.description.contains("outside what a drag") == true)
        let slow = #expect(throws: ReplayError.self) {
            try InverseSynthesis.gesture(for: .init(velocity: 1, progress: 0.9, estimator: .lsq2), preset: preset, screen: .phone)
        }
        #expect(slow?.description.contains("longer than a plausible gesture") == true)
    }

    /// Velocities from the smallest subnormal to 10³⁰⁰ are refused with a reason, never a
    /// trap: too slow is a drag longer than any gesture (or one that never ends), too fast has
    /// too few events; 1,000 pt/s, between them, is written.
    @Test(arguments: [
        (Double.leastNonzeroMagnitude, "for ever"), (1e-300, "longer than a plausible gesture"), (1e-3, "longer than a plausible gesture"),
        (1e20, "0 events at 120 Hz"),
        (1e300, "0 events at 120 Hz"), (1000, "")
    ])
    func extremeVelocitiesAreRefusedWithAReason(velocity: Double, reason: String) throws {
        let target = InverseSynthesis.Target(velocity: velocity, progress: 0.4, estimator: .lsq2, period: 1.0 / 120)
        let preset = try Preset(named: "swipe-dismiss")
        if reason.isEmpty {
            #expect(try InverseSynthesis.gesture(for: target, preset: preset, screen: .phone).samples.count > 2)
            return
        }
        let error = #expect(throws: ReplayError.self) { try InverseSynthesis.gesture(for: target, preset: preset, screen: .phone) }
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
    }

    /// A period so short that a plausible drag would need more than a million events is
    /// refused, and one just long enough is written.
    @Test(arguments: [(1e-7, false), (1e-4, true)])
    func theEventCountIsBounded(period: Double, writes: Bool) throws {
        let target = InverseSynthesis.Target(velocity: 300, progress: 0.4, estimator: .lsq2, period: period)
        let preset = try Preset(named: "swipe-dismiss")
        if writes {
            #expect(try InverseSynthesis.gesture(for: target, preset: preset, screen: .phone).samples.count > 1000)
        } else {
            let error = #expect(throws: ReplayError.self) { try InverseSynthesis.gesture(for: target, preset: preset, screen: .phone) }
            #expect(error?.description.contains("more than 1000000 events") == true)
        }
    }
}

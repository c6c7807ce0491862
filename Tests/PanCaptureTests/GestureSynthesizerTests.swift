import PanTrace
import Testing
@testable import PanCapture

struct GestureSynthesizerTests {
    @Test func theSameSeedGivesTheSameTraces() {
        let a = GestureSynthesizer(seed: 9), b = GestureSynthesizer(seed: 9)
        for i in 0..<20 { #expect(a.trace(at: i) == b.trace(at: i)) }
    }

    @Test func aDifferentSeedGivesDifferentTraces() {
        #expect(GestureSynthesizer(seed: 1).trace(at: 0) != GestureSynthesizer(seed: 2).trace(at: 0))
    }

    @Test(arguments: GestureScenario.allCases)
    func intentFollowsTheScenario(scenario: GestureScenario) {
        var configuration = GestureSynthesizer.Configuration()
        configuration.scenarios = [scenario]
        let trace = GestureSynthesizer(configuration: configuration, seed: 5).trace(at: 0)
        #expect(trace.metadata.intent == scenario.intent)
        #expect(trace.metadata.tags.contains(scenario.rawValue))
    }

    @Test(arguments: [60.0, 120.0, 240.0])
    func samplesFallOnTheDisplayRate(rate: Double) {
        var configuration = GestureSynthesizer.Configuration()
        configuration.rate = rate
        configuration.timestampJitter = 0
        let trace = GestureSynthesizer(configuration: configuration, seed: 3).trace(at: 4)
        let intervals = zip(trace.samples.dropFirst(), trace.samples).map { $0.time - $1.time }
        for dt in intervals.dropLast() { #expect(abs(dt - 1 / rate) < 1e-9) }
    }

    @Test func aGestureBeginsChangesAndEndsOnce() {
        let synthesizer = GestureSynthesizer(seed: 11)
        for i in 0..<50 {
            let phases = synthesizer.trace(at: i).samples.map(\.phase)
            #expect(phases.first == .began)
            #expect(phases.last == .ended)
            #expect(phases.dropFirst().dropLast().allSatisfy { $0 == .changed })
            #expect(phases.count >= 2)
        }
    }

    @Test func theGestureBeginsPastTheSlopAndTranslationIsFromTouchDown() {
        var configuration = GestureSynthesizer.Configuration()
        configuration.tremor = 0
        let trace = GestureSynthesizer(configuration: configuration, seed: 2).trace(at: 1)
        #expect(trace.samples[0].translation.magnitude >= configuration.slop)
        #expect(trace.samples[0].time == 0)
    }

    @Test func velocityIsTheDerivativeOfTheMotionWithoutNoise() {
        let plan = GestureSynthesizer.Plan(segments: [.init(target: 0.8, duration: 0.5)], releaseFraction: 1)
        let h = 1e-6
        for t in stride(from: 0.05, to: 0.45, by: 0.05) {
            let numeric = (GestureSynthesizer.motion(plan, at: t + h).position - GestureSynthesizer.motion(plan, at: t - h).position) / (2 * h)
            #expect(abs(numeric - GestureSynthesizer.motion(plan, at: t).velocity) < 1e-6)
        }
        // Minimum-jerk ends at rest on its target.
        #expect(abs(GestureSynthesizer.motion(plan, at: 0.5).position - 0.8) < 1e-12)
    }

    @Test func swipeDownMovesAlongY() {
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = .swipeDown
        configuration.scenarios = [.slowComplete]
        let trace = GestureSynthesizer(configuration: configuration, seed: 1).trace(at: 0)
        let last = trace.samples.last!.translation
        #expect(last.y > 0.5 * configuration.distance)
        #expect(abs(last.x) < abs(last.y) * 0.2)
        #expect(trace.metadata.edge == nil)
    }
}

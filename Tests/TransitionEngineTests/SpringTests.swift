import Testing
import TransitionEngine

struct SpringTests {
    @Test
    func swiftUIDurationAndBounceMapToMassStiffnessDamping() {
        // docs/MODEL.md §4.7 (SwiftUI's Spring): Spring(duration: 0.5, bounce: 0.3) → (1.0, 157.9, 17.6).
        let spring = Spring(duration: 0.5, bounce: 0.3)
        #expect(spring.mass == 1)
        #expect(abs(spring.stiffness - 157.9) < 0.05)
        #expect(abs(spring.damping - 17.6) < 0.05)
    }

    @Test
    func massStiffnessDampingMapBackToDurationAndBounce() {
        let roundTrip = Spring(mass: 1, stiffness: 157.9, damping: 17.6)
        #expect(abs(roundTrip.response - 0.5) < 0.001)
        #expect(abs(roundTrip.bounce - 0.3) < 0.001)
        // Spring(mass: 1, stiffness: 100, damping: 10) → (duration, bounce) = (0.63, 0.5).
        let coreAnimationDefault = Spring(mass: 1, stiffness: 100, damping: 10)
        #expect(abs(coreAnimationDefault.response - 0.63) < 0.005)
        #expect(abs(coreAnimationDefault.bounce - 0.5) < 1e-12)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let spring: Spring
        let displacement: Double
        let velocity: Double
        let regime: DampedOscillator.Regime
        var testDescription: String { "\(regime) y0=\(displacement) v0=\(velocity)" }
    }

    static let cases: [Case] = [
        Case(spring: Spring(mass: 1, stiffness: 100, damping: 10), displacement: -1, velocity: 0, regime: .underdamped),
        Case(spring: Spring(mass: 4.5, stiffness: 1300, damping: 95), displacement: -0.6, velocity: 3, regime: .underdamped),
        Case(spring: Spring(response: 0.4, dampingRatio: 1), displacement: -0.3, velocity: 4, regime: .critical),
        Case(spring: Spring(mass: 4, stiffness: 900, damping: 120), displacement: 0.7, velocity: -2, regime: .critical),
        Case(spring: Spring(mass: 1, stiffness: 200, damping: 40), displacement: -0.5, velocity: 10, regime: .overdamped),
        Case(spring: Spring(response: 0.5, dampingRatio: 2.5), displacement: 1, velocity: 0, regime: .overdamped)
    ]

    /// Fourth-order Runge–Kutta on `m y'' + c y' + k y = 0` with a fine step.
    static func integrate(_ spring: Spring, y0: Double, v0: Double, until end: Double, step: Double = 1e-5) -> [(t: Double, y: Double, v: Double)] {
        var y = y0
        var v = v0
        var samples: [(Double, Double, Double)] = [(0, y, v)]
        let steps = Int((end / step).rounded())
        func acceleration(_ y: Double, _ v: Double) -> Double {
            -(spring.stiffness * y + spring.damping * v) / spring.mass
        }
        for index in 1...steps {
            let k1y = v, k1v = acceleration(y, v)
            let k2y = v + step / 2 * k1v, k2v = acceleration(y + step / 2 * k1y, v + step / 2 * k1v)
            let k3y = v + step / 2 * k2v, k3v = acceleration(y + step / 2 * k2y, v + step / 2 * k2v)
            let k4y = v + step * k3v, k4v = acceleration(y + step * k3y, v + step * k3v)
            y += step / 6 * (k1y + 2 * k2y + 2 * k3y + k4y)
            v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            if index % 1000 == 0 {
                samples.append((Double(index) * step, y, v))
            }
        }
        return samples
    }

    @Test(arguments: cases)
    func closedFormsAgreeWithAFineNumericIntegration(_ example: Case) {
        let oscillator = example.spring.oscillator(displacement: example.displacement, velocity: example.velocity)
        #expect(oscillator.regime == example.regime)
        for sample in Self.integrate(example.spring, y0: example.displacement, v0: example.velocity, until: 1.5) {
            #expect(abs(oscillator.displacement(at: sample.t) - sample.y) < 1e-9, "y at \(sample.t)")
            #expect(abs(oscillator.velocity(at: sample.t) - sample.v) < 1e-8, "v at \(sample.t)")
        }
    }

    @Test(arguments: cases)
    func settleTimeBoundsTheDisplacement(_ example: Case) {
        let oscillator = example.spring.oscillator(displacement: example.displacement, velocity: example.velocity)
        let epsilon = 0.001
        let settle = oscillator.settleTime(epsilon: epsilon)
        #expect(settle > 0)
        for step in 0...2000 {
            let t = settle + Double(step) * 0.001
            #expect(abs(oscillator.displacement(at: t)) <= epsilon * 1.0001, "t = \(t)")
        }
    }

    @Test
    func underdampedOvershootPeaksAtTheFirstExtremum() throws {
        let oscillator = Spring(mass: 1, stiffness: 100, damping: 10).oscillator(displacement: -1, velocity: 0)
        let first = try #require(oscillator.extremumTimes(limit: 1).first)
        #expect(abs(oscillator.velocity(at: first)) < 1e-9)
        // ζ = 0.5 ⇒ overshoot e^{−πζ/√(1−ζ²)} = 0.163.
        #expect(abs(oscillator.displacement(at: first) - 0.16303353482158783) < 1e-9)
        let crossing = try #require(oscillator.firstZeroCrossing())
        #expect(abs(oscillator.displacement(at: crossing)) < 1e-12)
        #expect(crossing < first)
    }

    @Test
    func withDampingRatioKeepsStiffness() {
        let spring = Spring(response: 0.4, dampingRatio: 1).withDampingRatio(0.8)
        #expect(abs(spring.dampingRatio - 0.8) < 1e-12)
        #expect(abs(spring.response - 0.4) < 1e-12)
    }
}

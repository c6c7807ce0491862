internal import Foundation
public import PanTrace

/// Generates labelled pan gestures for tests and benchmarks (docs/SYNTH.md).
///
/// Motion is a chain of minimum-jerk segments (Flash & Hogan 1985: `x(τ) = x0 + Δ(10τ³ −
/// 15τ⁴ + 6τ⁵)`) along the gesture's axis, with holds for hesitation and reversals, plus hand
/// tremor (an AR(1) noise per axis) and a slight cross-axis drift. Samples fall on a display
/// grid (60/120/240 Hz) with Gaussian timestamp jitter; velocity is the true derivative plus
/// smooth AR(1) noise, like a platform estimator's output. Everything comes from one seeded
/// generator, so a seed gives the same traces, bit for bit.
public struct GestureSynthesizer: Sendable {
    /// What to generate.
    public struct Configuration: Sendable {
        /// The transition the gestures drive.
        public var kind: GestureKind = .edgeBack
        /// Scenarios to draw from, uniformly.
        public var scenarios: [GestureScenario] = GestureScenario.allCases
        /// Samples per second: 60, 120 or 240.
        public var rate: Double = 120
        /// Standard deviation of timestamp jitter, seconds.
        public var timestampJitter: Double = 0.000_02
        /// Standard deviation of hand tremor, points.
        public var tremor: Double = 0.05
        /// Standard deviation of velocity noise, points per second.
        public var velocityNoise: Double = 1.0
        /// The screen the gestures are made on.
        public var screen: ScreenGeometry = .phone
        /// The recognizer slop: the gesture begins once the finger is this far from touch-down.
        public var slop: Double = 10

        /// Creates the default configuration.
        public init() {}

        /// The distance that maps to full progress for ``kind``.
        public var distance: Double {
            switch kind {
            case .edgeBack: screen.width
            case .swipeDown: screen.height / 2
            }
        }
    }

    /// A minimum-jerk move to `target` (fraction of the distance) over `duration`, then a hold.
    struct Segment {
        var target: Double
        var duration: Double
        var hold: Double = 0
    }

    /// The gesture's plan: segments, and when in the last segment the finger lifts (0…1).
    struct Plan {
        var segments: [Segment]
        var releaseFraction: Double
    }

    /// The configuration in use.
    public let configuration: Configuration
    private let seed: UInt64

    /// Creates a synthesizer; `seed` fixes every gesture it makes.
    public init(configuration: Configuration = Configuration(), seed: UInt64) {
        precondition(!configuration.scenarios.isEmpty, "at least one scenario")
        precondition(configuration.rate > 0, "rate must be positive")
        self.configuration = configuration
        self.seed = seed
    }

    /// Gesture number `index`: depends only on the seed, the configuration and `index`.
    public func trace(at index: Int) -> Trace {
        var rng = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: index))
        let scenario = configuration.scenarios[Int(rng.next() % UInt64(configuration.scenarios.count))]
        let plan = Self.plan(for: scenario, using: &rng)
        let samples = sample(plan, using: &rng)
        let metadata = TraceMetadata(
            id: "synth-\(seed)-\(String(index).leftPadded(to: 5))",
            created: "2026-01-01T00:00:00Z",
            source: "synthetic",
            screen: configuration.screen,
            edge: configuration.kind == .edgeBack ? .left : nil,
            intent: scenario.intent,
            tags: [configuration.kind.rawValue, scenario.rawValue],
            velocityOrigin: VelocitySource.recorded.rawValue)
        return Trace(metadata: metadata, samples: samples)
    }

    static func plan(for scenario: GestureScenario, using rng: inout SeededGenerator) -> Plan {
        switch scenario {
        case .slowComplete:
            return Plan(
                segments: [Segment(target: rng.uniform(0.6...0.95), duration: rng.uniform(0.5...0.9))], releaseFraction: rng.uniform(0.85...1))
        case .slowAbort:
            return Plan(
                segments: [Segment(target: rng.uniform(0.1...0.35), duration: rng.uniform(0.4...0.8))], releaseFraction: rng.uniform(0.85...1))
        case .quickFlick:
            return Plan(
                segments: [Segment(target: rng.uniform(0.5...0.9), duration: rng.uniform(0.12...0.22))], releaseFraction: rng.uniform(0.45...0.65))
        case .flickBack:
            return Plan(
                segments: [
                    Segment(target: rng.uniform(0.4...0.6), duration: rng.uniform(0.35...0.6)),
                    Segment(target: rng.uniform(0...0.15), duration: rng.uniform(0.15...0.25))
                ], releaseFraction: rng.uniform(0.45...0.65))
        case .hesitateGo:
            return Plan(
                segments: [
                    Segment(target: rng.uniform(0.15...0.3), duration: rng.uniform(0.25...0.4), hold: rng.uniform(0.15...0.4)),
                    Segment(target: rng.uniform(0.7...0.95), duration: rng.uniform(0.25...0.4))
                ], releaseFraction: rng.uniform(0.7...1))
        case .overshootReturn:
            return Plan(
                segments: [
                    Segment(target: rng.uniform(0.6...0.8), duration: rng.uniform(0.35...0.5), hold: rng.uniform(0.05...0.15)),
                    Segment(target: rng.uniform(0.2...0.4), duration: rng.uniform(0.3...0.45))
                ], releaseFraction: rng.uniform(0.9...1))
        }
    }

    /// Position (fraction of the distance) and its time derivative at time `t` of the plan.
    static func motion(_ plan: Plan, at t: Double) -> (position: Double, velocity: Double) {
        var start = 0.0, from = 0.0
        for segment in plan.segments {
            let end = start + segment.duration
            if t < end {
                let tau = max(0, (t - start) / segment.duration)
                let delta = segment.target - from
                let shape = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
                let slope = 30 * tau * tau * (1 - tau) * (1 - tau) / segment.duration
                return (from + delta * shape, delta * slope)
            }
            start = end
            if t < start + segment.hold { return (segment.target, 0) }
            start += segment.hold
            from = segment.target
        }
        return (from, 0)
    }

    private func sample(_ plan: Plan, using rng: inout SeededGenerator) -> [PanSample] {
        let c = configuration
        let dt = 1 / c.rate
        let distance = c.distance
        let drift = rng.uniform(-0.08...0.08)
        let last = plan.segments.last!
        let lastStart = plan.segments.dropLast().reduce(0.0) { $0 + $1.duration + $1.hold }
        let releaseTime = lastStart + last.duration * plan.releaseFraction
        var tremor = (x: 0.0, y: 0.0), vNoise = (x: 0.0, y: 0.0)
        // AR(1) coefficients per frame; the innovations keep the stationary σ at the configured value.
        let tremorRho = 0.7, noiseRho = 0.9
        func ar(_ state: inout Double, _ rho: Double, _ sigma: Double, _ rng: inout SeededGenerator) {
            state = rho * state + (1 - rho * rho).squareRoot() * sigma * Self.gaussian(&rng)
        }
        func pose(at t: Double) -> (PanVector, PanVector) {
            let m = Self.motion(plan, at: min(t, releaseTime))
            let along = m.position * distance, speed = m.velocity * distance
            let across = drift * along, acrossSpeed = drift * speed
            switch c.kind {
            case .edgeBack: return (PanVector(x: along, y: across), PanVector(x: speed, y: acrossSpeed))
            case .swipeDown: return (PanVector(x: across, y: along), PanVector(x: acrossSpeed, y: speed))
            }
        }

        var samples: [PanSample] = []
        samples.reserveCapacity(Int(releaseTime * c.rate) + 4)
        var began: Double?
        var previousTime = -Double.infinity
        var k = 1
        while true {
            let frame = Double(k) * dt
            k += 1
            ar(&tremor.x, tremorRho, c.tremor, &rng)
            ar(&tremor.y, tremorRho, c.tremor, &rng)
            ar(&vNoise.x, noiseRho, c.velocityNoise, &rng)
            ar(&vNoise.y, noiseRho, c.velocityNoise, &rng)
            let jitter = max(-0.4 * dt, min(0.4 * dt, c.timestampJitter * Self.gaussian(&rng)))
            let isRelease = frame >= releaseTime
            let (translation, velocity) = pose(at: isRelease ? releaseTime : frame)
            let moved = PanVector(x: translation.x + tremor.x, y: translation.y + tremor.y)
            if began == nil {
                guard moved.magnitude >= c.slop || isRelease else { continue }
                // The gesture's clock starts at the began callback's own (jittered) timestamp.
                began = frame + jitter
            }
            let time = max(previousTime + 1e-4, frame + jitter - began!)
            previousTime = time
            let phase: GesturePhase = samples.isEmpty ? .began : (isRelease ? .ended : .changed)
            samples.append(
                PanSample(
                    time: time, phase: phase, translation: moved,
                    velocity: PanVector(x: velocity.x + vNoise.x, y: velocity.y + vNoise.y)))
            if isRelease { break }
        }
        if samples.count == 1 {
            // A release before the first frame past the slop: a single ended sample is not a gesture.
            samples[0].phase = .began
            var end = samples[0]
            end.time += dt
            end.phase = .ended
            samples.append(end)
        }
        return samples
    }

    /// A standard normal deviate (Box–Muller).
    static func gaussian(_ rng: inout SeededGenerator) -> Double {
        let u1 = max(rng.unit(), 0x1p-53), u2 = rng.unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

package import PanCapture
package import PanTrace
package import TransitionEngine

/// The inverse of a replay: the shortest plausible gesture that an estimator reads as a given
/// release velocity at a given progress, or why there is none (docs/EMIT.md, "The inverse").
///
/// The finger moves along the preset's drag direction at one constant speed from the
/// touch-down to the lift, one event per driver period: every estimator PanTrace ports
/// reads a constant velocity as itself once it has enough events (Android's least squares
/// two, Flutter's three), so the shortest gesture that reaches the progress at that speed is
/// the one that moves at that speed all the way. A target of zero velocity is a drag at a
/// moderate speed followed by a hold longer than the estimators' 40 ms "stopped" rule.
package enum InverseSynthesis {
    /// What the gesture must read as.
    package struct Target: Sendable, Hashable {
        /// The release velocity along the preset's drag direction, points/s (toward finish
        /// when positive; 0 for a release at rest).
        package var velocity: Double
        /// The progress at the release.
        package var progress: Double
        /// The estimator that must read it.
        package var estimator: VelocityStrategy
        /// The driver's (or the device's) event period, s.
        package var period: Double

        /// Creates a target.
        package init(velocity: Double, progress: Double, estimator: VelocityStrategy, period: Double = 1.0 / 120) {
            self.velocity = velocity
            self.progress = progress
            self.estimator = estimator
            self.period = period
        }
    }

    /// The most events a plausible gesture has: 10 s at 240 Hz.
    static let longest = 10.0
    /// The pan recognizer's default slop, points: a shorter drag never begins.
    static let slop = 10.0
    /// The speed of the drag before a hold, points/s.
    static let restingDragSpeed = 300.0
    /// `value` rounded to a whole number for a message, or as it is when no integer holds it.
    private static func whole(_ value: Double) -> String {
        abs(value) < 1e15 ? "\(Int(value.rounded()))" : "\(value)"
    }

    /// The most events a written drag may have (ten seconds at 100 kHz).
    static let mostEvents = 1_000_000

    /// The gesture, or a ``ReplayError`` saying why no gesture reads as `target`.
    ///
    /// - Parameters:
    ///   - preset: gives the drag direction and the progress mapping.
    ///   - screen: the screen the progress is measured on.
    ///   - start: where the finger goes down, points (default: a quarter of the screen in from
    ///     the edge the drag starts at).
    package static func gesture(
        for target: Target, preset: Preset, screen: ScreenGeometry, start: PanVector? = nil, id: String = "inverse"
    ) throws(ReplayError) -> Trace {
        guard target.period > 0, target.period.isFinite, target.velocity.isFinite, target.progress.isFinite else {
            throw ReplayError.infeasibleTarget("the velocity, progress and period must be finite, the period positive")
        }
        let mapping = preset.mapping(screen: Size(screen))
        let direction = preset.dragDirection
        let unit = direction.axis == .x ? PanVector(x: direction.sign, y: 0) : PanVector(x: 0, y: direction.sign)
        guard let distance = distance(toProgress: target.progress, mapping: mapping, unit: unit) else {
            throw ReplayError.infeasibleTarget(
                "progress \(target.progress) is outside what a drag of up to \(Int(screen.width + screen.height)) pt reaches under \(preset.name.rawValue)"
            )
        }
        guard distance >= slop else {
            throw ReplayError.infeasibleTarget(
                "progress \(target.progress) is \(DriverScript.number(distance, decimals: 1)) pt of drag, shorter than the \(Int(slop)) pt slop: the pan never begins"
            )
        }
        guard target.velocity >= 0 else {
            throw ReplayError.infeasibleTarget(
                "a release moving away from finish (\(target.velocity) pt/s) after a drag toward it is not the shortest gesture; aim for progress with a positive or zero velocity"
            )
        }
        let speed = target.velocity > 0 ? target.velocity : restingDragSpeed
        let duration = distance / speed
        // The length first: a tiny velocity makes an endless (or infinite) drag, whose count of
        // events no integer holds.
        guard duration <= longest else {
            throw ReplayError.infeasibleTarget(
                "at \(speed >= 0.1 ? DriverScript.number(speed, decimals: 1) : "\(speed)") pt/s the drag lasts "
                    + "\(duration.isFinite ? DriverScript.number(duration, decimals: 0) + " s" : "for ever"), "
                    + "longer than a plausible gesture (\(Int(longest)) s)")
        }
        let spacing = (duration / target.period).rounded(.down)
        guard spacing <= Double(Self.mostEvents) else {
            throw ReplayError.infeasibleTarget(
                "the \(DriverScript.number(duration, decimals: 3)) s drag would take more than \(Self.mostEvents) events at a period of \(target.period) s"
            )
        }
        let events = Int(spacing)
        let needed = target.estimator == .flutter ? 3 : 2
        if target.velocity > 0, events < needed {
            throw ReplayError.infeasibleTarget(
                "at \(Self.whole(speed)) pt/s the \(DriverScript.number(distance, decimals: 1)) pt drag lasts \(DriverScript.number(duration * 1000, decimals: 1)) ms: "
                    + "\(events) events at \(Self.whole(1 / target.period)) Hz, and \(target.estimator.rawValue) needs \(needed); "
                    + "a lower velocity, a higher event rate or a longer drag would do")
        }
        let origin = start ?? defaultStart(screen: screen, unit: unit, distance: distance)
        var samples: [PanSample] = []
        let count = max(events, 1)
        for index in 1...count {
            let time = Double(index) / Double(count) * duration
            let along = speed * time
            let translation = PanVector(x: unit.x * along, y: unit.y * along)
            samples.append(
                PanSample(
                    time: time, phase: index == 1 ? .began : .changed, translation: translation,
                    velocity: PanVector(x: unit.x * speed, y: unit.y * speed),
                    location: PanVector(x: origin.x + translation.x, y: origin.y + translation.y), touches: 1))
        }
        var last = samples[samples.count - 1]
        if target.velocity == 0 {
            // A hold longer than Android's and Flutter's 40 ms "pointer stopped" rule.
            last.time += 0.05
            last.velocity = .zero
        }
        last.phase = .ended
        samples.append(last)
        let metadata = TraceMetadata(
            id: id, source: "synthetic:inverse", screen: screen,
            notes: "inverse of \(target.velocity) pt/s at progress \(target.progress) (\(target.estimator.rawValue))",
            velocityOrigin: target.estimator.rawValue)
        return Trace(metadata: metadata, samples: samples)
    }

    /// The drag along `unit` that the mapping reads as `progress`: bisection on the distance,
    /// as mappings may clamp, rubber-band or start away from zero.
    static func distance(toProgress progress: Double, mapping: ProgressMapping, unit: PanVector) -> Double? {
        func reading(_ distance: Double) -> Double {
            mapping.progress(for: Vector2(x: unit.x * distance, y: unit.y * distance))
        }
        var low = 0.0
        var high = 100_000.0
        guard reading(low) <= progress, reading(high) >= progress else { return nil }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if reading(middle) < progress { low = middle } else { high = middle }
        }
        return abs(reading(high) - progress) < 1e-6 ? high : nil
    }

    private static func defaultStart(screen: ScreenGeometry, unit: PanVector, distance: Double) -> PanVector {
        // Down near the edge the drag leaves from, so that the whole drag stays on screen
        // when it fits.
        let x =
            unit.x > 0
            ? min(screen.width * 0.1, max(screen.width - distance, 0))
            : unit.x < 0 ? max(screen.width * 0.9, min(distance, screen.width)) : screen.width / 2
        let y =
            unit.y > 0
            ? min(screen.height * 0.1, max(screen.height - distance, 0))
            : unit.y < 0 ? max(screen.height * 0.9, min(distance, screen.height)) : screen.height / 2
        return PanVector(x: x, y: y)
    }
}

package import PanCapture
package import PanTrace

/// What one driver will be told to do for one gesture, and the events it will deliver,
/// modelled from its documented behaviour (docs/EMIT.md cites each source).
///
/// A plan is pure: ``DriverScript`` writes it out, ``Fidelity`` replays what it delivers.
package struct DriverPlan: Sendable, Hashable {
    /// Settings that are not in the recording.
    package struct Configuration: Sendable, Hashable {
        /// Pixels per point of the driver's coordinates (Compose, adb, Maestro and evemu work
        /// in device pixels; WebDriver in CSS pixels, one per point).
        package var scale: Double
        /// The estimator whose release velocity a straight-swipe driver aims at.
        package var estimator: VelocityStrategy
        /// XCUITest's modelled event rate, Hz (undocumented).
        package var xcuitestRate: Double
        /// Below this release speed (points/s) a straight drag ends with a hold.
        package var holdBelowSpeed: Double
        /// What each WebDriver tick costs the driver beyond its pause, s (measured on the
        /// machine that runs the tests; docs/EMIT.md): the pauses are shortened by it.
        package var tickOverhead: Double = 0

        /// Creates a configuration.
        package init(scale: Double = 1, estimator: VelocityStrategy = .lsq2, xcuitestRate: Double = 60, holdBelowSpeed: Double = 50) {
            precondition(scale > 0 && xcuitestRate > 0, "scale and rate must be positive")
            self.scale = scale
            self.estimator = estimator
            self.xcuitestRate = xcuitestRate
            self.holdBelowSpeed = holdBelowSpeed
        }
    }

    /// A straight drag, for the drivers that only take a start, an end and a duration or a
    /// velocity.
    package struct Swipe: Sendable, Hashable {
        /// Where the finger goes down and lifts, points.
        package var start: PanVector
        package var end: PanVector
        /// The duration of the move, s (whole milliseconds for adb and Maestro).
        package var duration: Double
        /// The hold at the end before the lift, s (XCUITest only).
        package var hold: Double
        /// The constant speed of the move, points/s.
        package var speed: Double { duration > 0 ? distance / duration : 0 }
        /// The straight distance, points.
        package var distance: Double {
            ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
        }
    }

    /// The driver.
    package var target: DriverTarget
    /// The recorded path.
    package var recorded: PointerPath
    /// The path the driver is told to perform: the recorded one at the driver's resolution
    /// (path drivers), or nil for a straight swipe.
    package var scheduled: PointerPath?
    /// The straight swipe (nil for path drivers).
    package var swipe: Swipe?
    /// What the driver delivers to the app, as modelled.
    package var delivered: PointerPath
    /// Sentences about what was given up for this gesture (beyond ``DriverTarget/limitations``).
    package var notes: [String]
    /// WebDriver: what each tick costs beyond its pause, s.
    package var tickOverhead: Double = 0

    /// Plans `trace` for `target`.
    ///
    /// - Throws: ``ReplayError`` when the recording has no release, or the straight swipe
    ///   would have no length.
    package init(trace: Trace, target: DriverTarget, configuration: Configuration = Configuration()) throws(ReplayError) {
        let path = try PointerPath(trace: trace)
        self.target = target
        self.recorded = path
        self.notes = []
        self.tickOverhead = configuration.tickOverhead
        switch target {
        case .webdriverTouch, .webdriverMouse:
            // Whole CSS pixels, whole milliseconds from the down (each tick a whole number of ms).
            // Chromium dispatches no pointer move that leaves the pointer where it was, so a
            // finger at rest delivers nothing until it moves or lifts.
            let scheduled = path.liftedInPlace.quantized(position: 1, time: 0.001)
            self.scheduled = scheduled
            self.delivered = scheduled.withoutRepeatedMoves
        case .compose:
            // Float pixels (Offset holds two Floats), whole milliseconds.
            let scale = configuration.scale
            let scheduled = path.liftedInPlace.mapped { point in
                var p = point
                p.x = Double(Float(point.x * scale)) / scale
                p.y = Double(Float(point.y * scale)) / scale
                return p
            }.quantized(position: nil, time: 0.001)
            self.scheduled = scheduled
            self.delivered = scheduled
        case .evemu:
            // Whole device units, microseconds; the kernel drops a frame that changes no
            // coordinate, so such a move never reaches the app.
            let unit = 1 / (configuration.scale * DriverScript.evemuUnitsPerPixel)
            let scheduled = path.liftedInPlace.quantized(position: unit, time: 0.000_001).withoutRepeatedMoves
            self.scheduled = scheduled
            self.delivered = scheduled
        case .xcuitest, .maestro, .adb:
            let swipe = try Self.straightSwipe(trace: trace, path: path, target: target, configuration: configuration)
            self.scheduled = nil
            self.swipe = swipe.swipe
            self.notes = swipe.notes
            self.delivered = Self.deliveredSwipe(swipe.swipe, target: target, configuration: configuration)
        }
        if target.carriesPath, let moved = path.liftDistance, moved >= 0.5 {
            notes.append(
                "the finger lifts \(DriverScript.number(moved, decimals: 1)) pt from its last move; the driver lifts where the last move left it")
        }
    }

    /// The straight swipe for `path`: its down and lift points, at the release speed the
    /// estimator reads on the recording.
    private static func straightSwipe(
        trace: Trace, path: PointerPath, target: DriverTarget, configuration: Configuration
    ) throws(ReplayError) -> (swipe: Swipe, notes: [String]) {
        var start = PanVector(x: path.down.x, y: path.down.y)
        var end = PanVector(x: path.release.x, y: path.release.y)
        if target == .maestro {
            // Maestro's Point holds whole pixels.
            let s = configuration.scale
            start = PanVector(x: (start.x * s).rounded() / s, y: (start.y * s).rounded() / s)
            end = PanVector(x: (end.x * s).rounded() / s, y: (end.y * s).rounded() / s)
        }
        let distance = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
        guard distance > 0 else {
            throw ReplayError.cannotDrive(target.rawValue, "the finger lifts where it went down; a straight swipe has no direction")
        }
        let velocity = ReleaseReading.velocity(of: trace, strategy: configuration.estimator) ?? .zero
        // Only the part of the release velocity along the swipe can be carried.
        let along = (velocity.x * (end.x - start.x) + velocity.y * (end.y - start.y)) / distance
        var notes: [String] = []
        let across = abs(velocity.x * (end.y - start.y) - velocity.y * (end.x - start.x)) / distance
        if across > 0.25 * max(abs(along), 1) {
            notes.append(
                "the release velocity points \(Int(across.rounded())) pt/s across the straight line; only its part along the line is carried")
        }
        var hold = 0.0
        var speed = along
        if along < configuration.holdBelowSpeed {
            // A slow or backward release: drag at the gesture's mean speed, then stop.
            speed = max(distance / max(path.duration, 0.05), configuration.holdBelowSpeed)
            if target == .xcuitest {
                hold = 0.1
                notes.append(
                    "the release is at \(Int(along.rounded())) pt/s along the line; the drag runs at \(Int(speed.rounded())) pt/s and holds 0.1 s so every estimator reads a stopped finger"
                )
            } else {
                notes.append(
                    "the release is at \(Int(along.rounded())) pt/s along the line, which a swipe without a hold cannot end with; it runs at \(Int(speed.rounded())) pt/s (a driver with a hold, WebDriver, Compose or evemu, would carry it)"
                )
            }
        }
        var duration = distance / speed
        if target != .xcuitest {
            // input swipe takes whole milliseconds, at least 1.
            duration = max((duration * 1000).rounded(), 1) / 1000
        }
        return (Swipe(start: start, end: end, duration: duration, hold: hold), notes)
    }

    /// The events a straight swipe delivers: XCUITest at its modelled rate; `input swipe`
    /// (adb, Maestro) one move per millisecond of `SystemClock.uptimeMillis()` while the
    /// duration has not passed, each at `lerp(start, end, elapsed / duration)`, then the
    /// lift at the end point.
    private static func deliveredSwipe(_ swipe: Swipe, target: DriverTarget, configuration: Configuration) -> PointerPath {
        var points = [PointerPath.Point(time: 0, x: swipe.start.x, y: swipe.start.y, phase: .down)]
        func at(_ fraction: Double) -> (Double, Double) {
            (swipe.start.x + (swipe.end.x - swipe.start.x) * fraction, swipe.start.y + (swipe.end.y - swipe.start.y) * fraction)
        }
        switch target {
        case .xcuitest:
            let period = 1 / configuration.xcuitestRate
            let steps = max(Int((swipe.duration / period).rounded(.up)), 1)
            for step in 1...steps {
                let time = min(Double(step) * period, swipe.duration)
                let (x, y) = at(time / swipe.duration)
                points.append(.init(time: time, x: x, y: y, phase: .move))
            }
            var last = points[points.count - 1]
            if swipe.hold > 0 {
                last.time += swipe.hold
            }
            last.phase = .up
            points.append(last)
        default:
            let milliseconds = Int((swipe.duration * 1000).rounded())
            for elapsed in 1..<max(milliseconds, 1) {
                let (x, y) = at(Double(elapsed) / Double(milliseconds))
                points.append(.init(time: Double(elapsed) / 1000, x: x, y: y, phase: .move))
            }
            if points.count == 1 {
                // A 1 ms swipe: the loop never runs; only the lift moves the finger.
                points.append(.init(time: swipe.duration, x: swipe.end.x, y: swipe.end.y, phase: .move))
            }
            points.append(.init(time: swipe.duration, x: swipe.end.x, y: swipe.end.y, phase: .up))
        }
        return PointerPath(points: points)
    }
}

extension PointerPath {
    /// How far the lift is from the last move, points (nil without a move).
    package var liftDistance: Double? {
        guard points.count >= 3 else { return nil }
        let last = points[points.count - 2]
        return ((release.x - last.x) * (release.x - last.x) + (release.y - last.y) * (release.y - last.y)).squareRoot()
    }

    /// The path with the lift moved to the last move's position: drivers whose lift takes no
    /// position (WebDriver's pointerUp, Compose's up(), evdev's tracking id −1) lift there.
    package var liftedInPlace: PointerPath {
        guard points.count >= 3 else { return self }
        var copy = self
        copy.points[points.count - 1].x = points[points.count - 2].x
        copy.points[points.count - 1].y = points[points.count - 2].y
        return copy
    }

    /// The path without the moves that leave the pointer where the previous event put it.
    package var withoutRepeatedMoves: PointerPath {
        var kept: [Point] = []
        for point in points {
            if point.phase == .move, let previous = kept.last, previous.x == point.x, previous.y == point.y { continue }
            kept.append(point)
        }
        return PointerPath(points: kept)
    }

    /// The path with each event changed by `transform`.
    package func mapped(_ transform: (Point) -> Point) -> PointerPath {
        PointerPath(points: points.map(transform))
    }

    /// The path on a driver's grid: positions rounded to multiples of `position` points (nil:
    /// unchanged), times since the down rounded to multiples of `time` seconds.
    package func quantized(position: Double?, time: Double) -> PointerPath {
        let start = down.time
        return mapped { point in
            var p = point
            if let position {
                p.x = (point.x / position).rounded() * position
                p.y = (point.y / position).rounded() * position
            }
            p.time = start + ((point.time - start) / time).rounded() * time
            return p
        }
    }
}

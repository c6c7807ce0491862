package import PanCapture
package import PanTrace

/// One finger's events from touch-down to lift, in screen points: what a UI test driver is
/// asked to perform, and what it delivers.
///
/// A recording holds the recognizer's callbacks (began, changed…, ended), each with its
/// translation since the touch went down. Its path puts the **down** where the finger
/// touched (the first sample's location less its translation), one sample interval before
/// the first callback (the recording does not say when the touch went down, and nothing
/// PanTrace decides depends on it), then one **move** per callback before the release and
/// the **up** (or **cancel**) at the release. ``deliveredTrace(like:)`` turns a path back
/// into a recording, the first move being the began sample, so that the original and
/// what a driver delivered are replayed the same way (docs/EMIT.md, "How a gesture is compared").
package struct PointerPath: Sendable, Hashable {
    /// One pointer event.
    package struct Point: Sendable, Hashable {
        /// Seconds, on the path's own clock.
        package var time: Double
        /// The position in points.
        package var x: Double
        package var y: Double
        /// Down, move, up or cancel.
        package var phase: PointerPhase

        /// Creates an event.
        package init(time: Double, x: Double, y: Double, phase: PointerPhase) {
            self.time = time
            self.x = x
            self.y = y
            self.phase = phase
        }
    }

    /// The events: a down, moves, then an up or a cancel.
    package var points: [Point]

    /// Creates a path from its events.
    package init(points: [Point]) {
        self.points = points
    }

    /// The path of a recording, as the finger made it.
    ///
    /// Positions are the samples' raw locations when the recording has them, else the
    /// translation from a touch-down at the screen's centre.
    ///
    /// - Throws: ``ReplayError`` when the recording has no release or no sample before it.
    package init(trace: Trace) throws(ReplayError) {
        guard let releaseIndex = trace.samples.firstIndex(where: { $0.phase.isTerminal }) else {
            throw ReplayError.noRelease.about(trace.metadata.id)
        }
        guard releaseIndex > 0 else { throw ReplayError.neverBegan.about(trace.metadata.id) }
        let samples = trace.samples[...releaseIndex]
        let first = samples[samples.startIndex]
        let origin: PanVector
        if let location = first.location {
            origin = PanVector(x: location.x - first.translation.x, y: location.y - first.translation.y)
        } else {
            origin = PanVector(x: trace.metadata.screen.width / 2, y: trace.metadata.screen.height / 2)
        }
        let interval = samples.count > 1 ? samples[samples.startIndex + 1].time - first.time : 1.0 / 60
        var points = [Point(time: first.time - max(interval, 0.001), x: origin.x, y: origin.y, phase: .down)]
        for sample in samples {
            let x = sample.location?.x ?? origin.x + sample.translation.x
            let y = sample.location?.y ?? origin.y + sample.translation.y
            let phase: PointerPhase
            switch sample.phase {
            case .began, .changed: phase = .move
            case .ended: phase = .up
            case .cancelled: phase = .cancel
            }
            points.append(Point(time: sample.time, x: x, y: y, phase: phase))
        }
        self.points = points
    }

    /// The touch-down event.
    package var down: Point { points[0] }
    /// The last event: the lift or the cancel.
    package var release: Point { points[points.count - 1] }
    /// The moves between the down and the release.
    package var moves: ArraySlice<Point> { points.dropFirst().dropLast() }
    /// From the down to the release, s.
    package var duration: Double { release.time - down.time }

    /// The straight distance from the down to the release, points.
    package var reach: Double {
        ((release.x - down.x) * (release.x - down.x) + (release.y - down.y) * (release.y - down.y)).squareRoot()
    }

    /// The recording a recognizer makes of this path: the first move is the began sample,
    /// each later move a changed sample, the up or cancel the release; translations from the
    /// down, times shifted so that the first move lands at `original`'s first sample time.
    /// The metadata is `original`'s (screen, intent, id); velocities are left at zero, as
    /// every comparison re-estimates them.
    ///
    /// - Returns: nil when the path has no move before its release (a driver that delivered
    ///   only a down and an up: no pan began).
    package func deliveredTrace(like original: Trace) -> Trace? {
        let moves = self.moves
        guard let firstMove = moves.first, points.count >= 3 else { return nil }
        let shift = (original.samples.first?.time ?? 0) - firstMove.time
        var samples: [PanSample] = []
        samples.reserveCapacity(points.count - 1)
        for (index, point) in points.dropFirst().enumerated() {
            let phase: GesturePhase
            switch point.phase {
            case .down, .move: phase = index == 0 ? .began : .changed
            case .up: phase = .ended
            case .cancel: phase = .cancelled
            }
            samples.append(
                PanSample(
                    time: point.time + shift, phase: phase,
                    translation: PanVector(x: point.x - down.x, y: point.y - down.y), velocity: .zero,
                    location: PanVector(x: point.x, y: point.y), touches: 1))
        }
        return Trace(metadata: original.metadata, samples: samples, grid: original.grid)
    }
}

extension PointerPath {
    /// The first touch of a pointer log (what a driver really delivered, read back): its
    /// first pointer from its down to its lift or cancel; other pointers are ignored.
    ///
    /// - Throws: ``ReplayError`` when the log has no complete touch.
    package init(events: [PointerEvent]) throws(ReplayError) {
        guard let first = events.first(where: { $0.phase == .down }) else {
            throw ReplayError.cannotDrive("the delivered events", "the log has no touch-down")
        }
        var points: [Point] = []
        for event in events where event.pointer == first.pointer && event.nanoseconds >= first.nanoseconds {
            points.append(Point(time: Double(event.nanoseconds) / 1e9, x: event.location.x, y: event.location.y, phase: event.phase))
            if event.phase == .up || event.phase == .cancel { break }
        }
        guard let last = points.last, last.phase == .up || last.phase == .cancel else {
            throw ReplayError.cannotDrive("the delivered events", "the first touch never lifts")
        }
        self.init(points: points)
    }
}

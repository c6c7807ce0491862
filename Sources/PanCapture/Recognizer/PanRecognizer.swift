public import PanTrace

/// Turns raw pointer events into the samples a `UIPanGestureRecognizer` would report.
///
/// A value-type state machine: ``handle(_:)`` takes one event and returns what
/// happened; it does no I/O and reads no clock (time comes in the events). The rules are
/// docs/MODEL.md §1.2:
/// - `possible → began` once the first pointer has moved **more than** the slop from where it
///   went down (distance strictly greater than ``Configuration/slop``);
/// - `changed` on every later move, `ended` on lift, `cancelled` on pointer cancel;
/// - `failed` if the pointer lifts or is cancelled before passing the slop, or, in edge mode,
///   if it went down farther than ``Configuration/edgeZone`` from the edge;
/// - pointers that go down after the first are ignored, as `UIScreenEdgePanGestureRecognizer`
///   does, and a new gesture starts only once every pointer has lifted;
/// - translation is the location minus the touch-down location; time is seconds since the
///   `began` event;
/// - velocity comes from a ``VelocityFeeder`` fed every event of the first pointer, from its
///   down, as the platform feeds its tracker (the lift's position is never added).
///
/// ```swift
/// var recognizer = PanRecognizer(configuration: .init(edge: .left))
/// switch recognizer.handle(event) {
/// case .began(let sample), .changed(let sample): …
/// case .ended(let sample, _), .cancelled(let sample, _): …
/// default: break
/// }
/// ```
public struct PanRecognizer: Sendable {
    /// The recognizer's thresholds and the velocity estimator.
    public struct Configuration: Hashable, Sendable {
        /// How far, in points, the pointer must move from its down location before the pan
        /// begins (UIKit's hysteresis; Android uses 8 dp, Flutter 18 px).
        public var slop: Double
        /// The screen edge a gesture must start from, or `nil` for a plain pan.
        public var edge: ScreenEdge?
        /// How close to ``edge``, in points, the touch must go down (inclusive).
        public var edgeZone: Double
        /// The screen, for the right and bottom edges and for the recording's metadata.
        public var screen: ScreenGeometry
        /// The estimator that gives each sample its velocity.
        public var velocity: VelocityStrategy

        /// Creates a configuration; the defaults are docs/MODEL.md §1.2's (10 pt slop, 20 pt edge zone).
        public init(
            slop: Double = 10, edge: ScreenEdge? = nil, edgeZone: Double = 20, screen: ScreenGeometry = .phone,
            velocity: VelocityStrategy = .lsq2
        ) {
            precondition(slop >= 0 && slop.isFinite, "slop must be a non-negative number")
            precondition(edgeZone >= 0 && edgeZone.isFinite, "edgeZone must be a non-negative number")
            self.slop = slop
            self.edge = edge
            self.edgeZone = edgeZone
            self.screen = screen
            self.velocity = velocity
        }
    }

    /// What one event did.
    public enum Action: Hashable, Sendable {
        /// Nothing to report: a touch went down, or moved within the slop.
        case none
        /// The event belongs to no gesture being recognised (see ``Ignored``).
        case ignored(Ignored)
        /// The pan began: the first sample of a gesture.
        case began(PanSample)
        /// The pan moved.
        case changed(PanSample)
        /// The pointer lifted. `hasVelocity` is false where the platform reports no velocity
        /// (Android, lift more than 40 ms after the last move); the sample then carries zero.
        case ended(PanSample, hasVelocity: Bool)
        /// The pointer was cancelled. `hasVelocity` as for ``ended(_:hasVelocity:)`` (Android
        /// never reports one on cancel).
        case cancelled(PanSample, hasVelocity: Bool)
        /// The touch will not become a pan.
        case failed(Failure)
        /// The event cannot follow the ones before it; the recognizer did not change.
        case rejected(Rejection)
    }

    /// Why an event was ignored.
    public enum Ignored: String, Hashable, Sendable {
        /// A pointer that went down while another was already down, or one of its events.
        case extraPointer = "extra pointer"
        /// An event of a touch whose gesture already ended or failed, before every pointer lifted.
        case afterGesture = "after the gesture"
    }

    /// Why a touch did not become a pan.
    public enum Failure: String, Hashable, Sendable, CaseIterable {
        /// It lifted before moving more than the slop.
        case liftedWithinSlop = "lifted within the slop"
        /// It was cancelled before moving more than the slop.
        case cancelledWithinSlop = "cancelled within the slop"
        /// Edge mode: it went down outside the edge zone.
        case outsideEdgeZone = "went down outside the edge zone"
    }

    /// Why an event cannot follow the events before it.
    public enum Rejection: Hashable, Sendable, CustomStringConvertible {
        /// A move, up or cancel of a pointer that is not down (for instance a move before any down).
        case notDown(PointerEvent.Phase, pointer: Int)
        /// A down of a pointer that is already down.
        case alreadyDown(pointer: Int)
        /// The event is earlier than the previous one.
        case timeGoesBackwards(nanoseconds: Int64, previous: Int64)
        /// A location that is NaN or infinite.
        case nonFiniteLocation(PointerEvent.Phase, pointer: Int)
        /// More pointers down at once than the recognizer tracks.
        case tooManyPointers(limit: Int)

        /// One line saying what is wrong.
        public var description: String {
            switch self {
            case .notDown(let phase, let pointer):
                "\(phase.rawValue) of pointer \(pointer), which is not down (no down before it)"
            case .alreadyDown(let pointer):
                "down of pointer \(pointer), which is already down"
            case .timeGoesBackwards(let ns, let previous):
                "time goes backwards: \(Self.milliseconds(ns)) ms is before the previous event's \(Self.milliseconds(previous)) ms"
            case .nonFiniteLocation(let phase, let pointer):
                "\(phase.rawValue) of pointer \(pointer) has a location that is not a finite number"
            case .tooManyPointers(let limit):
                "more than \(limit) pointers down at once"
            }
        }

        static func milliseconds(_ nanoseconds: Int64) -> String {
            let (whole, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000)
            if fraction == 0 { return "\(whole)" }
            let sign = nanoseconds < 0 && whole == 0 ? "-" : ""
            var digits = String(fraction.magnitude)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            return "\(sign)\(whole).\(digits)"
        }
    }

    /// Where the recognizer is, as UIKit would name it.
    public enum State: Hashable, Sendable {
        /// No pointer is down.
        case idle
        /// A pointer is down and has not passed the slop.
        case possible
        /// The pan began and has not ended.
        case recognizing
        /// The gesture ended or failed; some pointer is still down.
        case waitingForLift
    }

    /// The touch being recognised.
    struct Touch: Hashable, Sendable {
        var pointer: Int
        var down: PanVector
        var downNanoseconds: Int64
    }

    enum Phase: Hashable, Sendable {
        case idle
        case possible(Touch)
        case recognizing(Touch, beganNanoseconds: Int64)
        case waitingForLift
    }

    /// The configuration in use.
    public let configuration: Configuration
    private var phase = Phase.idle
    private var book = PointerBook()
    // Kept outside `phase` so its sample storage is mutated in place, never copied.
    private var feeder: VelocityFeeder

    /// Creates an idle recognizer.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.feeder = VelocityFeeder(strategy: configuration.velocity)
    }

    /// Where the recognizer is.
    public var state: State {
        switch phase {
        case .idle: .idle
        case .possible: .possible
        case .recognizing: .recognizing
        case .waitingForLift: .waitingForLift
        }
    }

    /// The number of pointers down.
    public var pointersDown: Int { book.down.count }

    /// Takes one event and says what it did.
    ///
    /// A ``Action/rejected(_:)`` event leaves the recognizer exactly as it was.
    public mutating func handle(_ event: PointerEvent) -> Action {
        if let rejection = book.rejection(of: event) {
            return .rejected(rejection)
        }
        book.record(event)
        switch (phase, event.phase) {
        case (.idle, .down):
            guard isInEdgeZone(event.location) else {
                phase = .waitingForLift
                return .failed(.outsideEdgeZone)
            }
            phase = .possible(Touch(pointer: event.pointer, down: event.location, downNanoseconds: event.nanoseconds))
            _ = feeder.feed(velocitySample(event, .down))
            return .none

        case (.idle, _):
            // Unreachable: with no pointer down, the book rejects everything but a down.
            return .ignored(.afterGesture)

        case (.possible(let touch), .move) where touch.pointer == event.pointer:
            _ = feeder.feed(velocitySample(event, .move))
            let dx = event.location.x - touch.down.x, dy = event.location.y - touch.down.y
            guard dx * dx + dy * dy > configuration.slop * configuration.slop else {
                return .none
            }
            phase = .recognizing(touch, beganNanoseconds: event.nanoseconds)
            return .began(sample(event, touch: touch, began: event.nanoseconds, phase: .began, velocity: feeder.tracker.velocity()))

        case (.possible(let touch), .up) where touch.pointer == event.pointer:
            _ = feeder.feed(velocitySample(event, .up))
            phase = book.down.isEmpty ? .idle : .waitingForLift
            return .failed(.liftedWithinSlop)

        case (.possible(let touch), .cancel) where touch.pointer == event.pointer:
            _ = feeder.feed(velocitySample(event, .cancel))
            phase = book.down.isEmpty ? .idle : .waitingForLift
            return .failed(.cancelledWithinSlop)

        case (.recognizing(let touch, let began), .move) where touch.pointer == event.pointer:
            _ = feeder.feed(velocitySample(event, .move))
            return .changed(sample(event, touch: touch, began: began, phase: .changed, velocity: feeder.tracker.velocity()))

        case (.recognizing(let touch, let began), .up) where touch.pointer == event.pointer:
            var velocity: PanVector?
            if case .released(let reported) = feeder.feed(velocitySample(event, .up)) { velocity = reported }
            phase = book.down.isEmpty ? .idle : .waitingForLift
            return .ended(sample(event, touch: touch, began: began, phase: .ended, velocity: velocity), hasVelocity: velocity != nil)

        case (.recognizing(let touch, let began), .cancel) where touch.pointer == event.pointer:
            var velocity: PanVector?
            if case .cancelled(let reported) = feeder.feed(velocitySample(event, .cancel)) { velocity = reported }
            phase = book.down.isEmpty ? .idle : .waitingForLift
            return .cancelled(sample(event, touch: touch, began: began, phase: .cancelled, velocity: velocity), hasVelocity: velocity != nil)

        case (.possible, _), (.recognizing, _):
            return .ignored(.extraPointer)

        case (.waitingForLift, _):
            if book.down.isEmpty { phase = .idle }
            return .ignored(.afterGesture)
        }
    }

    /// Whether a touch going down at `location` may start a gesture (always, without an edge).
    func isInEdgeZone(_ location: PanVector) -> Bool {
        let zone = configuration.edgeZone
        switch configuration.edge {
        case nil: return true
        case .left: return location.x <= zone
        case .right: return configuration.screen.width - location.x <= zone
        case .top: return location.y <= zone
        case .bottom: return configuration.screen.height - location.y <= zone
        }
    }

    private func velocitySample(_ event: PointerEvent, _ phase: VelocitySample.Phase) -> VelocitySample {
        VelocitySample(nanoseconds: event.nanoseconds, x: event.location.x, y: event.location.y, phase: phase)
    }

    private func sample(_ event: PointerEvent, touch: Touch, began: Int64, phase: GesturePhase, velocity: PanVector?) -> PanSample {
        let velocity = velocity ?? .zero
        return PanSample(
            time: Double(event.nanoseconds &- began) / 1e9,
            phase: phase,
            translation: PanVector(x: event.location.x - touch.down.x, y: event.location.y - touch.down.y),
            velocity: PanVector(x: velocity.x, y: velocity.y),
            location: event.location)
    }
}

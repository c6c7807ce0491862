internal import PanTrace

/// Which pointers are down and when the last event was: the checks every event stream must
/// pass before anything interprets it.
///
/// Shared by ``PanRecognizer`` and the release-velocity reader so both reject the same
/// streams with the same words.
struct PointerBook: Sendable {
    /// More pointers down at once than any touch screen reports (Android allows 16 slots);
    /// a bound, so a hostile log cannot grow the list without limit.
    static let maximumPointers = 32

    private(set) var down: [Int] = []
    private(set) var lastNanoseconds: Int64?

    /// Why `event` cannot follow the events seen so far, or `nil` when it can.
    func rejection(of event: PointerEvent) -> PanRecognizer.Rejection? {
        guard event.location.isFinite else {
            return .nonFiniteLocation(event.phase, pointer: event.pointer)
        }
        if let last = lastNanoseconds, event.nanoseconds < last {
            return .timeGoesBackwards(nanoseconds: event.nanoseconds, previous: last)
        }
        let isDown = down.contains(event.pointer)
        switch event.phase {
        case .down:
            if isDown { return .alreadyDown(pointer: event.pointer) }
            if down.count >= Self.maximumPointers { return .tooManyPointers(limit: Self.maximumPointers) }
        case .move, .up, .cancel:
            if !isDown { return .notDown(event.phase, pointer: event.pointer) }
        }
        return nil
    }

    /// Records an event that passed ``rejection(of:)``.
    mutating func record(_ event: PointerEvent) {
        lastNanoseconds = event.nanoseconds
        switch event.phase {
        case .down: down.append(event.pointer)
        case .move: break
        case .up, .cancel: down.removeAll { $0 == event.pointer }
        }
    }
}

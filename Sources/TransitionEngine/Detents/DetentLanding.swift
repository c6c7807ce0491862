/// Where a sheet came to rest, against where the person meant it to (docs/MODEL.md §9.5).
///
/// Detents are ranked from the most expanded (0) down, and closing ranks below the least
/// expanded. A drag meant to go from the start toward the target either lands on it, goes
/// past it (**skip**, the complaint of "fast swipes skip my detent"), stops short of it, at the
/// start or between (**stuck**, "fast swipes are ignored"), or lands on the other side of the
/// start (**wrong**). A drag meant to stay where it began and that moved is wrong too.
public enum DetentLanding: String, Sendable, Hashable, CaseIterable, Codable {
    /// On the detent meant.
    case hit
    /// Past it, in the direction from the start to it.
    case skip
    /// Short of it: at the start, or between the start and it.
    case stuck
    /// The other way from the start, or away from a start the person meant to keep.
    case wrong

    /// The landing's place in ``allCases`` (a count's slot).
    public var ordinal: Int {
        switch self {
        case .hit: 0
        case .skip: 1
        case .stuck: 2
        case .wrong: 3
        }
    }

    /// How `outcome` compares with `meant` for a drag from detent `start` of a sheet with
    /// `detentCount` detents.
    public init(outcome: DetentOutcome, meant: DetentOutcome, start: Int, detentCount: Int) {
        func rank(_ outcome: DetentOutcome) -> Int { outcome.index ?? detentCount }
        let landed = rank(outcome), target = rank(meant)
        if landed == target {
            self = .hit
            return
        }
        guard target != start else {
            self = .wrong
            return
        }
        let direction = target > start ? 1 : -1
        if (landed - target) * direction > 0 {
            self = .skip
        } else if (landed - start) * direction >= 0 {
            self = .stuck
        } else {
            self = .wrong
        }
    }
}

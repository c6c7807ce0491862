/// When each event of a log is due under `live --realtime`: the previous event's due time plus
/// the gap between their timestamps, scaled. A gap longer than ``longestGap`` (a log whose
/// clock jumped, by seconds or by years) waits ``longestGap`` and is counted; time going back
/// waits nothing. The arithmetic is in seconds as doubles, so no timestamp can overflow it.
struct RealtimePacing {
    /// The longest wait between two events, s of wall clock.
    static let longestGap = 10.0

    /// How many times faster than recorded the log plays.
    let timeScale: Double
    private var previous: Int64?
    private var due = 0.0
    /// Gaps longer than ``longestGap`` that were cut to it.
    private(set) var cutGaps = 0
    /// The longest of them, s of wall clock before the cut.
    private(set) var longestCut = 0.0

    init(timeScale: Double) { self.timeScale = timeScale }

    /// Seconds after the first event at which the event at `nanoseconds` is due.
    mutating func due(atNanoseconds nanoseconds: Int64) -> Double {
        defer { previous = nanoseconds }
        guard let previous else { return 0 }
        let gap = (Double(nanoseconds) - Double(previous)) / 1e9 / timeScale
        if gap > Self.longestGap {
            cutGaps += 1
            longestCut = max(longestCut, gap)
            due += Self.longestGap
        } else if gap > 0 {
            due += gap
        }
        return due
    }

    /// The warning when a gap was cut, or nil.
    var warning: String? {
        guard cutGaps > 0 else { return nil }
        let longest = longestCut < 1e6 ? "\(Int(longestCut.rounded())) s" : "\(longestCut) s"
        return "the log's clock jumped \(cutGaps) time\(cutGaps == 1 ? "" : "s") (by up to \(longest) at the playback speed); "
            + "--realtime waited \(Int(Self.longestGap)) s at each"
    }
}

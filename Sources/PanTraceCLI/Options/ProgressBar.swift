internal import Foundation
internal import Synchronization

/// A one-line progress bar on standard error, redrawn when the percentage changes; drawn only
/// when standard error is a terminal, so pipes and logs stay quiet. A command calls
/// ``finish()`` before it prints anything else (its result line, a warning), so nothing lands
/// on the end of the bar's line; the bar reaches 100 % when `update` is called with the work
/// done, not the work about to start.
final class ProgressBar: Sendable {
    /// The percentage drawn last (-1: none yet); nil once finished (nothing is drawn after).
    private let shown = Mutex<Int?>(-1)
    private let label: String
    private let unit: String

    private init(label: String, unit: String) {
        self.label = label
        self.unit = unit
    }

    /// A bar when standard error is a terminal and `work` reaches `threshold` (work that
    /// finishes in about a second gets none), else nil.
    static func ifUseful(work: Double, threshold: Double, label: String, unit: String) -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 && work >= threshold ? ProgressBar(label: label, unit: unit) : nil
    }

    func update(_ done: Int, of total: Int) {
        let percent = total == 0 ? 100 : done * 100 / total
        let changed = shown.withLock { last in
            guard let drawn = last, percent != drawn else { return false }
            last = percent
            return true
        }
        guard changed else { return }
        let filled = percent * 30 / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)% (\(done)/\(total) \(unit))".utf8))
    }

    /// Clears the line, once: what is printed next starts at its beginning.
    func finish() {
        let drawn = shown.withLock { last in
            defer { last = nil }
            return (last ?? -1) >= 0
        }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

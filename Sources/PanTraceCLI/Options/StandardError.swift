internal import Foundation
internal import LiveBridge

/// The CLI's one way to print a line to standard error (warnings, per-file errors).
enum StandardError {
    /// Writes one line; whatever in it came from outside (a path, a file's field) cannot act on
    /// the terminal or start a line of its own (control and bidi characters escaped, LogText).
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((LogText.terminalSafe(text, limit: 8_000) + "\n").utf8))
    }
}

internal import Foundation

/// The CLI's one way to print a line to standard error (warnings, per-file errors).
enum StandardError {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

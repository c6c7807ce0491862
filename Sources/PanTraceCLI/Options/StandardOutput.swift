internal import Foundation
internal import LiveBridge

/// Bytes to standard output with `write(2)`, unbuffered beyond what the caller gathered, so a
/// long stream reaches a pipe as it is made.
enum StandardOutput {
    /// Writes all of `bytes`, retrying short writes and interrupted calls.
    /// - Throws: ``CLIFailure`` naming standard output when it cannot be written (a full disk,
    ///   a closed descriptor). A closed pipe ends the process by SIGPIPE first, as for any
    ///   command-line tool piped into `head`.
    static func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CLIFailure("standard output: cannot write: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    /// Prints `text`, whose lines carry values from outside (paths, gesture names, tags, a
    /// server's words), each line made safe as ``StandardError/line(_:)`` makes its lines:
    /// control and bidi characters escaped (`LogText`), so no value can act on the terminal
    /// or start a line of its own. Text from the program itself is unchanged.
    static func text(_ text: String) {
        print(LogText.terminalSafeLines(text, limit: 100_000))
    }
}

/// The control token `pantrace serve` keeps between runs, so that restarting the server
/// leaves open tabs in control (docs/VIEWER.md, "The token across restarts").
///
/// One file per recordings folder, in the user's state folder (`$XDG_STATE_HOME/pantrace`,
/// else `~/.local/state/pantrace`, as the XDG Base Directory Specification places state that
/// should persist between restarts): `serve-<hash of the folder's real path>.token`, holding
/// the token and the folder's path (the token's line, then the path, which may hold a
/// newline, and a final newline). The folder is made with mode 0700 and the file with 0600;
/// a file that is not this user's, that others may read or write, or that does not hold a
/// token PanTrace made is never used: it is replaced, and the server says so. A state folder
/// another user owns or may write to (or one above it, ``TokenFile/untrustedFolder(_:)``) is
/// not used at all: the token is new for the run, with a warning.
package struct RememberedToken: Sendable, Equatable {
    /// The token to use.
    package var token: String
    /// One line for the server's output: where the token is kept, or why it is not.
    package var note: String
    /// Set when something was not as expected (a file replaced, or nothing could be stored).
    package var warning: String?

    /// The state folder from the environment, or nil when neither variable is set.
    package static func stateFolder(environment: (String) -> String?) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/pantrace" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.local/state/pantrace" }
        return nil
    }

    /// The token for serving `recordingsFolder`: the remembered one, or (when there is none,
    /// it cannot be trusted, or `renew` is set) a fresh random one, which is then remembered.
    package static func resolve(recordingsFolder: String, renew: Bool, stateFolder: String?) -> RememberedToken {
        guard let stateFolder else {
            return RememberedToken(
                token: LiveBridge.Configuration.randomToken(), note: "token: new for this run",
                warning: "cannot remember the token (neither XDG_STATE_HOME nor HOME is set): after a restart, open the new address")
        }
        let folder = TokenFile.canonicalPath(recordingsFolder) ?? recordingsFolder
        let path = "\(stateFolder)/serve-\(hexHash(folder)).token"
        // Paths in the lines printed are escaped: a folder's name may hold a newline or an
        // escape sequence.
        let shownPath = LogText.escaped(path, limit: 300)
        if let problem = TokenFile.untrustedFolder(stateFolder) {
            return RememberedToken(
                token: LiveBridge.Configuration.randomToken(), note: "token: new for this run",
                warning: "cannot remember the token (\(LogText.escaped(problem, limit: 300))): after a restart, open the new address")
        }
        var warning: String?
        if !renew {
            switch TokenFile.read(path) {
            case .text(let text):
                if let token = token(in: text, for: folder) {
                    return RememberedToken(
                        token: token, note: "token: kept from the last run, in \(shownPath) (--new-token makes a new one)")
                }
                warning = "ignored \(shownPath): it does not hold a token for \(LogText.escaped(folder, limit: 300)); made a new one"
            case .refused(let why):
                warning = "ignored \(shownPath): \(why); made a new one"
            case .missing:
                break
            }
        }
        let token = LiveBridge.Configuration.randomToken()
        if let problem = TokenFile.write("\(token)\n\(folder)\n", to: path, folder: stateFolder) {
            return RememberedToken(
                token: token, note: "token: new for this run",
                warning: "cannot remember the token (\(LogText.escaped(problem, limit: 300))): after a restart, open the new address")
        }
        let how = renew ? "new, as asked" : "new"
        return RememberedToken(
            token: token, note: "token: \(how), kept in \(shownPath) for the next run of this folder (owner-only)", warning: warning)
    }

    /// The token a file's `text` keeps for `folder`: its first line, when it is a token and
    /// the rest is exactly the folder's path and a newline. The path is compared whole, not
    /// line by line: a folder's name may hold newlines.
    static func token(in text: String, for folder: String) -> String? {
        // Bytes, not Characters: String's == treats canonically equivalent paths as equal.
        let bytes = Array(text.utf8)
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let first = Substring(decoding: bytes[..<newline], as: UTF8.self)
        guard isToken(first), bytes[(newline + 1)...].elementsEqual(Array(folder.utf8) + [0x0A]) else { return nil }
        return String(first)
    }

    /// 32 lowercase hexadecimal digits, as ``LiveBridge/Configuration/randomToken()`` makes.
    static func isToken(_ text: Substring) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// FNV-1a, 64 bits, as 16 hex digits: a stable file name for a path (not a secret).
    static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

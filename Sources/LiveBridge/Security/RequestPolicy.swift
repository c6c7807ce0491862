/// Who may connect, and who may change state (docs/PROTOCOL.md §1; RFC 6455 §10.2).
///
/// - `Host` must name this server by an IP literal or `localhost`, with its port: a DNS
///   rebinding attack needs a host *name* the attacker controls, so names are refused.
/// - `Origin`, when a browser sends one, must be this same origin (or one allowed with
///   `--allow-origin`): another site's page cannot open the socket (cross-site WebSocket
///   hijacking). Tools that send no `Origin` are let in to watch.
/// - Changing state (playback, recording, tuning) needs the per-launch token, passed as
///   `?token=` on the WebSocket URL.
struct RequestPolicy: Sendable {
    /// The port the server listens on.
    var port: Int
    /// The token that grants control.
    var token: String
    /// Extra origins allowed besides the server's own (e.g. `http://192.168.1.5:8080`).
    var allowedOrigins: Set<String>
    /// The WebSocket path.
    static let livePath = "/live"

    enum Admission: Equatable {
        case accept(canControl: Bool)
        /// Refused with this HTTP status (lws 4.1.6 answers with its own fixed body).
        case reject(status: Int)
    }

    /// Splits `host[:port]` (IPv6 in brackets) into its name and port.
    static func split(_ authority: String) -> (host: String, port: Int?)? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (String(parts[0]), nil)
        case 2:
            guard let port = Int(parts[1]) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }

    static func isIPLiteral(_ host: String) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { o in
                !o.isEmpty && o.count <= 3 && o.allSatisfy(\.isASCII) && o.allSatisfy(\.isNumber) && Int(o)! <= 255
            }
    }

    /// Whether a `Host` header names this server.
    func isAllowedHost(_ header: String?) -> Bool {
        guard let header, let (host, hostPort) = Self.split(header.lowercased()) else { return false }
        guard (hostPort ?? 80) == port else { return false }
        return host == "localhost" || Self.isIPLiteral(host)
    }

    /// Whether an `Origin` header (if any) is this server's own origin or an allowed one.
    func isAllowedOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        let lower = origin.lowercased()
        if allowedOrigins.contains(lower) { return true }
        guard lower.hasPrefix("http://"), let host else { return false }
        let authority = String(lower.dropFirst("http://".count))
        return isAllowedHost(authority) && authority == host.lowercased()
    }

    /// Whether `candidate` is the token, compared in time independent of where they differ.
    func isToken(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let a = Array(candidate.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// The verdict on a WebSocket upgrade request.
    func admit(path: String, token: String?, host: String?, origin: String?) -> Admission {
        guard isAllowedHost(host), isAllowedOrigin(origin, host: host) else { return .reject(status: 403) }
        guard path == Self.livePath else { return .reject(status: 404) }
        return .accept(canControl: isToken(token))
    }
}

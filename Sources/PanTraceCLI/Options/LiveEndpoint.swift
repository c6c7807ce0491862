import ArgumentParser
import Foundation

/// Where `pantrace live` sends: the server's WebSocket and its control token. `--to` takes the
/// WebSocket (`ws://HOST:PORT/live`, or `wss://`) with `--token`, or the page address
/// `pantrace serve` prints (`http://HOST:PORT/?token=…`), whose token is then the token; the
/// two tokens, when both are given, must agree. Messages name the WebSocket, never the token.
struct LiveEndpoint: Equatable {
    /// The WebSocket, `ws://HOST:PORT/live`.
    var url: URL
    /// The control token.
    var token: String

    /// The endpoint of `--to` and `--token`.
    /// - Throws: a `ValidationError` naming the flag: not a ws, wss, http or https address with
    ///   a host, no token at all, or two tokens that differ.
    init(to address: String, token: String?) throws {
        guard let components = URLComponents(string: address), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw ValidationError("--to must be ws://HOST:PORT/live or the page address pantrace serve prints (it is \(Self.withoutToken(address)))")
        }
        var socket = URLComponents()
        switch scheme {
        case "ws", "wss":
            socket = components
            socket.query = nil
        case "http", "https":
            socket.scheme = scheme == "https" ? "wss" : "ws"
            socket.host = host
            socket.port = components.port
            socket.path = "/live"
        default:
            throw ValidationError("--to must be ws://HOST:PORT/live or the page address pantrace serve prints (it is \(Self.withoutToken(address)))")
        }
        let inAddress = components.queryItems?.first { $0.name == "token" }?.value
        switch (inAddress, token) {
        case (let page?, let given?) where page != given:
            throw ValidationError("--token differs from the token in --to; give one of them")
        case (let page?, _): self.token = page
        case (nil, let given?): self.token = given
        case (nil, nil):
            throw ValidationError("--token is needed: --to has no token= (pantrace serve prints the page address with it)")
        }
        guard let url = socket.url else { throw ValidationError("--to must be ws://HOST:PORT/live (it is \(Self.withoutToken(address)))") }
        self.url = url
    }

    /// `address` with any `token=` value hidden, for messages.
    static func withoutToken(_ address: String) -> String {
        guard var components = URLComponents(string: address), let items = components.queryItems else { return address }
        components.queryItems = items.map { $0.name == "token" ? URLQueryItem(name: "token", value: "…") : $0 }
        return components.string ?? address
    }
}

internal import Foundation

/// What a connection reports, on any thread.
enum LiveTransportEvent: Sendable {
    /// The WebSocket is open.
    case opened
    /// A text message arrived.
    case text(String)
    /// The connection closed or could not be opened; the reason is for the status.
    case closed(String)
}

/// Opens WebSocket connections for ``LiveLink``.
protocol LiveTransport: Sendable {
    /// Starts opening a connection to `url`; `events` is called with what happens, ending with
    /// one `.closed`. Never blocks.
    func open(_ url: URL, events: @escaping @Sendable (LiveTransportEvent) -> Void) -> any LiveTransportConnection
}

/// An open (or opening) connection. Both calls only enqueue; messages keep their order.
protocol LiveTransportConnection: AnyObject, Sendable {
    /// Sends one text message.
    func send(_ text: String)
    /// Closes the connection (a normal close, 1000); no event follows it.
    func close()
}

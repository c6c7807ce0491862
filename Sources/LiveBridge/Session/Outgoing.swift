/// A message the controller wants sent, and to whom.
struct Outgoing: Sendable {
    enum Target: Sendable, Equatable {
        /// Every client, as a frame: conflated, newest wins.
        case frames
        /// Every client, never dropped.
        case everyone
        /// One client.
        case client(ConnectionID)
        /// Some clients (a page and those following it), never dropped.
        case clients([ConnectionID])
        /// Some clients, as a frame: conflated per client, newest wins.
        case framesFor([ConnectionID])
    }

    var target: Target
    var message: ServerMessage
    /// Messages with the same key are the same bytes: the runtime encodes the first and
    /// sends that one buffer to the rest (the ~50 KB `hello` of clients joining a quiet scene).
    var shareKey: String? = nil
    /// The client's connection is closed (1008) once this message is written: only for
    /// ``Target/client(_:)``.
    var closesConnection = false

    /// This message, after which its client's connection is closed.
    func closingTheConnection() -> Outgoing {
        var closing = self
        closing.closesConnection = true
        return closing
    }

    /// A state told whole, whose newest message replaces one of its kind still waiting in a
    /// client's outbox (``OutboundMessage/supersedes``): the `pages`, `sources` and first
    /// `library` page everyone is told, and a source's `ack` (only the highest counts, so a busy
    /// server never closes a device over its acks). Nil for every other message.
    var supersedes: String? {
        switch message {
        case .pages, .sources, .library: target == .everyone ? message.type : nil
        case .ack: message.type
        default: nil
        }
    }

    /// A live gesture's frame (the record pad's or a device's, `load` −1): what the finger does
    /// now, handed over at once rather than batched with the replay's frames.
    var isLiveFrame: Bool {
        if case .frame(let frame) = message { frame.load == -1 } else { false }
    }
}

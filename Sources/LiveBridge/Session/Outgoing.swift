/// A message the controller wants sent, and to whom.
struct Outgoing: Sendable {
    enum Target: Sendable, Equatable {
        /// Every client, as a frame: conflated, newest wins.
        case frames
        /// Every client, never dropped.
        case everyone
        /// One client.
        case client(ConnectionID)
    }

    var target: Target
    var message: ServerMessage
}

internal import Dispatch
internal import Synchronization

/// A client connection's identity, stable for its lifetime.
typealias ConnectionID = UInt64

/// What the service thread tells the controller.
enum BridgeInput: Sendable {
    /// A WebSocket client connected; `canControl` when it presented the token.
    case opened(ConnectionID, canControl: Bool)
    /// A live source connected (`role=source`, with the token; docs/PROTOCOL.md §4). It is not
    /// a page: it gets no `hello`, no frames and no broadcasts.
    case sourceOpened(ConnectionID)
    /// A whole text message arrived.
    case message(ConnectionID, [UInt8])
    /// A client went away.
    case closed(ConnectionID)
    /// A tuning sweep a client asked for finished (it runs off the controller thread).
    case tuned(ConnectionID, Result<[UInt8], BridgeFailure>)
    /// A comparison (``CompareJob``, by its key) finished off the controller thread: the
    /// encoded `series`, for every page that asked for it meanwhile.
    case compared(LoadRequest, Result<CompareAnswer, BridgeFailure>)
}

/// What the controller asks the service thread to do.
enum Delivery: Sendable {
    case frame(OutboundMessage)
    case broadcast(OutboundMessage)
    case send(ConnectionID, OutboundMessage)
    /// A frame for some clients (the pages shown one view): conflated in each one's outbox like
    /// ``frame(_:)``. One delivery and one buffer however many pages share the view.
    case sendFrame([ConnectionID], OutboundMessage)

    /// Whether it is a frame (for everyone or for one client).
    var isFrame: Bool {
        switch self {
        case .frame, .sendFrame: true
        case .send, .broadcast: false
        }
    }

    /// Whether it goes to the clients it names rather than to every client.
    var isForNamedClients: Bool {
        switch self {
        case .send, .sendFrame: true
        case .frame, .broadcast: false
        }
    }
}

/// Inputs for the controller thread: any thread pushes, the controller waits and drains.
final class Inbox: Sendable {
    private let queue = Mutex<[BridgeInput]>([])
    private let signal = DispatchSemaphore(value: 0)

    func push(_ input: BridgeInput) {
        queue.withLock { $0.append(input) }
        signal.signal()
    }

    /// Wakes a waiting controller without an input (stop, a timer).
    func poke() { signal.signal() }

    /// Waits until something arrives or `deadline` passes (forever when nil), then drains.
    func wait(until deadline: DispatchTime?) -> [BridgeInput] {
        if let deadline { _ = signal.wait(timeout: deadline) } else { signal.wait() }
        return queue.withLock { inputs in
            defer { inputs.removeAll(keepingCapacity: true) }
            return inputs
        }
    }
}

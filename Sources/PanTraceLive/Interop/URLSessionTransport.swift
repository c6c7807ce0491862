#if canImport(Darwin)
    internal import Foundation

    /// Apple platforms: Foundation's WebSocket task (no extra dependency for an app).
    func defaultTransport() -> any LiveTransport { URLSessionTransport() }

    struct URLSessionTransport: LiveTransport {
        func open(_ url: URL, events: @escaping @Sendable (LiveTransportEvent) -> Void) -> any LiveTransportConnection {
            let connection = URLSessionConnection(task: URLSession.shared.webSocketTask(with: url), events: events)
            connection.start()
            return connection
        }
    }

    /// One `URLSessionWebSocketTask`. Sends are queued by the task until it is open; a failed
    /// handshake ends the receive loop with an error, which closes the connection.
    /// `@unchecked Sendable`: its one mutable field, `isDone`, is read and written under `lock`;
    /// the rest is immutable after `init` (the task is itself thread-safe).
    final class URLSessionConnection: LiveTransportConnection, @unchecked Sendable {
        private let task: URLSessionWebSocketTask
        private let events: @Sendable (LiveTransportEvent) -> Void
        private let lock = NSLock()
        private var isDone = false

        init(task: URLSessionWebSocketTask, events: @escaping @Sendable (LiveTransportEvent) -> Void) {
            self.task = task
            self.events = events
        }

        func start() {
            task.resume()
            events(.opened)
            receive()
        }

        private func receive() {
            task.receive { [self] result in
                switch result {
                case .success(.string(let text)):
                    events(.text(text))
                    receive()
                case .success:
                    receive()
                case .failure(let error):
                    finish("the connection closed: \(error.localizedDescription)")
                }
            }
        }

        func send(_ text: String) {
            task.send(.string(text)) { [self] error in
                if let error { finish("a send failed: \(error.localizedDescription)") }
            }
        }

        func close() {
            lock.withLock { isDone = true }
            task.cancel(with: .normalClosure, reason: nil)
        }

        private func finish(_ reason: String) {
            let first = lock.withLock { () -> Bool in
                defer { isDone = true }
                return !isDone
            }
            guard first else { return }
            task.cancel(with: .goingAway, reason: nil)
            events(.closed(reason))
        }
    }
#endif

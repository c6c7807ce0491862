#if os(Linux)
    internal import Foundation
    internal import NIOCore
    internal import NIOHTTP1
    internal import NIOPosix
    internal import NIOWebSocket

    /// Linux: SwiftNIO's WebSocket client. Foundation's `URLSessionWebSocketTask` fails there with
    /// "WebSockets not supported by libcurl" (Debian's libcurl is built without them).
    func defaultTransport() -> any LiveTransport { NIOWebSocketTransport() }

    struct NIOWebSocketTransport: LiveTransport {
        func open(_ url: URL, events: @escaping @Sendable (LiveTransportEvent) -> Void) -> any LiveTransportConnection {
            let connection = NIOWebSocketConnection(events: events)
            connection.connect(url)
            return connection
        }
    }

    /// One WebSocket connection on NIO's shared event loop group.
    ///
    /// Until the server answers the upgrade, the channel's pipeline speaks HTTP: a WebSocket
    /// frame written into it is a type error that SwiftNIO answers with a fatal error (the
    /// process dies with SIGILL). So nothing is sent before the upgrade, and a close before it
    /// closes the socket without a close frame; whether the upgrade happened is read on the
    /// channel's event loop, where the upgrade itself runs.
    ///
    /// `@unchecked Sendable`: its mutable fields (`channel`, `isClosed`, `hasReported`,
    /// `reason`) are read and written under `lock` only; `isUpgraded` only on the channel's
    /// event loop; `events` is immutable and `@Sendable`.
    final class NIOWebSocketConnection: LiveTransportConnection, @unchecked Sendable {
        private let events: @Sendable (LiveTransportEvent) -> Void
        private let lock = NSLock()
        private var channel: (any Channel)?
        private var isClosed = false
        private var hasReported = false
        private var reason: String?
        /// The WebSocket handlers are in the pipeline (event loop only).
        private var isUpgraded = false

        init(events: @escaping @Sendable (LiveTransportEvent) -> Void) {
            self.events = events
        }

        func connect(_ url: URL) {
            guard url.scheme == "ws", let host = url.host, !host.isEmpty else {
                report(.closed("not a ws:// URL: \(url.absoluteString)"))
                return
            }
            let port = url.port ?? 80
            let path = url.path.isEmpty ? "/" : url.path
            let target = url.query.map { path + "?" + $0 } ?? path
            let hostHeader = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { [self] channel in
                    let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: 1 << 20, automaticErrorHandling: true) { [self] channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandlers([
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024, maxAccumulatedFrameSize: 1 << 20),
                                WebSocketFrameHandler(connection: self)
                            ])
                        }
                    }
                    return channel.eventLoop.makeCompletedFuture {
                        // Frames that arrive with the 101 response (a refusal and its close)
                        // go on to the frame decoder rather than being dropped.
                        try channel.pipeline.syncOperations.addHTTPClientHandlers(
                            leftOverBytesStrategy: .forwardBytes,
                            withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                        try channel.pipeline.syncOperations.addHandler(UpgradeFailureHandler(connection: self))
                    }
                }
            bootstrap.connect(host: host, port: port).whenComplete { [self] result in
                switch result {
                case .success(let channel):
                    let closeNow = lock.withLock { () -> Bool in
                        self.channel = channel
                        return isClosed
                    }
                    if closeNow {
                        channel.close(promise: nil)
                    } else {
                        // The request goes out once the connection is known here, so a close
                        // from now on finds the channel (and the pipeline still HTTP).
                        var headers = HTTPHeaders()
                        headers.add(name: "Host", value: hostHeader)
                        headers.add(name: "Content-Length", value: "0")
                        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
                        channel.write(HTTPClientRequestPart.head(head), promise: nil)
                        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                    }
                    channel.closeFuture.whenComplete { [self] _ in
                        let reason = lock.withLock { self.reason } ?? "the server closed the connection"
                        report(.closed(reason))
                    }
                case .failure(let error):
                    report(.closed("cannot connect to \(hostHeader): \(Self.describe(error))"))
                }
            }
        }

        /// Sends a text frame; before the upgrade (when no `.opened` was reported yet) the text is
        /// dropped, as after a close.
        func send(_ text: String) {
            guard let channel = lock.withLock({ isClosed ? nil : channel }) else { return }
            channel.eventLoop.execute { [self] in
                guard isUpgraded else { return }
                let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
                channel.writeAndFlush(frame, promise: nil)
            }
        }

        /// A normal close (1000) once upgraded; before, the socket is closed as it is.
        func close() {
            let channel = lock.withLock { () -> (any Channel)? in
                isClosed = true
                hasReported = true
                return self.channel
            }
            guard let channel else { return }
            channel.eventLoop.execute { [self] in
                guard isUpgraded else {
                    channel.close(promise: nil)
                    return
                }
                var data = channel.allocator.buffer(capacity: 2)
                data.write(webSocketErrorCode: .normalClosure)
                let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
                channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
            }
        }

        /// The WebSocket handlers were added (on the event loop): frames may go out.
        func upgraded() {
            isUpgraded = true
            report(.opened)
        }

        /// Remembers why the connection is closing (the first reason wins).
        func note(_ why: String) {
            lock.withLock { if reason == nil { reason = why } }
        }

        func report(_ event: LiveTransportEvent) {
            let silent = lock.withLock { () -> Bool in
                if case .closed = event {
                    defer { hasReported = true }
                    return hasReported
                }
                return isClosed
            }
            if !silent { events(event) }
        }

        static func describe(_ error: any Error) -> String {
            if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return describe(first.error) }
            if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
            if error is ChannelError { return "\(error)" }
            return String(describing: error)
        }
    }

    /// Names a refused or failed upgrade (the request itself is sent by
    /// ``NIOWebSocketConnection/connect(_:)`` once the connection is up).
    private final class UpgradeFailureHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart

        let connection: NIOWebSocketConnection

        init(connection: NIOWebSocketConnection) {
            self.connection = connection
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            connection.note("upgrade failed: \(NIOWebSocketConnection.describe(error))")
            context.close(promise: nil)
        }
    }

    /// The open WebSocket: text messages up, pings answered, a close echoed.
    private final class WebSocketFrameHandler: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        let connection: NIOWebSocketConnection

        init(connection: NIOWebSocketConnection) {
            self.connection = connection
        }

        func handlerAdded(context: ChannelHandlerContext) {
            connection.upgraded()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                connection.report(.text(String(buffer: frame.unmaskedData)))
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode()
                let text = data.readString(length: data.readableBytes) ?? ""
                connection.note(
                    "the server closed the connection (\(code.map { "\(UInt16(webSocketErrorCode: $0))" } ?? "no code")\(text.isEmpty ? "" : ": " + text))"
                )
                var reply = context.channel.allocator.buffer(capacity: 2)
                reply.write(webSocketErrorCode: code ?? .normalClosure)
                let echo = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: reply)
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
            default:
                break
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            connection.note("connection error: \(NIOWebSocketConnection.describe(error))")
            context.close(promise: nil)
        }
    }
#endif

#if os(Linux)
    import Foundation
    import Glibc
    @testable import PanTraceLive
    import TestSupport
    import Testing

    /// The Linux transport against a server that takes the TCP connection and never answers the
    /// upgrade (as a `pantrace serve` stopped with SIGSTOP does): closing or sending then must
    /// not write a WebSocket frame into the HTTP pipeline, which SwiftNIO ends with a fatal error.
    @Suite(.serialized)
    struct NIOTransportTests {
        /// A listening socket on 127.0.0.1 that accepts one connection and reads what comes.
        final class SilentServer {
            let listener: Int32
            let port: Int
            var client: Int32 = -1

            init() throws {
                let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                address.sin_port = 0
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard bound == 0, listen(listener, 4) == 0 else {
                    Glibc.close(listener)
                    throw POSIXError(.EADDRINUSE)
                }
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                _ = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
                }
                self.listener = listener
                port = Int(UInt16(bigEndian: address.sin_port))
            }

            /// Accepts the connection and reads until the end of the upgrade request's head.
            func acceptRequest() -> String {
                client = accept(listener, nil, nil)
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                    let count = recv(client, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    received += buffer[..<count]
                }
                return String(decoding: received, as: UTF8.self)
            }

            /// Reads until the peer closes; what arrived after the request.
            func readUntilClosed() -> [UInt8] {
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(client, &buffer, buffer.count, 0)
                    guard count > 0 else { return received }
                    received += buffer[..<count]
                }
            }

            deinit {
                if client >= 0 { Glibc.close(client) }
                Glibc.close(listener)
            }
        }

        static func open(_ server: SilentServer, events: Locked<[LiveTransportEvent]>) -> any LiveTransportConnection {
            NIOWebSocketTransport().open(URL(string: "ws://127.0.0.1:\(server.port)/live")!) { event in
                events.withLock { $0.append(event) }
            }
        }

        @Test func aCloseBeforeTheUpgradeClosesTheSocketWithoutAFrame() throws {
            let server = try SilentServer()
            let events = Locked<[LiveTransportEvent]>([])
            let connection = Self.open(server, events: events)
            let request = server.acceptRequest()
            #expect(request.hasPrefix("GET /live HTTP/1.1\r\n"))
            #expect(request.lowercased().contains("upgrade: websocket"))
            connection.send("before the upgrade")  // dropped: not a frame into HTTP
            connection.close()
            // The socket closes with nothing after the request: no text, no close frame.
            #expect(server.readUntilClosed().isEmpty)
            #expect(events.withLock { $0.isEmpty })  // no event follows close()
        }

        @Test func theUpgradeAnsweredLaterStillOpens() throws {
            // RFC 6455 §1.3's own example, so the answer below is the one the client checks.
            #expect(Self.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            let server = try SilentServer()
            let opened = DispatchSemaphore(value: 0)
            let events = Locked<[LiveTransportEvent]>([])
            let connection = NIOWebSocketTransport().open(URL(string: "ws://127.0.0.1:\(server.port)/live")!) { event in
                events.withLock { $0.append(event) }
                if case .opened = event { opened.signal() }
            }
            let request = server.acceptRequest()
            let key = try #require(
                request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }?.split(separator: ":", maxSplits: 1).last?
                    .trimmingCharacters(in: .whitespaces))
            let response =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(Self.acceptValue(for: key))\r\n\r\n"
            _ = Array(response.utf8).withUnsafeBytes { Glibc.send(server.client, $0.baseAddress, $0.count, 0) }
            #expect(opened.wait(timeout: .now() + 30) == .success, "\(events.withLock { $0 })")
            // Once upgraded, a close sends a masked close frame (FIN and opcode 8) and then closes.
            connection.close()
            #expect(server.readUntilClosed().first == 0x88)
        }

        static func acceptValue(for key: String) -> String {
            Data(TestSHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        }
    }

    /// SHA-1 for the test's handshake answer (RFC 6455 §4.2.2), small and plain.
    enum TestSHA1 {
        static func digest(_ message: [UInt8]) -> [UInt8] {
            var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
            var data = message + [0x80]
            while data.count % 64 != 56 { data.append(0) }
            let bits = UInt64(message.count) * 8
            for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
            for chunk in stride(from: 0, to: data.count, by: 64) {
                var w = (0..<16).map { i in
                    (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[chunk + 4 * i + $1]) }
                }
                for i in 16..<80 {
                    let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                    w.append(x << 1 | x >> 31)
                }
                var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
                for i in 0..<80 {
                    let (f, k): (UInt32, UInt32) =
                        switch i {
                        case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                        case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                        case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                        default: (b ^ c ^ d, 0xCA62_C1D6)
                        }
                    let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                    (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, t)
                }
                h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
            }
            return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32(24 - 8 * $0)) } }
        }
    }
#endif

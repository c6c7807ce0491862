import Testing
@testable import LiveBridge

struct CoalescedWriteTests {
    /// Splits server-to-client WebSocket frames (RFC 6455 §5.2) into (first byte, payload).
    static func frames(_ bytes: [UInt8]) throws -> [(UInt8, [UInt8])] {
        var out: [(UInt8, [UInt8])] = []
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let second = bytes[index + 1]
            try #require(second & 0x80 == 0, "server frames are unmasked")
            var length = Int(second & 0x7F)
            var header = 2
            if length == 126 {
                length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                header = 4
            } else if length == 127 {
                length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[index + 2 + $1]) }
                header = 10
            }
            try #require(index + header + length <= bytes.count, "a frame runs past the buffer")
            out.append((first, Array(bytes[(index + header)..<(index + header + length)])))
            index += header + length
        }
        return out
    }

    static func message(_ count: Int, _ fill: UInt8) -> OutboundMessage {
        OutboundMessage([UInt8](repeating: fill, count: count))
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
    func aMessageIsOneFinalTextFrameWithTheShortestLength(count: Int) throws {
        let message = Self.message(count, 0x61)
        let frames = try Self.frames(message.frameBytes)
        #expect(frames.count == 1)
        #expect(frames.first?.0 == 0x81)
        #expect(frames.first?.1 == [UInt8](repeating: 0x61, count: count))
        #expect(message.frameCount == (count < 126 ? 2 : count < 65_536 ? 4 : 10) + count)
        #expect(message.bytes == [UInt8](repeating: 0x61, count: count))
    }

    @Test(arguments: [0, 125, 65_536])
    func anEchoedBinaryMessageIsOneFinalBinaryFrame(count: Int) throws {
        let message = OutboundMessage([UInt8](repeating: 0xFF, count: count), isBinary: true)
        let frames = try Self.frames(message.frameBytes)
        #expect(frames.count == 1)
        #expect(frames.first?.0 == 0x82)
        #expect(frames.first?.1 == [UInt8](repeating: 0xFF, count: count))
    }

    @Test func aBatchIsTheFramesBackToBackInOrder() throws {
        let batch = CoalescedWrite(capacity: 200_000)
        let messages = [Self.message(3, 0x62), Self.message(70_000, 0x61), Self.message(300, 0x63), Self.message(0, 0x64)]
        for message in messages { #expect(batch.append(message)) }
        let frames = try Self.frames(batch.bytes)
        #expect(frames.map(\.0) == [0x81, 0x81, 0x81, 0x81])
        #expect(frames.map(\.1) == messages.map(\.bytes))
        #expect(batch.count == messages.map(\.frameCount).reduce(0, +))
        #expect(batch.messages == 4)
    }

    @Test func aMessageThatDoesNotFitIsRefusedAndLeavesTheBatchAsItWas() throws {
        let batch = CoalescedWrite(capacity: 100)
        #expect(batch.append(Self.message(50, 0x61)))  // 52 bytes framed
        #expect(batch.append(Self.message(46, 0x62)))  // 48: exactly full
        #expect(batch.count == 100)
        #expect(!batch.append(Self.message(0, 0x63)))  // even an empty frame needs 2 bytes
        #expect(batch.count == 100 && batch.messages == 2)
        #expect(try Self.frames(batch.bytes).map(\.1.count) == [50, 46])
        batch.removeAll()
        #expect(batch.count == 0 && batch.messages == 0)
        #expect(!batch.append(Self.message(99, 0x64)))  // 101 bytes framed
        #expect(batch.append(Self.message(98, 0x64)))
    }
}

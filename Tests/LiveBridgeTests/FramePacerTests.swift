import Testing
@testable import LiveBridge

struct FramePacerTests {
    static func frame(_ text: String) -> Delivery { .frame(OutboundMessage(Array(text.utf8))) }

    /// What each delivery carries, with its kind: "f:x" (frame), "b:x" (broadcast), "s1:x" (to client 1).
    static func names(_ deliveries: [Delivery]) -> [String] {
        deliveries.map { delivery in
            switch delivery {
            case .frame(let message): "f:" + String(decoding: message.bytes, as: UTF8.self)
            case .broadcast(let message): "b:" + String(decoding: message.bytes, as: UTF8.self)
            case .send(let id, let message): "s\(id):" + String(decoding: message.bytes, as: UTF8.self)
            case .sendFrame(let ids, let message): "sf\(ids):" + String(decoding: message.bytes, as: UTF8.self)
            }
        }
    }

    @Test func framesAtLeastAnIntervalApartGoAtOnce() {
        var pacer = FramePacer()
        // 240 frames a second, the fastest `serve` allows: every frame goes when it is made.
        let period = 1.0 / 240
        for index in 0..<10 {
            let out = pacer.release([Self.frame("\(index)")], now: 1 + Double(index) * period)
            #expect(Self.names(out) == ["f:\(index)"])
            #expect(pacer.deadline == nil)
        }
        // Exactly one interval apart is not too soon.
        var exact = FramePacer()
        _ = exact.release([Self.frame("a")], now: 1)
        #expect(Self.names(exact.release([Self.frame("b")], now: 1 + FramePacer.interval)) == ["f:b"])
    }

    /// A live gesture's frame does not wait: it goes with the frames held before it, in order.
    @Test(arguments: [false, true])
    func aLiveFrameIsHandedOverAtOnce(urgent: Bool) {
        var pacer = FramePacer()
        _ = pacer.release([Self.frame("0")], now: 5)
        _ = pacer.release([Self.frame("1")], now: 5.001)
        let out = pacer.release([Self.frame("live")], now: 5.002, urgent: urgent)
        #expect(Self.names(out) == (urgent ? ["f:1", "f:live"] : []))
        #expect((pacer.deadline == nil) == urgent)
    }

    @Test func framesCloserThanAnIntervalWaitAndGoTogether() {
        var pacer = FramePacer()
        let start = 5.0
        #expect(Self.names(pacer.release([Self.frame("0")], now: start)) == ["f:0"])
        let justUnder = start + FramePacer.interval * 0.999
        #expect(pacer.release([Self.frame("1")], now: start + FramePacer.interval / 4).isEmpty)
        #expect(pacer.release([Self.frame("2")], now: justUnder).isEmpty)
        #expect(pacer.heldCount == 2)
        #expect(pacer.deadline == start + FramePacer.interval)
        // Nothing new, deadline not reached: still held.
        #expect(pacer.release([], now: justUnder).isEmpty)
        // At the deadline, with nothing new, the held frames go, in order.
        #expect(Self.names(pacer.release([], now: start + FramePacer.interval)) == ["f:1", "f:2"])
        #expect(pacer.deadline == nil)
        #expect(pacer.heldCount == 0)
    }

    @Test func anythingButAFrameGoesAtOnceBehindTheHeldFrames() {
        var pacer = FramePacer()
        _ = pacer.release([Self.frame("0")], now: 0)
        #expect(pacer.release([Self.frame("1")], now: 0.0005).isEmpty)
        let playback = Delivery.broadcast(OutboundMessage(Array("playback".utf8)))
        let out = pacer.release([playback, Self.frame("2")], now: 0.001)
        #expect(Self.names(out) == ["f:1", "b:playback", "f:2"])
        #expect(pacer.deadline == nil)
        // Frames went out at 0.001, so the next one waits an interval from then.
        #expect(pacer.release([Self.frame("3")], now: 0.002).isEmpty)
        #expect(pacer.deadline == 0.001 + FramePacer.interval)
        let hello = Delivery.send(1, OutboundMessage(Array("hello".utf8)))
        #expect(Self.names(pacer.release([hello], now: 0.0021)) == ["f:3", "s1:hello"])
    }

    @Test func messagesWithoutFramesDoNotDelayTheNextFrame() {
        var pacer = FramePacer()
        let hello = Delivery.send(7, OutboundMessage(Array("hello".utf8)))
        #expect(Self.names(pacer.release([hello], now: 1)) == ["s7:hello"])
        #expect(Self.names(pacer.release([Self.frame("0")], now: 1.0001)) == ["f:0"])
        #expect(pacer.release([], now: 2).isEmpty)
    }
}

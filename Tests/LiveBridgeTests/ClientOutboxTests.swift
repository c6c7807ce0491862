import Testing
@testable import LiveBridge

struct ClientOutboxTests {
    func message(_ text: String) -> OutboundMessage { OutboundMessage(Array(text.utf8)) }

    @Test func aClientThatKeepsUpGetsEveryFrameInOrder() {
        var outbox = ClientOutbox()
        for i in 0..<3 { outbox.enqueueFrame(message("f\(i)"), now: 0) }
        #expect((0..<3).map { _ in outbox.next(now: 0)!.bytes } == ["f0", "f1", "f2"].map { Array($0.utf8) })
        #expect(outbox.isEmpty)
        #expect(outbox.droppedFrames == 0)
    }

    @Test func aSlowClientSkipsToTheNewestFramesAndHoldsAtMostTheLimit() {
        var outbox = ClientOutbox()
        for i in 0..<100 { outbox.enqueueFrame(message("f\(i)"), now: Double(i)) }
        #expect(outbox.pendingFrames == ClientOutbox.frameLimit)
        #expect(outbox.droppedFrames == 100 - ClientOutbox.frameLimit)
        #expect(outbox.next(now: 100)?.bytes == Array("f\(100 - ClientOutbox.frameLimit)".utf8))
    }

    @Test func framesStayInOrderAcrossTheRingsWrapAndALimitOfThemNeverDrops() {
        var outbox = ClientOutbox()
        var sent = 0
        var received: [String] = []
        // Takes fewer than it queues, so the ring wraps many times, first below the limit
        // (nothing dropped), then at it.
        for round in 0..<10 {
            for _ in 0..<(ClientOutbox.frameLimit - 1) {
                outbox.enqueueFrame(message("f\(sent)"), now: Double(round))
                sent += 1
            }
            while let next = outbox.next(now: Double(round)) { received.append(String(decoding: next.bytes, as: UTF8.self)) }
        }
        #expect(received == (0..<sent).map { "f\($0)" })
        #expect(outbox.droppedFrames == 0)
        for index in 0..<(ClientOutbox.frameLimit + 1) { outbox.enqueueFrame(message("g\(index)"), now: 11) }
        #expect(outbox.droppedFrames == 1)
        #expect(outbox.upcoming?.bytes == Array("g1".utf8))
        #expect(outbox.pendingFrames == ClientOutbox.frameLimit)
    }

    @Test func controlMessagesGoFirstAndAreNeverDropped() {
        var outbox = ClientOutbox()
        outbox.enqueueFrame(message("frame"), now: 0)
        let first = outbox.enqueueControl(message("hello"), now: 0)
        let second = outbox.enqueueControl(message("library"), now: 0)
        #expect(first && second)
        #expect(outbox.next(now: 0)?.bytes == Array("hello".utf8))
        #expect(outbox.next(now: 0)?.bytes == Array("library".utf8))
        #expect(outbox.next(now: 0)?.bytes == Array("frame".utf8))
    }

    @Test func tooManyWaitingControlMessagesRefuseTheNext() {
        var outbox = ClientOutbox()
        var accepted = 0
        for _ in 0..<ClientOutbox.controlLimit where outbox.enqueueControl(message("c"), now: 0) { accepted += 1 }
        #expect(accepted == ClientOutbox.controlLimit)
        let overflow = outbox.enqueueControl(message("c"), now: 0)
        #expect(!overflow)
    }

    @Test func backlogIsTimeWithSomethingPendingAndNoWrite() {
        var outbox = ClientOutbox()
        outbox.enqueueFrame(message("a"), now: 10)
        #expect(!outbox.isBacklogged(now: 12.9, limit: 3))
        #expect(outbox.isBacklogged(now: 13.1, limit: 3))
        // A write while still pending restarts the clock.
        outbox.enqueueFrame(message("b"), now: 13.2)
        _ = outbox.next(now: 13.2)
        #expect(!outbox.isBacklogged(now: 16.1, limit: 3))
        #expect(outbox.isBacklogged(now: 16.3, limit: 3))
        _ = outbox.next(now: 16.4)
        #expect(outbox.isEmpty)
        #expect(!outbox.isBacklogged(now: 100, limit: 3))
    }

    @Test func upcomingIsWhatNextReturnsAndLeavesItQueued() {
        var outbox = ClientOutbox()
        #expect(outbox.upcoming == nil)
        outbox.enqueueFrame(message("frame"), now: 0)
        _ = outbox.enqueueControl(message("hello"), now: 0)
        var order: [[UInt8]] = []
        while let upcoming = outbox.upcoming {
            #expect(outbox.upcoming === upcoming)
            let next = outbox.next(now: 0)
            #expect(next === upcoming)
            order.append(upcoming.bytes)
        }
        #expect(order == [Array("hello".utf8), Array("frame".utf8)])
        #expect(outbox.isEmpty)
    }
}

/// A state every page is told whole: a newer one takes the place of one still waiting.
struct SupersedingControlTests {
    static func message(_ text: String, supersedes kind: String? = nil) -> OutboundMessage {
        let message = OutboundMessage(Array(text.utf8))
        message.supersedes = kind
        return message
    }

    static func put(_ outbox: inout ClientOutbox, _ message: OutboundMessage, now: Double) -> Bool {
        outbox.enqueueControl(message, now: now)
    }

    static func drain(_ outbox: inout ClientOutbox) -> [String] {
        var out: [String] = []
        while let next = outbox.next(now: 1) { out.append(String(decoding: next.bytes, as: UTF8.self)) }
        return out
    }

    @Test func aNewerStateReplacesTheWaitingOneAndGoesLastAndOthersStay() {
        var outbox = ClientOutbox()
        #expect(Self.put(&outbox, Self.message("pages 1", supersedes: "pages"), now: 0))
        #expect(Self.put(&outbox, Self.message("error"), now: 0))
        #expect(Self.put(&outbox, Self.message("sources 1", supersedes: "sources"), now: 0))
        #expect(Self.put(&outbox, Self.message("pages 2", supersedes: "pages"), now: 0))
        #expect(Self.drain(&outbox) == ["error", "sources 1", "pages 2"])
        // Nothing waiting: it is queued as usual.
        #expect(Self.put(&outbox, Self.message("pages 3", supersedes: "pages"), now: 2))
        #expect(Self.drain(&outbox) == ["pages 3"])
    }

    /// Which messages are states told whole: a library page asked for by one page is not (a
    /// broadcast of the first page must not replace it), the broadcast is, and so is an `ack`.
    @Test func onlyWholeStatesSupersede() {
        let page = LibraryPage(recordings: [], offset: 200, total: 300)
        #expect(Outgoing(target: .client(1), message: .library(page)).supersedes == nil)
        #expect(Outgoing(target: .everyone, message: .library(page)).supersedes == "library")
        #expect(Outgoing(target: .everyone, message: .pages(PagesMessage(pages: [], total: 0))).supersedes == "pages")
        #expect(Outgoing(target: .client(9), message: .ack(SampleAck(received: 4))).supersedes == "ack")
        #expect(Outgoing(target: .client(1), message: .error(ErrorMessage(code: .invalid, message: "m"))).supersedes == nil)
    }

    /// Both sides of the limit: a thousand page joins cost a client that does not read one
    /// waiting `pages`, where plain messages past the limit close it.
    @Test func aStormOfStatesNeverFillsTheOutbox() {
        var outbox = ClientOutbox()
        for k in 0..<1000 { #expect(Self.put(&outbox, Self.message("pages \(k)", supersedes: "pages"), now: 0)) }
        #expect(outbox.pendingControl == 1)
        var plain = ClientOutbox()
        let accepted = (0..<1000).filter { plain.enqueueControl(Self.message("error \($0)"), now: 0) }.count
        #expect(accepted == ClientOutbox.controlLimit)
    }
}

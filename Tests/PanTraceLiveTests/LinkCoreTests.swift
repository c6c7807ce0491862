import Foundation
import PanCapture
import PanTrace
@testable import PanTraceLive
import Testing

/// The live link's pure core driven with virtual time: queue, drops, joins, acknowledgements,
/// backoff, rate and stalls, each threshold from both sides.
struct LinkCoreTests {
    static let source = LiveSource(
        name: "Test phone", platform: .ios, screen: ScreenGeometry(width: 390, height: 844, scale: 3), edge: .left, session: "session-0001")

    static func configuration(capacity: Int = 16, window: Int = 8, maxFailed: Int? = nil) -> LiveLink.Configuration {
        LiveLink.Configuration(
            url: URL(string: "ws://127.0.0.1:9/live")!, token: "token-token-token", source: source, queueCapacity: capacity, window: window,
            maxFailedAttempts: maxFailed, seed: 7)
    }

    /// A core joined as source 2, the server having `received`.
    static func joined(_ core: inout LinkCore, received: Int = 0, maxBatch: Int = 64, rate: Int = 1000, burst: Int = 2000, now: Double = 0)
        -> [LinkCore.Action]
    {
        var actions = core.start(now: now)
        actions += core.opened(now: now)
        actions += core.received(
            #"{"type":"source_ready","source":2,"session":"session-0001","received":\#(received),"max_batch":\#(maxBatch),"rate":\#(rate),"burst":\#(burst)}"#,
            now: now)
        return actions
    }

    static func sent(_ actions: [LinkCore.Action]) -> [[String: Any]] {
        actions.compactMap {
            guard case .send(let text) = $0 else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
    }

    /// The `seq`s of every `samples` message among the actions.
    static func seqs(_ actions: [LinkCore.Action]) -> [Int] {
        sent(actions).filter { $0["type"] as? String == "samples" }.flatMap { ($0["samples"] as! [[String: Any]]).map { $0["seq"] as! Int } }
    }

    @discardableResult
    static func record(_ core: inout LinkCore, _ state: TraceRecorder.State, at time: Double, now: Double = 0, x: Double = 0)
        -> (LiveLink.Enqueued, [LinkCore.Action])
    {
        core.record(
            state: state, translation: PanVector(x: x, y: 0), velocity: PanVector(x: 100, y: 0), location: nil, touches: 1, timestamp: time,
            now: now)
    }

    @Test func joinSendsTheSourceMessageThenSamples() throws {
        var core = LinkCore(configuration: Self.configuration())
        let start = core.start(now: 0)
        #expect(start == [.connect, .status(.connecting(attempt: 1))])
        let opened = Self.sent(core.opened(now: 0))
        #expect(opened.count == 1)
        #expect(opened[0]["type"] as? String == "source")
        #expect(opened[0]["session"] as? String == "session-0001")
        #expect(opened[0]["edge"] as? String == "left")
        #expect(opened[0]["velocity"] as? String == "recorded")
        #expect((opened[0]["screen"] as? [String: Any])?["width"] as? Int == 390)
        let ready = core.received(#"{"type":"source_ready","source":2,"received":0,"max_batch":64,"rate":1000,"burst":2000}"#, now: 0)
        #expect(ready == [.status(.connected(source: 2, reconnects: 0))])
        let (result, actions) = Self.record(&core, .began, at: 10, x: 1.5)
        #expect(result == .queued(seq: 1))
        let message = Self.sent(actions)
        #expect(message.count == 1)
        #expect(message[0]["dropped"] as? Int == 0)
        let sample = (message[0]["samples"] as! [[String: Any]])[0]
        #expect(sample["state"] as? String == "began")
        #expect(sample["t"] as? Int == 10)
        #expect(sample["tx"] as? Double == 1.5)
        #expect(sample["touches"] as? Int == 1)
        #expect(sample["lx"] == nil)
        _ = core.received(#"{"type":"ack","received":1}"#, now: 0.01)
        #expect(core.queuedCount == 0)
        #expect(core.counters.acknowledged == 1)
    }

    @Test func possibleAndOrphanSamplesAreIgnoredAndBadValuesRejected() {
        var core = LinkCore(configuration: Self.configuration())
        #expect(Self.record(&core, .possible, at: 1).0 == .ignored)
        #expect(Self.record(&core, .changed, at: 1).0 == .ignored)
        #expect(Self.record(&core, .began, at: 1).0 == .queued(seq: 1))
        #expect(Self.record(&core, .changed, at: 0.5).0 != .queued(seq: 2))  // time goes back
        let nan = core.record(
            state: .changed, translation: PanVector(x: .nan, y: 0), velocity: PanVector(x: 0, y: 0), location: nil, touches: nil,
            timestamp: 2, now: 0)
        guard case .rejected(let why) = nan.0 else {
            Issue.record("NaN accepted")
            return
        }
        #expect(why.contains("translation"))
        let far = core.record(
            state: .changed, translation: PanVector(x: 0, y: 0), velocity: PanVector(x: 1e6 + 1, y: 0), location: nil, touches: nil,
            timestamp: 2, now: 0)
        #expect(far.0 != .queued(seq: 2))
        let edge = core.record(
            state: .changed, translation: PanVector(x: 0, y: 0), velocity: PanVector(x: 1e6, y: 0), location: nil, touches: nil,
            timestamp: 2, now: 0)
        #expect(edge.0 == .queued(seq: 2))
        #expect(core.counters.rejected == 3)
    }

    @Test func aFullQueueDropsTheOldestUnsentChangedSampleAndCountsIt() throws {
        var core = LinkCore(configuration: Self.configuration(capacity: 4))
        _ = core.start(now: 0)  // connecting: nothing is sent
        Self.record(&core, .began, at: 0)
        for index in 1...3 { #expect(Self.record(&core, .changed, at: Double(index) * 0.01).0 == .queued(seq: index + 1)) }
        #expect(core.counters.dropped == 0)  // exactly full: nothing dropped
        #expect(Self.record(&core, .changed, at: 0.04).0 == .queuedDroppingAnother(seq: 5))
        #expect(Self.record(&core, .ended, at: 0.05).0 == .queuedDroppingAnother(seq: 6))
        #expect(core.counters.dropped == 2)
        #expect(core.queuedCount == 4)
        _ = core.opened(now: 1)
        let actions = core.received(#"{"type":"source_ready","source":1,"received":0}"#, now: 1)
        #expect(Self.seqs(actions) == [1, 4, 5, 6])  // the began and the end kept, the oldest changes dropped
        #expect(Self.sent(actions).last?["dropped"] as? Int == 2)
    }

    @Test func aQueueOfBoundariesDropsTheIncomingChange() {
        var core = LinkCore(configuration: Self.configuration(capacity: 2))
        Self.record(&core, .began, at: 0)
        Self.record(&core, .ended, at: 0.1)
        Self.record(&core, .began, at: 0.2)  // drops the oldest boundary: nothing else to drop
        #expect(core.counters.dropped == 1)
        #expect(Self.record(&core, .changed, at: 0.3).0 == .dropped)
        #expect(core.counters.dropped == 2)
    }

    @Test func batchesFollowMaxBatchAndTheWindow() {
        var paused = LinkCore(configuration: Self.configuration(capacity: 64, window: 2))
        _ = paused.start(now: 0)
        Self.record(&paused, .began, at: 0)
        for index in 1...9 { Self.record(&paused, .changed, at: Double(index) * 0.01) }
        _ = paused.opened(now: 0)
        let actions = paused.received(#"{"type":"source_ready","source":1,"received":0,"max_batch":3}"#, now: 0)
        // Two batches of three in flight, no more until an acknowledgement.
        #expect(Self.sent(actions).count == 2)
        #expect(Self.seqs(actions) == [1, 2, 3, 4, 5, 6])
        #expect(Self.seqs(paused.tick(now: 0.5)) == [])
        #expect(Self.seqs(paused.received(#"{"type":"ack","received":3}"#, now: 0.6)) == [7, 8, 9])
        #expect(Self.seqs(paused.received(#"{"type":"ack","received":6}"#, now: 0.7)) == [10])
    }

    @Test func theRateIsKeptWithTheBurst() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = core.start(now: 0)
        Self.record(&core, .began, at: 0)
        for index in 1...7 { Self.record(&core, .changed, at: Double(index) * 0.01) }
        _ = core.opened(now: 0)
        let actions = core.received(#"{"type":"source_ready","source":1,"received":0,"max_batch":64,"rate":8,"burst":5}"#, now: 0)
        #expect(Self.seqs(actions) == [1, 2, 3, 4, 5])
        #expect(core.nextDeadline == 0.125)
        #expect(Self.seqs(core.tick(now: 0.0625)) == [])  // half a sample's worth
        #expect(Self.seqs(core.tick(now: 0.125)) == [6])
        #expect(Self.seqs(core.tick(now: 0.375)) == [7, 8])
    }

    @Test func aReconnectSendsOnlyWhatTheServerLacks() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = Self.joined(&core)
        Self.record(&core, .began, at: 0)
        Self.record(&core, .changed, at: 0.01)
        Self.record(&core, .ended, at: 0.02)
        _ = core.received(#"{"type":"ack","received":1}"#, now: 0.03)
        let closed = core.closed(reason: "reset", now: 1)
        guard case .status(.disconnected(_, let retry)) = closed.last else {
            Issue.record("no disconnected status: \(closed)")
            return
        }
        Self.record(&core, .began, at: 2)  // a new gesture while away
        Self.record(&core, .ended, at: 2.1)
        #expect(core.tick(now: 1 + retry - 0.001).isEmpty)
        #expect(core.tick(now: 1 + retry).first == .connect)
        _ = core.opened(now: 2)
        // The server has the whole first gesture (3): only the new one goes.
        let actions = core.received(#"{"type":"source_ready","source":2,"received":3}"#, now: 2)
        #expect(actions.first == .status(.connected(source: 2, reconnects: 1)))
        #expect(Self.seqs(actions) == [4, 5])
        #expect(core.counters.discarded == 0)
    }

    @Test func aGestureCutByADisconnectIsNotContinued() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = Self.joined(&core)
        Self.record(&core, .began, at: 0)
        Self.record(&core, .changed, at: 0.01)
        _ = core.received(#"{"type":"ack","received":2}"#, now: 0.02)
        Self.record(&core, .changed, at: 0.02)  // sent, never acknowledged
        _ = core.closed(reason: "reset", now: 0.03)
        Self.record(&core, .changed, at: 0.04)  // the finger still moves while away
        _ = core.tick(now: 10)
        _ = core.opened(now: 10)
        // The server got the third sample before the socket dropped, and kept the gesture incomplete.
        let actions = core.received(#"{"type":"source_ready","source":2,"received":3}"#, now: 10)
        #expect(Self.seqs(actions) == [])
        #expect(core.counters.discarded == 1)
        #expect(Self.record(&core, .changed, at: 0.05, now: 10).0 == .discarded)
        #expect(Self.record(&core, .ended, at: 0.06, now: 10).0 == .discarded)
        #expect(core.counters.discarded == 3)
        #expect(Self.record(&core, .changed, at: 0.07, now: 10).0 == .ignored)
        let next = Self.record(&core, .began, at: 1, now: 10)
        #expect(next.0 == .queued(seq: 5))
        #expect(Self.seqs(next.1) == [5])
    }

    @Test func afterAServerRestartNothingAcknowledgedIsResent() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = Self.joined(&core)
        Self.record(&core, .began, at: 0)
        Self.record(&core, .ended, at: 0.1)
        Self.record(&core, .began, at: 1)
        Self.record(&core, .changed, at: 1.1)
        _ = core.received(#"{"type":"ack","received":3}"#, now: 1.2)
        _ = core.closed(reason: "the server closed the connection (1001)", now: 2)
        _ = core.tick(now: 10)
        _ = core.opened(now: 10)
        // A new server: received 0, below the 3 acknowledged.
        let actions = core.received(#"{"type":"source_ready","source":1,"received":0}"#, now: 10)
        #expect(Self.seqs(actions) == [])  // sample 4 continues gesture 3, which the old server kept
        #expect(core.counters.restartsSeen == 1)
        #expect(core.counters.discarded == 1)
        #expect(Self.record(&core, .ended, at: 1.2, now: 10).0 == .discarded)
        #expect(Self.seqs(Self.record(&core, .began, at: 3, now: 10).1) == [5])
        _ = core.received(#"{"type":"ack","received":5}"#, now: 10.1)
        #expect(core.counters.acknowledged == 5)
    }

    @Test func aNewSessionOnARestartedServerBeforeAnyAckResendsEverything() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = core.start(now: 0)
        Self.record(&core, .began, at: 0)
        Self.record(&core, .ended, at: 0.1)
        _ = core.closed(reason: "refused", now: 0)
        _ = core.tick(now: 10)
        _ = core.opened(now: 10)
        let actions = core.received(#"{"type":"source_ready","source":1,"received":0}"#, now: 10)
        #expect(Self.seqs(actions) == [1, 2])
        #expect(core.counters.restartsSeen == 0)
    }

    @Test func aStallIsReportedAfterStallAfterAndClearedByAnAck() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = Self.joined(&core)
        Self.record(&core, .began, at: 0, now: 1)
        #expect(core.nextDeadline == 4)
        #expect(core.tick(now: 3.999).isEmpty)
        #expect(core.tick(now: 4) == [.status(.stalled(since: 1))])
        #expect(core.tick(now: 5).isEmpty)  // said once
        #expect(core.received(#"{"type":"ack","received":1}"#, now: 6) == [.status(.connected(source: 2, reconnects: 0))])
    }

    @Test func backoffDoublesToItsCapWithJitter() {
        var core = LinkCore(configuration: Self.configuration())
        _ = core.start(now: 0)
        var delays: [Double] = []
        var now = 0.0
        for _ in 0..<9 {
            let actions = core.closed(reason: "refused", now: now)
            guard case .status(.disconnected(_, let retry)) = actions.last else {
                Issue.record("no retry")
                return
            }
            delays.append(retry)
            now += retry
            #expect(core.tick(now: now).first == .connect)
        }
        for (index, delay) in delays.enumerated() {
            let nominal = min(10, 0.25 * pow(2, Double(index)))
            #expect(delay >= nominal * 0.8 && delay <= nominal * 1.2, "attempt \(index + 1): \(delay)")
        }
        // The same seed, the same delays.
        var again = LinkCore(configuration: Self.configuration())
        _ = again.start(now: 0)
        let first = again.closed(reason: "refused", now: 0)
        #expect(first.last == .status(.disconnected(reason: "refused", retryIn: delays[0])))
    }

    @Test func aRefusedTokenIsFinal() {
        var core = LinkCore(configuration: Self.configuration())
        _ = core.start(now: 0)
        _ = core.opened(now: 0)
        let actions = core.received(#"{"type":"error","code":"forbidden","message":"a source needs the token"}"#, now: 0)
        #expect(actions == [.close, .status(.refused(reason: "forbidden: a source needs the token"))])
        #expect(core.closed(reason: "1008", now: 0).isEmpty)
        #expect(core.tick(now: 100).isEmpty)
        #expect(core.isFinished)
    }

    @Test func givesUpAfterMaxFailedAttemptsInARow() {
        var core = LinkCore(configuration: Self.configuration(maxFailed: 3))
        _ = core.start(now: 0)
        _ = core.closed(reason: "refused", now: 0)
        _ = core.tick(now: 100)
        _ = core.closed(reason: "refused", now: 100)
        #expect(!core.isFinished)  // two failures: still trying
        _ = core.tick(now: 200)
        let last = core.closed(reason: "connection refused", now: 200)
        #expect(last == [.status(.gaveUp(reason: "cannot reach the server: connection refused"))])
        #expect(core.isFinished)
    }

    @Test func aJoinThatNeverFinishesIsClosedAndRetried() {
        var core = LinkCore(configuration: Self.configuration())
        _ = core.start(now: 0)
        _ = core.opened(now: 0)
        #expect(core.nextDeadline == 10)
        #expect(core.tick(now: 9.99).isEmpty)
        let actions = core.tick(now: 10)
        #expect(actions.first == .close)
        guard case .status(.disconnected(let reason, _)) = actions.last else {
            Issue.record("no retry: \(actions)")
            return
        }
        #expect(reason == "no answer within 10 s")
    }

    @Test func rateLimitedAndBadSampleErrorsAreCounted() {
        var core = LinkCore(configuration: Self.configuration())
        _ = Self.joined(&core)
        _ = core.received(#"{"type":"error","code":"rate_limited","message":"slow down","retry_after_ms":100}"#, now: 0)
        _ = core.received(#"{"type":"error","code":"invalid","message":"sample 4: vx is not finite"}"#, now: 0)
        _ = core.received("not json", now: 0)
        #expect(core.counters.rateLimited == 1)
        #expect(core.counters.serverErrors == 2)
        #expect(core.counters.lastServerError == "invalid: sample 4: vx is not finite")
        #expect(!core.isFinished)
    }

    @Test func sourceProblemsNameTheField() {
        var source = Self.source
        #expect(source.problem == nil)
        source.session = "short"
        #expect(source.problem?.contains("session") == true)
        source = Self.source
        source.name = "tab\there"
        #expect(source.problem?.contains("control") == true)
        source = Self.source
        source.screen.scale = 5
        #expect(source.problem?.contains("scale") == true)
        #expect(LiveSource(name: "x", screen: .phone).session.count == 32)
    }
}

extension LinkCoreTests {
    @Test func aRefusalWhileJoiningIsRetriedAfterTheBackoff() {
        var core = LinkCore(configuration: Self.configuration())
        _ = core.start(now: 0)
        _ = core.opened(now: 0)
        let actions = core.received(#"{"type":"error","code":"busy","message":"session x is connected already","retry_after_ms":1000}"#, now: 0)
        #expect(actions.first == .close)
        guard case .status(.disconnected(let reason, _)) = actions.last else {
            Issue.record("no retry: \(actions)")
            return
        }
        #expect(reason == "busy: session x is connected already")
        #expect(!core.isFinished)
    }

    /// An acknowledgement of samples never sent is not believed (they would be dropped unsent):
    /// it counts as a server error and names the claim; one of exactly what was sent is.
    @Test(arguments: [(4, false), (3, true)])
    func anAckBeyondWhatWasSentIsNotBelieved(received: Int, believed: Bool) {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = Self.joined(&core)
        Self.record(&core, .began, at: 0)
        Self.record(&core, .changed, at: 0.01)
        Self.record(&core, .ended, at: 0.02)
        _ = core.received(#"{"type":"ack","received":\#(received)}"#, now: 0.03)
        #expect(core.counters.acknowledged == 3)
        #expect(core.counters.queued == 0)
        #expect(core.counters.serverErrors == (believed ? 0 : 1))
        #expect((core.counters.lastServerError ?? "").contains("received 4 is beyond the 3 samples sent") == !believed)
    }

    /// A join that claims more than was ever sent keeps the unsent samples and sends them.
    @Test func aJoinClaimingUnsentSamplesStillSendsThem() {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = core.start(now: 0)
        Self.record(&core, .began, at: 0)
        Self.record(&core, .ended, at: 0.1)
        _ = core.opened(now: 0)
        let actions = core.received(#"{"type":"source_ready","source":1,"received":1000}"#, now: 0)
        #expect(Self.seqs(actions) == [1, 2])
        #expect(core.counters.serverErrors == 1)
        #expect(core.counters.lastServerError?.hasPrefix("source_ready: received 1000 is beyond the 0 samples sent") == true)
    }

    /// A rate or burst past a sample a microsecond, or not finite, is not taken as it is: the
    /// batch sizes stay integers and the link keeps sending (1e300 used to trap).
    @Test(arguments: ["1e300", "1e6"])
    func aHugeRateAndBurstAreBounded(value: String) {
        var core = LinkCore(configuration: Self.configuration(capacity: 64))
        _ = core.start(now: 0)
        Self.record(&core, .began, at: 0)
        for index in 1...5 { Self.record(&core, .changed, at: Double(index) * 0.01) }
        _ = core.opened(now: 0)
        let actions = core.received(
            #"{"type":"source_ready","source":1,"received":0,"max_batch":64,"rate":\#(value),"burst":\#(value)}"#, now: 0)
        #expect(Self.seqs(actions) == [1, 2, 3, 4, 5, 6])
        let (_, sent) = Self.record(&core, .changed, at: 0.1, now: 4e9)
        #expect(Self.seqs(sent + core.tick(now: 4e9)) == [7])
    }
}

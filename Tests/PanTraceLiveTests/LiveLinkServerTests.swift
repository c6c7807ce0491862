import Foundation
import PanCapture
import PanTrace
import PanTraceLive
import TestSupport
import Testing

/// `LiveLink` against a real `pantrace serve`: what the server saves from a link equals what
/// `TraceRecorder` writes locally from the same calls, and the faults the link survives.
@Suite(.serialized)
struct LiveLinkServerTests {
    static let token = "live-link-test-token-0001"
    static let screen = ScreenGeometry(width: 390, height: 844, scale: 3)

    /// One recognizer callback, as an app's pan handler would make it.
    struct Call {
        var state: TraceRecorder.State
        var translation: PanVector
        var velocity: PanVector
        var location: PanVector
        var timestamp: Double
    }

    /// A synthesized edge pan at 120 Hz starting at `start`: `began`, `count` changes, then `end`
    /// (nil: no end, the finger is still down).
    static func pan(start: Double, count: Int, end: TraceRecorder.State? = .ended, seed: Double = 1) -> [Call] {
        var calls: [Call] = []
        for index in 0...(count + (end == nil ? 0 : 1)) {
            let time = start + Double(index) / 120
            let u = Double(index) / Double(count + 1)
            let x = 300 * u * u * (3 - 2 * u) * seed
            let state: TraceRecorder.State = index == 0 ? .began : (index == count + 1 ? end! : .changed)
            calls.append(
                Call(
                    state: state, translation: PanVector(x: x, y: 2.5 * u), velocity: PanVector(x: 1800 * u * (1 - u) * seed, y: 3),
                    location: PanVector(x: 12 + x, y: 400 + 2.5 * u), timestamp: time))
        }
        return calls
    }

    static func send(_ calls: some Sequence<Call>, to link: LiveLink) {
        for call in calls {
            link.record(
                state: call.state, translation: call.translation, velocity: call.velocity, location: call.location, touches: 1,
                timestamp: call.timestamp)
        }
    }

    /// What `TraceRecorder` writes locally from the same calls (`interrupted`: then closed mid-gesture).
    static func local(_ calls: [Call], in folder: String, edge: ScreenEdge? = .left, interrupted: Bool = false) throws -> TraceFile {
        let recorder = TraceRecorder(
            destination: RecordingDestination(folder: folder, stem: "local"),
            metadata: TraceMetadata(id: "", created: "2026-11-27T00:00:00Z", source: "ios", screen: screen, edge: edge))
        for call in calls {
            try recorder.record(
                state: call.state, translation: call.translation, velocity: call.velocity, location: call.location, touches: 1,
                timestamp: call.timestamp)
        }
        if interrupted { try recorder.interrupt() }
        return try TraceReader(configuration: .init(isStrict: false)).read(contentsOf: folder + "/local-1.pantrace")
    }

    /// The server's unsaved device gestures, oldest first.
    static func unsaved(in recordings: String) -> [String] {
        let folder = recordings + "/live"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("unsaved-ios-") && $0.hasSuffix(".pantrace") }
            .sorted { order(of: $0).lexicographicallyPrecedes(order(of: $1)) }.map { folder + "/" + $0 }
    }

    /// `unsaved-ios-SOURCE-DATE-N.pantrace` orders by the source's join time, then N.
    static func order(of name: String) -> [Int] {
        name.dropLast(".pantrace".count).split(separator: "-").suffix(2).map { Int($0) ?? 0 }
    }

    static func read(_ path: String) throws -> TraceFile {
        try TraceReader(configuration: .init(isStrict: false)).read(contentsOf: path)
    }

    static func link(to server: ServeProcess, capacity: Int = 2048, window: Int = 8, stallAfter: Double = 3) -> (LiveLink, Locked<[LiveLink.Status]>)
    {
        let link = LiveLink(
            configuration: .init(
                url: server.url, token: token,
                source: LiveSource(name: "Test phone", platform: .ios, screen: screen, edge: .left), queueCapacity: capacity,
                window: window, backoffBase: 0.1, backoffMax: 0.5, stallAfter: stallAfter, seed: 3))
        let statuses = Locked<[LiveLink.Status]>([])
        link.onStatus = { status in statuses.withLock { $0.append(status) } }
        return (link, statuses)
    }

    static func connected(_ link: LiveLink) -> Bool {
        if case .connected = link.waitForStatus(timeout: 30, until: { if case .connected = $0 { true } else { $0.isFinal } }) { return true }
        return false
    }

    /// Samples and metadata a device recording shares with the local one (`created` and `id` differ).
    static func expectSame(_ server: TraceFile, _ local: TraceFile, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(server.trace.samples == local.trace.samples, sourceLocation: sourceLocation)
        #expect(server.trace.samples.count == local.trace.samples.count, sourceLocation: sourceLocation)
        #expect(server.isComplete == local.isComplete, sourceLocation: sourceLocation)
        let a = server.trace.metadata, b = local.trace.metadata
        #expect(a.source == b.source, sourceLocation: sourceLocation)
        #expect(a.screen == b.screen, sourceLocation: sourceLocation)
        #expect(a.edge == b.edge, sourceLocation: sourceLocation)
        #expect(a.velocityOrigin == b.velocityOrigin, sourceLocation: sourceLocation)
        #expect(a.intent == b.intent, sourceLocation: sourceLocation)
    }

    @Test func aPanArrivesAsTraceRecorderWritesIt() throws {
        let folder = try TemporaryFolder("live-link")
        let server = try ServeProcess(recordings: folder.appending("recordings"), state: folder.appending("state"), token: Self.token)
        try FileManager.default.createDirectory(atPath: folder.appending("local"), withIntermediateDirectories: true)
        let (link, _) = Self.link(to: server)
        link.start()
        #expect(Self.connected(link))
        let calls = Self.pan(start: 812.5, count: 48)
        Self.send(calls, to: link)
        #expect(link.waitUntilDrained(timeout: 30))
        let files = Self.unsaved(in: server.recordings)
        #expect(files.count == 1)
        let saved = try Self.read(try #require(files.first))
        Self.expectSame(saved, try Self.local(calls, in: folder.appending("local")))
        #expect(saved.isComplete)
        let counters = link.counters
        #expect(counters.acknowledged == calls.count)
        #expect(counters.dropped == 0 && counters.discarded == 0 && counters.reconnects == 0)
        link.stop()
        server.stop()
    }

    @Test func aDisconnectMidGestureLeavesTheFileIncomplete() throws {
        let folder = try TemporaryFolder("live-link")
        let server = try ServeProcess(recordings: folder.appending("recordings"), state: folder.appending("state"), token: Self.token)
        try FileManager.default.createDirectory(atPath: folder.appending("local"), withIntermediateDirectories: true)
        let (link, _) = Self.link(to: server)
        link.start()
        #expect(Self.connected(link))
        let calls = Self.pan(start: 20, count: 30, end: nil)
        Self.send(calls, to: link)
        #expect(link.waitUntilDrained(timeout: 30))
        link.stop()  // the socket closes with the finger down
        let path = try #require(Self.unsaved(in: server.recordings).first)
        // The server closes the file when it sees the socket go.
        #expect(server.waitUntilPrinted("source 1 left"))
        let saved = try Self.read(path)
        #expect(!saved.isComplete)
        Self.expectSame(saved, try Self.local(calls, in: folder.appending("local"), interrupted: true))
        server.stop()
    }

    @Test func aServerRestartIsSaidAndNothingIsSentTwice() throws {
        let folder = try TemporaryFolder("live-link")
        let recordings = folder.appending("recordings"), state = folder.appending("state")
        let first = try ServeProcess(recordings: recordings, state: state, token: Self.token)
        let (link, statuses) = Self.link(to: first)
        link.start()
        #expect(Self.connected(link))
        let gesture1 = Self.pan(start: 1, count: 20)
        Self.send(gesture1, to: link)
        let gesture2 = Self.pan(start: 3, count: 20, seed: 0.5)
        Self.send(gesture2.prefix(10), to: link)
        #expect(link.waitUntilDrained(timeout: 30))
        first.stop()
        #expect(link.waitForStatus(timeout: 30) { if case .disconnected = $0 { true } else { false } }.isFinal == false)
        Self.send(gesture2.dropFirst(10), to: link)  // the finger goes on while the server is away
        let second = try ServeProcess(recordings: recordings, state: state, token: Self.token, port: first.port)
        #expect(Self.connected(link))
        let gesture3 = Self.pan(start: 6, count: 20, seed: 0.8)
        Self.send(gesture3, to: link)
        #expect(link.waitUntilDrained(timeout: 30))
        let counters = link.counters
        #expect(counters.restartsSeen == 1)
        #expect(counters.reconnects >= 1)
        #expect(counters.discarded == gesture2.count - 10)
        // Said: disconnected, then connected again after a reconnect.
        let said = statuses.withLock { $0 }
        let lost = said.firstIndex { if case .disconnected = $0 { true } else { false } }
        let back = said.lastIndex { if case .connected(_, let reconnects) = $0 { reconnects >= 1 } else { false } }
        #expect(lost != nil && back != nil && lost! < back!)
        // Three files: the first gesture whole, the second cut by the restart, the third whole
        // from the new server; no sample twice.
        let files = Self.unsaved(in: recordings)
        #expect(files.count == 3)
        let traces = try files.map(Self.read)
        #expect(traces.map(\.trace.samples.count) == [gesture1.count, 10, gesture3.count])
        #expect(traces.map(\.isComplete) == [true, false, true])
        let locals = try [gesture1, gesture3].enumerated().map { index, calls in
            let local = folder.appending("local\(index)")
            try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
            return try Self.local(calls, in: local)
        }
        Self.expectSame(traces[0], locals[0])
        Self.expectSame(traces[2], locals[1])
        link.stop()
        second.stop()
    }

    @Test func aStalledServerBoundsTheQueueAndCountsDrops() throws {
        let folder = try TemporaryFolder("live-link")
        let server = try ServeProcess(recordings: folder.appending("recordings"), state: folder.appending("state"), token: Self.token)
        let capacity = 32
        let (link, statuses) = Self.link(to: server, capacity: capacity, window: 1, stallAfter: 0.3)
        link.start()
        #expect(Self.connected(link))
        let calls = Self.pan(start: 40, count: 200)
        Self.send(calls.prefix(1), to: link)
        #expect(link.waitUntilDrained(timeout: 30))
        server.pause()
        Self.send(calls.dropFirst().prefix(150), to: link)
        let stalled = link.waitForStatus(timeout: 30) { if case .stalled = $0 { true } else { $0.isFinal } }
        #expect({ if case .stalled = stalled { true } else { false } }(), "\(stalled), \(link.counters), \(statuses.withLock { $0 })")
        Self.send(calls.dropFirst(151), to: link)
        let during = link.counters
        #expect(during.queued <= capacity)
        #expect(during.dropped > 0)
        #expect(during.dropped + during.queued + during.acknowledged == calls.count)
        server.resume()
        #expect(link.waitUntilDrained(timeout: 30))
        let after = link.counters
        #expect(after.dropped == during.dropped)  // nothing more lost once it answers
        let path = try #require(Self.unsaved(in: server.recordings).first)
        let saved = try Self.read(path)
        #expect(saved.isComplete)
        #expect(saved.trace.samples.count == calls.count - after.dropped)
        #expect(saved.trace.samples.first?.phase == .began && saved.trace.samples.last?.phase == .ended)
        #expect(statuses.withLock { $0.contains { if case .stalled = $0 { true } else { false } } })
        link.stop()
        server.stop()
    }

    @Test func twoDevicesAtOnceEachGetTheirOwnFiles() throws {
        let folder = try TemporaryFolder("live-link")
        let server = try ServeProcess(recordings: folder.appending("recordings"), state: folder.appending("state"), token: Self.token)
        let (a, _) = Self.link(to: server)
        let (b, _) = Self.link(to: server)
        a.start()
        b.start()
        #expect(Self.connected(a) && Self.connected(b))
        let panA = Self.pan(start: 5, count: 30), panB = Self.pan(start: 9, count: 40, seed: 0.6)
        // Interleaved, as two phones on the same network would send them.
        for index in 0..<max(panA.count, panB.count) {
            if index < panA.count { Self.send([panA[index]], to: a) }
            if index < panB.count { Self.send([panB[index]], to: b) }
        }
        #expect(a.waitUntilDrained(timeout: 30) && b.waitUntilDrained(timeout: 30))
        #expect(a.counters.source != b.counters.source)
        let files = Self.unsaved(in: server.recordings)
        #expect(files.count == 2)
        let bySource = try Dictionary(
            uniqueKeysWithValues: files.map { path in
                (Int(path.split(separator: "/").last!.split(separator: "-")[2])!, try Self.read(path))
            })
        for (link, calls) in [(a, panA), (b, panB)] {
            let local = folder.appending("local-\(link.counters.source ?? 0)")
            try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
            Self.expectSame(try #require(bySource[link.counters.source ?? 0]), try Self.local(calls, in: local))
        }
        a.stop()
        b.stop()
        server.stop()
    }

    @Test func aWrongTokenIsRefusedAndFinal() throws {
        let folder = try TemporaryFolder("live-link")
        let server = try ServeProcess(recordings: folder.appending("recordings"), state: folder.appending("state"), token: Self.token)
        // pantrace serve closes a refused source at once; when the source's first message
        // reaches it before the close, the close is a reset and the error can be lost: the link
        // then tries again (0.1 s apart here) until it reads the refusal.
        let link = LiveLink(
            configuration: .init(
                url: server.url, token: "not-the-token-at-all", source: LiveSource(name: "Test phone", screen: Self.screen), backoffBase: 0.1,
                backoffMax: 0.2))
        link.start()
        let status = link.waitForStatus(timeout: 30) { $0.isFinal }
        guard case .refused(let reason) = status else {
            Issue.record("not refused: \(status)")
            return
        }
        #expect(reason.hasPrefix("forbidden"))
        server.stop()
    }
}

internal import PanCapture

/// The live sources (devices) the server knows, as a value: each by its session, which
/// connection speaks for which, and the numbers pages know them by (docs/PROTOCOL.md §4).
///
/// A source's connection is first `unnamed`, then names its session with `source`; a session
/// outlives its connection while it has unsaved gestures (a reconnect takes it up again).
struct LiveSources {
    /// Sources remembered (connected, or with unsaved gestures) at once.
    static let limit = 64

    /// Sources-list broadcasts that samples cause (a gesture began, a `dropped` count changed)
    /// a second, for all sources together, and in one burst: past them, the change waits for the
    /// next one allowed (``listChanged(now:)``), so no source can make every page receive the
    /// list at the rate it sends samples.
    static let listRate = 4.0
    static let listBurst = 8.0
    /// Gestures all sources together may begin a second, and in one burst: each is a file, a
    /// rescan of the library and a broadcast when it ends. Past them a `began` is refused (its
    /// gesture is not recorded). A person makes a pan or two a second.
    static let gestureRate = 10.0
    static let gestureBurst = 30.0
    /// A gesture with fewer samples than this is not a file: its file is removed when it ends
    /// (`device_gesture` says `discarded`). A pan gives `began`, at least one `changed` and an
    /// end; a `began` alone, or a `began` and its end, is noise (or a flood of `began`).
    static let minimumSamples = 3
    /// Seconds a source's connection may stay without naming itself (`source`): past them it
    /// is closed with an error. A connection that never names itself holds a socket and a
    /// place in the server's connection limit, so it is not kept for ever.
    static let namingTimeout = 10.0

    private var bySession: [String: DeviceSource] = [:]
    private var connections: [ConnectionID: SourceConnection] = [:]
    private var nextNumber = 1
    private var listBroadcasts = TokenBucket(rate: listRate, burst: listBurst)
    /// A change of the list was not broadcast yet.
    private var listIsStale = false
    private var gestures = TokenBucket(rate: gestureRate, burst: gestureBurst)

    var isEmpty: Bool { bySession.isEmpty }
    var count: Int { bySession.count }
    var all: Dictionary<String, DeviceSource>.Values { bySession.values }

    /// The source of a session.
    subscript(session: String) -> DeviceSource? {
        get { bySession[session] }
        set { bySession[session] = newValue }
    }

    /// Takes the source of `session` out while it changes (its gesture's storage is then not
    /// shared with a copy left behind); put it back with the subscript.
    mutating func take(_ session: String) -> DeviceSource? { bySession.removeValue(forKey: session) }

    /// The sources in number order, as pages are told them.
    var message: SourcesMessage { SourcesMessage(sources: bySession.values.map(\.info).sorted { $0.source < $1.source }) }

    // MARK: Pacing

    /// Samples changed what the list shows (or an earlier change waits): whether the list may
    /// be broadcast now. When it may not, the change waits for the next call that may.
    mutating func listChanged(now: Double) -> Bool {
        listIsStale = true
        guard listBroadcasts.take(now: now) == nil else { return false }
        listIsStale = false
        return true
    }

    /// A change that waits, if one does: as ``listChanged(now:)``; false when none waits.
    mutating func staleListDue(now: Double) -> Bool { listIsStale && listChanged(now: now) }

    /// The list was just broadcast for another reason (a join, a leave, a gesture's end): no
    /// change waits.
    mutating func listBroadcast() { listIsStale = false }

    /// Whether a gesture may begin now (``gestureRate``); nil when it may, else the seconds until
    /// one could.
    mutating func takeGesture(now: Double) -> Double? { gestures.take(now: now) }

    // MARK: Connections

    /// Whether connection `id` is a source's (named or not yet).
    func isSource(_ id: ConnectionID) -> Bool { connections[id] != nil }

    /// The connection's state, if it is a source's.
    func connection(_ id: ConnectionID) -> SourceConnection? { connections[id] }

    /// A source connected at `now`; it names itself next, within ``namingTimeout``.
    mutating func opened(_ id: ConnectionID, now: Double) { connections[id] = .unnamed(since: now) }

    /// When the first connection that has not named itself runs out of time, if one has not.
    var namingDeadline: Double? {
        connections.values.lazy.compactMap { if case .unnamed(let since) = $0 { since + Self.namingTimeout } else { nil } }.min()
    }

    /// The connections that have not named themselves within ``namingTimeout`` of `now`: they
    /// are forgotten here, and the caller closes them.
    mutating func expireUnnamed(now: Double) -> [ConnectionID] {
        let expired = connections.compactMap { id, state -> ConnectionID? in
            guard case .unnamed(let since) = state, now >= since + Self.namingTimeout else { return nil }
            return id
        }.sorted()
        for id in expired { connections[id] = nil }
        return expired
    }

    /// Connection `id` speaks for `session` from now on.
    mutating func named(_ id: ConnectionID, session: String) { connections[id] = .named(session) }

    /// Connection `id` closed; returns the session it spoke for, if it had named one.
    mutating func closed(_ id: ConnectionID) -> String? {
        guard case .named(let session) = connections.removeValue(forKey: id) else { return nil }
        return session
    }

    /// The number the next new source is known by.
    mutating func takeNumber() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    // MARK: Questions

    /// Whether a source is known by `number`.
    func contains(number: Int) -> Bool { bySession.values.contains { $0.number == number } }

    /// A disconnected source that is the same device as `announce` (name, platform, screen and
    /// scale), with its session.
    func disconnected(sameDeviceAs announce: SourceAnnounce) -> (String, DeviceSource)? {
        bySession.first { _, known in
            known.connection == nil && known.announce.name == announce.name && known.announce.platform == announce.platform
                && known.announce.screen == announce.screen && known.announce.scale == announce.scale
        }.map { ($0.key, $0.value) }
    }

    /// The session of the source that holds `file` unsaved.
    func owner(ofUnsaved file: String) -> String? { bySession.first { $0.value.unsaved.contains(file) }?.key }

    /// Whether some source is writing `file` now.
    func isWriting(_ file: String) -> Bool { bySession.values.contains { $0.gesture?.file == file } }

    /// Each unsaved gesture's device.
    var devicesOfFiles: [String: DeviceOfFile] {
        var byFile: [String: DeviceOfFile] = [:]
        for source in bySession.values {
            for file in source.unsaved { byFile[file] = DeviceOfFile(source: source.number, name: source.announce.name) }
        }
        return byFile
    }

    /// Disconnected sources with nothing left unsaved are no longer listed.
    mutating func forgetFinished() {
        for (session, source) in bySession where source.connection == nil && source.unsaved.isEmpty { bySession[session] = nil }
    }

    /// Shutdown: every gesture in progress is closed with what it has (incomplete).
    func finaliseAll() {
        for source in bySession.values { _ = try? source.recorder.interrupt() }
    }
}

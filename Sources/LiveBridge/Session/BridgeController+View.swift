internal import PanReplay
internal import TransitionEngine

// Each page's own view: loading, playing, following another page, and the frames of every
// view that moves.
extension BridgeController {
    /// Loads `request` as page `id`'s view (speed and loop kept); its audience is told.
    /// - Parameter made: the replay of `request` already made for another page (pages that
    ///   load the same thing at once share one replay, its frames and their encodings).
    mutating func load(_ request: LoadRequest, for id: ConnectionID, made: Player? = nil) throws -> [Outgoing] {
        var loaded = try made ?? player(for: request)
        if let previous = clients[id]?.view {
            loaded.speed = previous.speed
            loaded.loops = previous.loops
            loaded.sequence = previous.sequence  // the page's frame numbers go on
        }
        clients[id]?.view = loaded
        let to = audience(of: id)
        // The series after the playback that starts the load, so a viewer files it under it.
        return [Outgoing(target: .clients(to), message: .summary(loaded.summary), shareKey: "summary \(loaded.load)")]
            + playbackAndFrame(of: id) + [
                Outgoing(target: .clients(to), message: .series(loaded.seriesMessage), shareKey: "series \(loaded.load)")
            ]
    }

    /// Changes page `id`'s own view (a page that was following leaves first, keeping the view
    /// it saw) and tells its audience.
    mutating func changeView(of id: ConnectionID, _ change: (inout Player) -> Void) throws -> [Outgoing] {
        let left = leaveFollowing(id)
        guard var view = clients[id]?.view else { throw BridgeFailure(.invalid, "nothing is loaded: send load first") }
        change(&view)
        clients[id]?.view = view
        return left + playbackAndFrame(of: id)
    }

    /// `follow`: page `id` shows page `number`'s view from now on (whoever that page follows, it
    /// follows too), or its own again (nil), keeping what it saw.
    mutating func follow(page number: Int?, from id: ConnectionID) throws -> [Outgoing] {
        guard let number else { return leaveFollowing(id, reason: "stopped following") }
        guard var target = clients.first(where: { $0.value.page == number })?.key else {
            throw BridgeFailure(.notFound, "no page \(number) is open")
        }
        if let further = clients[target]?.leader { target = further }
        guard target != id else { throw BridgeFailure(.invalid, "a page cannot follow itself") }
        // Those who followed this page now follow its leader.
        let mine = followers.removeValue(forKey: id) ?? []
        for follower in mine { setLeader(target, of: follower) }
        setLeader(target, of: id)
        let page = clients[target]!.page
        var out: [Outgoing] = []
        for viewer in [id] + mine.sorted() {
            out.append(Outgoing(target: .client(viewer), message: .following(FollowingMessage(page: page, reason: nil))))
        }
        guard var view = clients[target]?.view else { return out }
        let to = [id] + mine.sorted()
        out.append(Outgoing(target: .clients(to), message: .summary(view.summary)))
        out.append(Outgoing(target: .clients(to), message: .playback(view.state)))
        // The frame the leader was last sent, under its number: the leader's own sequence goes on unbroken.
        let frame = FrameMessage(seq: view.sequence, load: view.load, emittedMicroseconds: 0, recording: view.recording, frame: view.frame())
        out.append(Outgoing(target: .framesFor(to), message: .frame(frame)))
        out.append(Outgoing(target: .clients(to), message: .series(view.seriesMessage), shareKey: "series \(view.load)"))
        clients[target]?.view = view
        return out
    }

    /// Page `id` stops following (if it was): its own view becomes the one it saw.
    mutating func leaveFollowing(_ id: ConnectionID, reason: String = "you changed the view") -> [Outgoing] {
        guard let leader = clients[id]?.leader else { return [] }
        let seen = clients[leader]?.view
        clients[id]?.view = seen
        setLeader(nil, of: id)
        return [Outgoing(target: .client(id), message: .following(FollowingMessage(page: nil, reason: reason)))]
    }

    /// The `playback` and the frame at the playhead of page `id`'s view, to its audience.
    mutating func playbackAndFrame(of id: ConnectionID) -> [Outgoing] {
        guard var view = clients[id]?.view else { return [] }
        let frame = frameMessage(of: &view)
        clients[id]?.view = view
        let to = audience(of: id)
        return [
            Outgoing(target: .clients(to), message: .playback(view.state)),
            Outgoing(target: .framesFor(to), message: .frame(frame))
        ]
    }

    /// A frame of `player`'s view, numbered in that view's own sequence (a page that keeps up
    /// sees consecutive numbers; a gap is a frame it was not sent).
    func frameMessage(_ frame: FrameState, of player: inout Player) -> FrameMessage {
        player.sequence += 1
        return FrameMessage(seq: player.sequence, load: player.load, emittedMicroseconds: 0, recording: player.recording, frame: frame)
    }

    /// The message of frame `index` of `view` (at its playhead when nil). Pages showing the same
    /// frame of the same replay (pages on the first view, a leader and its followers) share one
    /// computation of it and one encoding (``FrameBody``): a page costs the writing of its
    /// frames, not their making.
    mutating func frameMessage(at index: Int? = nil, of view: inout Player) -> FrameMessage {
        let index = index ?? view.currentIndex
        let body = FrameBody(load: view.load, index: index)
        let frame: FrameState
        if let cached = frameCache[body] {
            frame = cached
        } else {
            frame = view.frame(at: index)
            if frameCache.count >= Self.frameCacheLimit { frameCache.removeAll(keepingCapacity: true) }
            frameCache[body] = frame
        }
        var message = frameMessage(frame, of: &view)
        message.body = body
        return message
    }

    // MARK: Time

    /// Benchmark only (`pantrace serve --bench-frame-rate`): one frame per call for every
    /// playing view, cycling through the replay without the loop pause; the runtime calls it
    /// at the benchmark rate instead of ``tick(now:)``.
    mutating func benchmarkTick(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        var out: [Outgoing] = []
        for id in clients.keys.sorted() where isTicking(id) {
            // Moved out and back (`take`), not copied: a player is a large value.
            guard var view = clients[id]!.view.take() else { continue }
            defer { clients[id]!.view = view }
            guard let index = view.advanceOneFrame() else { continue }
            let message = frameMessage(at: index, of: &view)
            out.append(Outgoing(target: .framesFor(audience(of: id)), message: .frame(message)))
        }
        return out
    }

    /// Advances every playing view to `now`; returns the frames to show.
    mutating func tick(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        guard let last = lastTick else { return [] }
        var out: [Outgoing] = []
        for id in clients.keys.sorted() where isTicking(id) {
            // Moved out and back (`take`), not copied: a player is a large value.
            guard var view = clients[id]!.view.take() else { continue }
            let passed = view.advance(by: now - last)
            let to = audience(of: id)
            for index in passed {
                out.append(Outgoing(target: .framesFor(to), message: .frame(frameMessage(at: index, of: &view))))
            }
            if !view.isPlaying { out.append(Outgoing(target: .clients(to), message: .playback(view.state))) }
            clients[id]!.view = view
        }
        return out
    }
}

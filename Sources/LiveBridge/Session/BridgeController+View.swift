internal import PanReplay
internal import TransitionEngine

/// Frames already made, by replay and index, shared by every view showing them (views on one
/// load that went their own ways); at most ``limit`` are kept (about 2 MiB), then it starts again.
struct FrameCache {
    static let limit = 4096
    private var frames: [FrameBody: FrameState] = [:]

    var count: Int { frames.count }

    /// The message of frame `index` of `player` (at its playhead when nil), numbered next in
    /// the view's own sequence: a page that keeps up sees consecutive numbers, and a gap is a
    /// frame it was not sent.
    mutating func message(at index: Int? = nil, of player: inout Player) -> FrameMessage {
        player.sequence += 1
        return made(at: index ?? player.currentIndex, of: &player)
    }

    /// The frame at the playhead that the view's pages were last sent, under its number again:
    /// for a page that joins a view others already see, so their numbering goes on unbroken.
    mutating func repeated(of player: inout Player) -> FrameMessage {
        made(at: player.currentIndex, of: &player)
    }

    private mutating func made(at index: Int, of player: inout Player) -> FrameMessage {
        let body = FrameBody(load: player.load, index: index)
        let frame: FrameState
        if let cached = frames[body] {
            frame = cached
        } else {
            frame = player.frame(at: index)
            if frames.count >= Self.limit { frames.removeAll(keepingCapacity: true) }
            frames[body] = frame
        }
        var message = FrameMessage(seq: player.sequence, load: player.load, emittedMicroseconds: 0, recording: player.recording, frame: frame)
        message.body = body
        return message
    }
}

// Each page's view (``PageViews``): loading, playing, following another page, and the frames
// of every view that moves.
extension BridgeController {
    /// Page `id` and the pages that follow it, sorted: what moves together when it changes.
    func withFollowers(_ id: ConnectionID) -> [ConnectionID] { views.withFollowers(id) }

    /// Loads `request` as page `id`'s own view (speed and loop kept; its followers go with it);
    /// its audience is told.
    mutating func load(_ request: LoadRequest, for id: ConnectionID) throws -> [Outgoing] {
        try load(request, for: [id])
    }

    /// Loads `request` once as one view shown to `pages` and their followers (pages that load the
    /// same thing at once share one replay, its frames and their encodings). Speed and loop are
    /// the first page's; the view's numbering goes on from the highest any of them saw.
    mutating func load(_ request: LoadRequest, for pages: [ConnectionID]) throws -> [Outgoing] {
        guard let first = pages.first else { return [] }
        var loaded = try player(for: request)
        if let previous = views.player(of: first) {
            loaded.speed = previous.speed
            loaded.loops = previous.loops
        }
        loaded.sequence = pages.compactMap { views.player(of: $0)?.sequence }.max() ?? 0
        let viewID = views.add(loaded, for: pages.flatMap(withFollowers))
        return reloaded(viewID)
    }

    /// The summary, playback, frame and series of view `viewID` after a load (or a new player
    /// put in it), to its pages.
    mutating func reloaded(_ viewID: PageViews.ViewID) -> [Outgoing] {
        return views.withFrames(viewID) { view, cache in
            let to = view.members
            let frame = cache.message(of: &view.player)
            // The series after the playback that starts the load, so a viewer files it under it.
            return [
                Outgoing(target: .clients(to), message: .summary(view.player.summary), shareKey: "summary \(view.player.load)"),
                Outgoing(target: .clients(to), message: .playback(view.player.state)),
                Outgoing(target: .framesFor(to), message: .frame(frame)),
                Outgoing(target: .clients(to), message: .series(view.player.seriesMessage), shareKey: "series \(view.player.load)")
            ]
        } ?? []
    }

    /// Changes page `id`'s own view (a page that was following leaves first, keeping the view
    /// it saw; a page sharing a view gets its own copy first) and tells its audience.
    mutating func changeView(of id: ConnectionID, _ change: (inout Player) -> Void) throws -> [Outgoing] {
        let left = leaveFollowing(id)
        guard let viewID = views.separate(withFollowers(id)) else { throw BridgeFailure(.invalid, "nothing is loaded: send load first") }
        views.modify(viewID) { change(&$0.player) }
        return left + playbackAndFrame(of: id)
    }

    /// `follow`: page `id` shows page `number`'s view from now on (whoever that page follows, it
    /// follows too), or its own again (nil), keeping what it saw.
    mutating func follow(page number: Int?, from id: ConnectionID) throws -> [Outgoing] {
        // Stopping is the person's own doing: no reason to tell them.
        guard let number else { return leaveFollowing(id, reason: nil) }
        guard var target = clients.first(where: { $0.value.page == number })?.key else {
            throw BridgeFailure(.notFound, "no page \(number) is open")
        }
        if let further = views.leaderOf[target] { target = further }
        guard target != id else { throw BridgeFailure(.invalid, "a page cannot follow itself") }
        // Those who followed this page now follow its leader.
        let to = views.follow(target, by: id)
        let page = clients[target]?.page ?? number
        var out = to.map { Outgoing(target: .client($0), message: .following(FollowingMessage(page: page, reason: nil))) }
        guard let viewID = views.viewOf[target] else { return out }
        out +=
            views.withFrames(viewID) { view, cache in
                // The frame the leader was last sent, under its number: the view's sequence goes on unbroken.
                [
                    Outgoing(target: .clients(to), message: .summary(view.player.summary)),
                    Outgoing(target: .clients(to), message: .playback(view.player.state)),
                    Outgoing(target: .framesFor(to), message: .frame(cache.repeated(of: &view.player))),
                    Outgoing(target: .clients(to), message: .series(view.player.seriesMessage), shareKey: "series \(view.player.load)")
                ]
            } ?? []
        return out
    }

    /// Page `id` stops following (if it was): its own view becomes a copy of the one it saw.
    mutating func leaveFollowing(_ id: ConnectionID, reason: String? = "you changed the view") -> [Outgoing] {
        guard views.leaderOf[id] != nil else { return [] }
        views.setLeader(nil, of: id)
        views.separate([id])
        return [Outgoing(target: .client(id), message: .following(FollowingMessage(page: nil, reason: reason)))]
    }

    /// The `playback` and the frame at the playhead of page `id`'s view, to its audience.
    mutating func playbackAndFrame(of id: ConnectionID) -> [Outgoing] {
        guard let viewID = views.viewOf[id] else { return [] }
        return views.withFrames(viewID) { view, cache in
            let frame = cache.message(of: &view.player)
            return [
                Outgoing(target: .clients(view.members), message: .playback(view.player.state)),
                Outgoing(target: .framesFor(view.members), message: .frame(frame))
            ]
        } ?? []
    }

    /// `visible`: page `id` went to the background (its view waits, unless a page following it
    /// is shown) or came back (the frame at its playhead, so its stage is current at once).
    mutating func setVisible(_ visible: Bool, of id: ConnectionID) -> [Outgoing] {
        let following = views.leaderOf[id] != nil
        // A page sharing a view by agreement takes its own before it waits; a follower goes on
        // seeing its leader's view.
        if !visible, !following { views.separate(withFollowers(id)) }
        views.setHidden(id, !visible)
        guard visible, !following else { return [] }
        return playbackAndFrame(of: id)
    }

    // MARK: Time

    /// Benchmark only (`pantrace serve --bench-frame-rate`): one frame per call for every
    /// playing view, cycling through the replay without the loop pause; the runtime calls it
    /// at the benchmark rate instead of ``tick(now:)``.
    mutating func benchmarkTick(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        var out: [Outgoing] = []
        for viewID in views.tickingViews {
            views.withFrames(viewID) { view, cache in
                guard let index = view.player.advanceOneFrame() else { return }
                out.append(Outgoing(target: .framesFor(view.members), message: .frame(cache.message(at: index, of: &view.player))))
            }
        }
        return out
    }

    /// Advances every playing view to `now`; returns the frames to show, one per view and frame
    /// for all of its pages. Views only watch-only pages see make frames within the
    /// ``FrameBudget``; every view advances.
    mutating func tick(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        guard let last = lastTick else { return [] }
        let ticking = views.tickingViews
        let shows = frameBudget.framing(ticking) { viewID in
            views.views[viewID]?.members.contains { clients[$0]?.canControl == true } == true
        }
        var out: [Outgoing] = []
        for viewID in ticking {
            views.withFrames(viewID) { view, cache in
                let to = view.members
                var indices = view.player.advance(by: now - last)
                // Out of this tick's window: no frame, but the replay's end, which stays on the page.
                if !shows.contains(viewID) { indices = indices.last == view.player.replayer.frameCount - 1 ? [indices[indices.count - 1]] : [] }
                for index in indices {
                    out.append(Outgoing(target: .framesFor(to), message: .frame(cache.message(at: index, of: &view.player))))
                }
                if !view.player.isPlaying { out.append(Outgoing(target: .clients(to), message: .playback(view.player.state))) }
            }
        }
        return out
    }
}

/// The views the pages are shown, and which page is shown which.
///
/// **One view, many pages, each its own.** Pages whose views agree are shown one view: the
/// pages on the first view that have not changed it, a page and those that chose to follow it,
/// the pages watching one live source with one setting. Each frame of a view is made once,
/// encoded once and the same bytes written to every page shown it, with one `seq` numbering
/// (docs/PROTOCOL.md §2: `seq` numbers the frames of one view). A page that changes anything
/// (loads, plays, seeks, goes to the background) leaves its view at once: it gets a copy of what
/// it saw, and its followers go with it, so nothing one page does reaches a page that did not
/// choose to follow it.
///
/// **A view waits while nobody sees it.** A page sees its view unless it is in the background
/// or it watches a live source whose gesture is under way (its stage shows that gesture, and
/// the release shows it a new view anyway): a view that no page sees does not move, so a replay
/// nobody looks at costs no frames.
///
/// A value state machine with no clock: the controller passes in what happened and reads back
/// who is shown what.
struct PageViews {
    typealias ViewID = Int

    /// One view and the pages shown it.
    struct View {
        var player: Player
        /// Every page shown this view, sorted: the pages its frames and changes go to.
        private(set) var members: [ConnectionID] = []
        /// Members that see it (``PageViews/sees(_:)``): while there are none, the view waits.
        private(set) var shownCount = 0

        init(player: Player) { self.player = player }

        /// Whether the view moves with time: it plays and a page sees it.
        var isTicking: Bool { player.isPlaying && shownCount > 0 }

        fileprivate mutating func insert(_ page: ConnectionID, sees: Bool) {
            let at = members.partitioningIndex { $0 >= page }
            guard at == members.endIndex || members[at] != page else { return }
            members.insert(page, at: at)
            if sees { shownCount += 1 }
        }

        fileprivate mutating func remove(_ page: ConnectionID, sees: Bool) {
            let at = members.partitioningIndex { $0 >= page }
            guard at < members.endIndex, members[at] == page else { return }
            members.remove(at: at)
            if sees { shownCount -= 1 }
        }

        fileprivate mutating func shownCountChanged(by delta: Int) { shownCount += delta }
    }

    /// The views by number; a view with no page is forgotten.
    private(set) var views: [ViewID: View] = [:]
    /// The view each page is shown (a page has none while the library is empty).
    private(set) var viewOf: [ConnectionID: ViewID] = [:]
    /// Pages in the background (``setHidden(_:_:)``).
    private(set) var hidden: Set<ConnectionID> = []
    /// The live source each page watches, if it chose one (``watch(_:source:)``).
    private(set) var watchingOf: [ConnectionID: Int] = [:]
    /// Live sources with a gesture under way (``setLive(_:_:)``).
    private(set) var liveSources: Set<Int> = []
    /// The page each page follows, if it chose to; and each page's followers.
    private(set) var leaderOf: [ConnectionID: ConnectionID] = [:]
    private var followersOf: [ConnectionID: Set<ConnectionID>] = [:]
    /// Frames already made, by load and index, shared by every view that shows them.
    private(set) var frames = FrameCache()
    /// The view new pages join while it is as the first view left it (nobody changed it).
    private(set) var firstViewID: ViewID?
    private var nextID: ViewID = 1

    /// The view page `page` is shown.
    func view(of page: ConnectionID) -> View? {
        viewOf[page].flatMap { views[$0] }
    }

    /// The player page `page` is shown.
    func player(of page: ConnectionID) -> Player? {
        guard let id = viewOf[page], let index = views.index(forKey: id) else { return nil }
        return views.values[index].player
    }

    /// Whether page `page` sees its view: it is not in the background and does not watch a
    /// gesture under way.
    func sees(_ page: ConnectionID) -> Bool {
        guard !hidden.contains(page) else { return false }
        guard let source = watchingOf[page] else { return true }
        return !liveSources.contains(source)
    }

    /// The pages watching live source `source` that are not in the background, sorted.
    func watchers(of source: Int) -> [ConnectionID] {
        watchingOf.compactMap { page, watched in watched == source && !hidden.contains(page) ? page : nil }.sorted()
    }

    /// The pages shown the same view as `page` (it among them), sorted: the audience of a
    /// change to that view.
    func audience(of page: ConnectionID) -> [ConnectionID] {
        guard let id = viewOf[page], let index = views.index(forKey: id) else { return [page] }
        return views.values[index].members
    }

    /// Whether some view moves with time.
    var wantsTicks: Bool { views.values.contains { $0.isTicking } }

    /// The views that move with time, in a fixed order.
    var tickingViews: [ViewID] { views.keys.filter { views[$0]?.isTicking == true }.sorted() }

    /// Changes view `id` in place with the frame cache at hand, for a change that makes frames.
    mutating func withFrames<R>(_ id: ViewID, _ change: (inout View, inout FrameCache) -> R) -> R? {
        guard let index = views.index(forKey: id) else { return nil }
        return change(&views.values[index], &frames)
    }

    /// Changes view `id` in place (no copy of its player).
    mutating func modify<R>(_ id: ViewID, _ change: (inout View) -> R) -> R? {
        guard let index = views.index(forKey: id) else { return nil }
        return change(&views.values[index])
    }

    // MARK: Who is shown what

    /// A new page is shown the first view: the one other pages share while nobody changed it,
    /// else a new one made from `template` (nil: no view, the library is empty).
    mutating func open(_ page: ConnectionID, template: Player?) {
        if let first = firstViewID, views[first] != nil {
            move([page], to: first)
        } else if let template {
            firstViewID = add(template, for: [page])
        }
    }

    /// Page `page` is gone; returns the pages that followed it, which keep what they saw as
    /// their own view and follow nobody now.
    mutating func close(_ page: ConnectionID) -> [ConnectionID] {
        setLeader(nil, of: page)
        let released = (followersOf.removeValue(forKey: page) ?? []).sorted()
        for follower in released { leaderOf[follower] = nil }
        detach([page])
        hidden.remove(page)
        watchingOf[page] = nil
        return released
    }

    // MARK: Following

    /// Page `page` and the pages that follow it, sorted: what moves together when it changes.
    func withFollowers(_ page: ConnectionID) -> [ConnectionID] {
        guard let following = followersOf[page], !following.isEmpty else { return [page] }
        return [page] + following.sorted()
    }

    /// Page `page` follows `leader` from now on (nil: nobody). Who is shown what is unchanged:
    /// the caller moves the pages (``move(_:to:)``, ``separate(_:)``).
    mutating func setLeader(_ leader: ConnectionID?, of page: ConnectionID) {
        if let old = leaderOf[page] { followersOf[old]?.remove(page) }
        leaderOf[page] = leader
        if let leader { followersOf[leader, default: []].insert(page) }
    }

    /// `page` follows `leader`, and so do the pages that followed `page`; returns them (sorted,
    /// `page` first), now shown `leader`'s view.
    mutating func follow(_ leader: ConnectionID, by page: ConnectionID) -> [ConnectionID] {
        let mine = (followersOf.removeValue(forKey: page) ?? []).sorted()
        for follower in mine { setLeader(leader, of: follower) }
        setLeader(leader, of: page)
        let moving = [page] + mine
        if let id = viewOf[leader] { move(moving, to: id) }
        return moving
    }

    /// Shows `pages` a new view of `player` (each leaves the view it had); returns its number.
    @discardableResult
    mutating func add(_ player: Player, for pages: [ConnectionID]) -> ViewID {
        let id = nextID
        nextID += 1
        views[id] = View(player: player)
        move(pages, to: id)
        return id
    }

    /// Shows `pages` view `id`, as it is now (a page already shown it stays).
    mutating func move(_ pages: [ConnectionID], to id: ViewID) {
        guard views[id] != nil else { return }
        for page in pages where viewOf[page] != id {
            detach([page])
            viewOf[page] = id
            let seesIt = sees(page)
            views[id]?.insert(page, sees: seesIt)
        }
    }

    /// `pages` (a page and those that follow it) get a view of their own, a copy of the one they
    /// are shown, unless they are its only pages and it is not the first view new pages join:
    /// then it is theirs already. Returns the view they are now shown (nil: they had none).
    @discardableResult
    mutating func separate(_ pages: [ConnectionID]) -> ViewID? {
        guard let page = pages.first, let id = viewOf[page], let view = views[id] else { return nil }
        let others = view.members.filter { !pages.contains($0) }
        if others.isEmpty, id != firstViewID { return id }
        if others.isEmpty { firstViewID = nil }  // changed by its only page: no longer the first view
        return others.isEmpty ? id : add(view.player, for: pages)
    }

    /// Page `page` goes to the background or comes back.
    mutating func setHidden(_ page: ConnectionID, _ isHidden: Bool) {
        updatingSight(of: [page]) { views in
            if isHidden { views.hidden.insert(page) } else { views.hidden.remove(page) }
        }
    }

    // MARK: Live sources

    /// Page `page` watches live source `source` from now on (nil: none).
    mutating func watch(_ page: ConnectionID, source: Int?) {
        updatingSight(of: [page]) { $0.watchingOf[page] = source }
    }

    /// Live source `source`'s gesture began (`true`) or ended: the views of the pages watching
    /// it wait meanwhile.
    mutating func setLive(_ source: Int, _ isLive: Bool) {
        let watching = watchingOf.compactMap { $0.value == source ? $0.key : nil }
        updatingSight(of: watching) { views in
            if isLive { views.liveSources.insert(source) } else { views.liveSources.remove(source) }
        }
    }

    /// Source `old` came back as `new` (a device that reconnected): its pages watch `new`.
    mutating func renumberSource(_ old: Int, to new: Int) {
        let watching = watchingOf.compactMap { $0.value == old ? $0.key : nil }
        updatingSight(of: watching) { views in
            for page in watching { views.watchingOf[page] = new }
            if views.liveSources.remove(old) != nil { views.liveSources.insert(new) }
        }
    }

    /// Makes `change`, keeping each view's count of the pages that see it true for `pages`
    /// (the pages whose sight the change may turn).
    private mutating func updatingSight(of pages: [ConnectionID], _ change: (inout Self) -> Void) {
        let before = pages.map(sees)
        change(&self)
        for (page, saw) in zip(pages, before) {
            let seesNow = sees(page)
            guard seesNow != saw, let id = viewOf[page] else { continue }
            views[id]?.shownCountChanged(by: seesNow ? 1 : -1)
        }
    }

    /// `pages` leave whatever view they are shown; a view left with no page is forgotten.
    private mutating func detach(_ pages: [ConnectionID]) {
        for page in pages {
            guard let id = viewOf.removeValue(forKey: page) else { continue }
            let sawIt = sees(page)
            views[id]?.remove(page, sees: sawIt)
            if views[id]?.members.isEmpty == true {
                views[id] = nil
                if firstViewID == id { firstViewID = nil }
            }
        }
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate that is false and
    /// then true along the array (a binary search).
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

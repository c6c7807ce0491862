internal import Foundation
internal import PanCapture
internal import PanLiveWire
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// A live source: a device that streams its pan recognizer's samples (docs/PROTOCOL.md §4).
///
/// Its samples go through one ``TraceRecorder``, the recorder an app embeds, so each gesture
/// is written under `live/` as it happens (a chunk at least every 100 ms of gesture time) and
/// a crash or a cut connection loses less than 100 ms. The same samples drive its
/// ``LiveGesture``, as the record pad's do, so every page watching sees the gesture through its
/// own setting.
struct DeviceSource {
    /// The number pages know it by ("source 2").
    let number: Int
    let announce: SourceAnnounce
    /// Its connection while connected.
    var connection: ConnectionID?
    /// The highest sample `seq` taken from this session.
    var received: Int64 = 0
    /// Samples the client says it dropped.
    var dropped = 0
    let recorder: TraceRecorder
    let liveFolder: String
    /// The gesture in progress, if one is.
    var gesture: LiveGesture?
    /// Unsaved gestures from this source, library ids, oldest first.
    var unsaved: [String] = []
    /// Samples it may send.
    var samples: TokenBucket
    var throttle = Throttle()

    var isLive: Bool { recorder.isRecordingGesture }

    var info: SourceInfo {
        SourceInfo(
            source: number, name: announce.name, platform: announce.platform, screen: announce.screen, scale: announce.scale,
            connected: connection != nil, live: isLive, gestures: unsaved.count, dropped: dropped)
    }

    func status(_ state: String, of gesture: LiveGesture, file: String) -> DeviceGestureStatus {
        DeviceGestureStatus(
            source: number, file: file, state: state, samples: gesture.sampleCount, durationSeconds: gesture.duration, intent: .unknown)
    }
}

/// A live source's connection: it has not named itself yet (connected at `since`), or it
/// speaks for a session.
enum SourceConnection: Equatable {
    case unnamed(since: Double)
    case named(String)

    var isNamed: Bool { if case .named = self { true } else { false } }
}

extension BridgeController {
    /// Samples a source may send per second (sustained), in one burst, and in one message.
    static let sourceSampleRate = 1000.0
    static let sourceSampleBurst = 2000.0
    static let sourceBatchLimit = 64
    /// Files in one `keep` or `drop`.
    static let keepFileLimit = 500
    /// The sources pages may watch, by number.
    var sourcesMessage: SourcesMessage { sources.message }

    /// The sources list to every page, now (a join, a leave, a gesture's end, a keep or drop):
    /// no change that samples made waits after it (``LiveSources/listBroadcast()``).
    mutating func sourcesBroadcast() -> Outgoing {
        sources.listBroadcast()
        return Outgoing(target: .everyone, message: .sources(sourcesMessage))
    }

    /// The same device in a new session (`pantrace live` run again, an app relaunched): a
    /// disconnected source with the same name, platform, screen and scale is this one. The new
    /// source takes its unsaved gestures and the pages watching it, and its row goes, so a page
    /// sees one row per device and its watch follows the device.
    private mutating func takeOver(from announce: SourceAnnounce, into source: inout DeviceSource) {
        guard let (session, old) = sources.disconnected(sameDeviceAs: announce) else { return }
        source.unsaved = old.unsaved
        sources[session] = nil
        views.renumberSource(old.number, to: source.number)
        pendingLog.append("source \(source.number) is source \(old.number) again (\(LogText.escaped(announce.label, limit: 100)))")
    }

    /// A message from a source's connection: `source` first, then `samples`.
    mutating func receiveFromSource(_ bytes: [UInt8], from id: ConnectionID, now: Double) -> [Outgoing] {
        let message: ClientMessage
        do {
            message = try JSONDecoder().decode(ClientMessage.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            return reply(BridgeFailure(.badJSON, "not JSON: \(context.debugDescription)"), to: id)
        } catch {
            return reply(BridgeFailure(.badMessage, "not a valid message: \(DecodingProblem.describe(error))"), to: id)
        }
        do {
            switch message {
            case .source(let announce):
                return try announceSource(announce.validated(), from: id, now: now)
            case .samples(let batch):
                guard case .named(let session) = sources.connection(id) else {
                    throw BridgeFailure(.invalid, "a source's first message must be source (its name and screen)")
                }
                return try take(batch, from: session, connection: id, now: now)
            default:
                throw BridgeFailure(.badMessage, "a live source sends source and samples only, not \(message.type)")
            }
        } catch let failure as BridgeFailure {
            return reply(failure, to: id, replyingTo: message.type)
        } catch {
            return reply(BridgeFailure(.invalid, "\(error)"), to: id, replyingTo: message.type)
        }
    }

    private mutating func announceSource(_ announce: SourceAnnounce, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        guard let connection = sources.connection(id), !connection.isNamed else {
            throw BridgeFailure(.invalid, "this source has already named itself; reconnect to start another session")
        }
        if var known = sources[announce.session] {
            // The same session again (the network dropped): the client resends from `received`.
            if let old = known.connection, old != id {
                throw BridgeFailure(.busy, "session \(announce.session) is connected already", retryAfter: 1)
            }
            guard known.announce.screen == announce.screen, known.announce.scale == announce.scale else {
                throw BridgeFailure(.invalid, "session \(announce.session) was announced with another screen; use a new session")
            }
            known.connection = id
            sources[announce.session] = known
        } else {
            guard sources.count < LiveSources.limit else {
                throw BridgeFailure(
                    .busy, "\(LiveSources.limit) sources are known to this server; save or discard their gestures first", retryAfter: 5)
            }
            do {
                try LiveFolder.prepare(liveFolder, inside: library.folder)
            } catch {
                throw BridgeFailure(.failed, "\(error)")
            }
            let created = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: wallClock))
            let number = sources.takeNumber()
            let stem = "unsaved-\(announce.platform)-\(number)-\(created.filter { $0.isNumber })"
            var metadata = TraceMetadata(
                id: "", created: created, source: announce.platform,
                screen: ScreenGeometry(width: announce.screen.width, height: announce.screen.height, scale: announce.scale),
                edge: announce.edge)
            metadata.velocityOrigin = announce.velocity ?? VelocitySource.recorded.rawValue
            let recorder = TraceRecorder(destination: RecordingDestination(folder: liveFolder, stem: stem), metadata: metadata)
            // TraceRecorder says `recorded`; a log streamed by `pantrace live` names its estimator.
            recorder.metadata.velocityOrigin = metadata.velocityOrigin
            var source = DeviceSource(
                number: number, announce: announce, connection: id, recorder: recorder, liveFolder: liveFolder,
                samples: TokenBucket(rate: Self.sourceSampleRate, burst: Self.sourceSampleBurst))
            takeOver(from: announce, into: &source)
            sources[announce.session] = source
        }
        sources.named(id, session: announce.session)
        guard let source = sources[announce.session] else { return [] }
        pendingLog.append("source \(source.number) joined: \(LogText.escaped(announce.label, limit: 100))")
        let ready = SourceReady(
            source: source.number, session: announce.session, received: source.received, maxBatch: Self.sourceBatchLimit,
            rate: Int(Self.sourceSampleRate), burst: Int(Self.sourceSampleBurst))
        return [
            Outgoing(target: .client(id), message: .sourceReady(ready)),
            sourcesBroadcast()
        ]
    }

    /// One `samples` message: each sample in order; a bad one ends the message (those before
    /// it are kept) with an error naming its `seq` and field.
    private mutating func take(_ batch: SampleBatch, from session: String, connection id: ConnectionID, now: Double) throws -> [Outgoing] {
        guard batch.samples.count <= Self.sourceBatchLimit else {
            throw BridgeFailure(.invalid, "\(batch.samples.count) samples in one message; at most \(Self.sourceBatchLimit)")
        }
        // Taken out while it changes (its preview's storage is not shared), put back at the end.
        guard var source = sources.take(session) else {
            throw BridgeFailure(.invalid, "a source's first message must be source (its name and screen)")
        }
        defer { sources[session] = source }
        var out: [Outgoing] = []
        var failure: BridgeFailure?
        // What the list shows changed (a count of drops, a gesture began): broadcast once for
        // the message at most, and paced for all sources (``LiveSources/listChanged(now:)``).
        var listChanged = false
        if let dropped = batch.dropped, dropped >= 0, dropped != source.dropped {
            source.dropped = dropped
            listChanged = true
        }
        var rateLimited = 0
        for sample in batch.samples {
            guard sample.seq > source.received else { continue }  // a resend: taken already
            guard source.samples.take(now: now) == nil else {
                rateLimited += 1
                source.received = sample.seq
                continue
            }
            source.received = sample.seq
            do {
                out += try record(sample, of: &source, now: now, listChanged: &listChanged)
            } catch let refused as BridgeFailure {
                failure = refused
                break
            }
        }
        if listChanged ? sources.listChanged(now: now) : sources.staleListDue(now: now) {
            out.append(Outgoing(target: .everyone, message: .sources(sourcesMessageWith(source))))
        }
        out.append(Outgoing(target: .client(id), message: .ack(SampleAck(received: source.received))))
        if rateLimited > 0, source.throttle.allows("rate", now: now) {
            out += reply(
                BridgeFailure(
                    .rateLimited, "more than \(Int(Self.sourceSampleRate)) samples a second; \(rateLimited) were dropped",
                    retryAfter: 1), to: id, replyingTo: "samples")
        }
        // What a flood repeats (a refused gesture, a full disk, a full live folder) is said at
        // most once a second for each kind: a stream of `began` gets one line, not one a message.
        if let failure, ![.rateLimited, .failed, .busy].contains(failure.code) || source.throttle.allows(failure.code.rawValue, now: now) {
            out += reply(failure, to: id, replyingTo: "samples")
        }
        return out
    }

    private func sourcesMessageWith(_ changed: DeviceSource) -> SourcesMessage {
        var all = sources
        all[changed.announce.session] = changed
        return all.message
    }

    /// Records one sample and returns what pages are told; `listChanged` is set when the
    /// sources list shows something new (a gesture began).
    private mutating func record(_ sample: SourceSample, of source: inout DeviceSource, now: Double, listChanged: inout Bool) throws
        -> [Outgoing]
    {
        if let problem = sample.problem() { throw BridgeFailure(.invalid, "sample \(sample.seq): \(problem)") }
        guard let state = TraceRecorder.State(wireName: sample.state) else {
            throw BridgeFailure(
                .invalid, "sample \(sample.seq): state \"\(WireText.cut(sample.state, toBytes: 32))\" is not one of \(LiveWire.sampleStates)")
        }
        if state != .began, source.isLive, let gesture = source.gesture, gesture.span(to: sample.t) > ValueLimits.replaySpan {
            throw BridgeFailure(.invalid, "sample \(sample.seq): t is more than \(Int(ValueLimits.replaySpan)) s from the gesture's first sample")
        }
        var out: [Outgoing] = []
        let wasLive = source.isLive
        if state == .began, wasLive {
            // A began without an end before it: the previous gesture is kept as it stands.
            out += endGesture(of: &source, state: "incomplete", now: now)
        }
        if state == .began {
            // Every source shares the live folder and its budget: a gesture is a file.
            let budget = LiveFolder.budget(maximumRecordings: configuration.maximumRecordings)
            let held = library.liveCount
            guard held < budget else {
                throw BridgeFailure(
                    .busy, "sample \(sample.seq): the live folder holds \(held) recordings (at most \(budget)); keep or drop some first",
                    retryAfter: 5)
            }
            if let wait = sources.takeGesture(now: now) {
                throw BridgeFailure(
                    .rateLimited,
                    "sample \(sample.seq): more than \(Int(LiveSources.gestureRate)) gestures a second from all sources; this one is not recorded",
                    retryAfter: wait)
            }
        }
        let location = sample.lx.map { PanVector(x: $0, y: sample.ly ?? 0) }
        let finished: RecordedGesture?
        do {
            finished = try source.recorder.record(
                state: state, translation: PanVector(x: sample.tx, y: sample.ty), velocity: PanVector(x: sample.vx, y: sample.vy),
                location: location, touches: sample.touches, timestamp: sample.t)
        } catch {
            // The recorder kept every sample before this one and closed the file. A storage
            // failure (a full disk) is the server's, `failed`; a bad value is the sample's.
            out += endGesture(of: &source, state: "incomplete", now: now)
            throw BridgeFailure(error.isStorageFailure ? .failed : .invalid, "sample \(sample.seq): \(error)")
        }
        let phase: PanTrace.GesturePhase
        switch state {
        case .began:
            guard let path = source.recorder.currentGesturePath else { return out }
            source.gesture = LiveGesture(
                source: source.number, screen: Size(width: source.announce.screen.width, height: source.announce.screen.height),
                file: libraryID(of: path))
            // The watchers' stages show the gesture: the views they had wait until its release.
            views.setLive(source.number, true)
            phase = .began
        case .changed:
            guard source.isLive else { return out }
            phase = .changed
        case .ended, .cancelled:
            guard finished != nil, source.gesture != nil else { return out }
            phase = state == .ended ? .ended : .cancelled
        case .failed:
            if wasLive { out += endGesture(of: &source, state: "incomplete", now: now) }
            return out
        case .possible:
            return out
        }
        // The same sample the recorder wrote, read through every watching setting.
        source.gesture?.add(
            PanSample(
                time: sample.t, phase: phase, translation: PanVector(x: sample.tx, y: sample.ty), velocity: PanVector(x: sample.vx, y: sample.vy)))
        out += liveFrames(of: &source)
        if phase == .ended || phase == .cancelled { return out + endGesture(of: &source, state: "released", now: now) }
        // In place: a copy of the gesture would share its samples' storage, and the next sample
        // would copy every one so far.
        if let file = source.gesture?.file, state == .began || source.gesture?.isStatusDue(now: now) == true {
            source.gesture?.saidStatus(at: now)
            if let status = source.gesture.map({ source.status("capturing", of: $0, file: file) }) {
                out.append(Outgoing(target: .everyone, message: .deviceGesture(status)))
            }
            if state == .began { listChanged = true }
        }
        return out
    }

    /// The gesture is over (released, or cut): listed as unsaved, the pages told, and the pages
    /// watching the source are shown it, each with its own setting.
    private mutating func endGesture(of source: inout DeviceSource, state: String, now: Double) -> [Outgoing] {
        views.setLive(source.number, false)  // the watchers' views move again
        guard let gesture = source.gesture.take(), let file = gesture.file else { return [] }
        if state != "released" { _ = try? source.recorder.interrupt() }  // keeps every complete chunk
        // Too short to be a gesture (LiveSources.minimumSamples): its file goes, unlisted. A file
        // that cannot be removed is kept as any gesture is, so nothing is left unlisted.
        if gesture.sampleCount < LiveSources.minimumSamples, (try? FileManager.default.removeItem(atPath: library.folder + "/" + file)) != nil {
            var out = [Outgoing(target: .everyone, message: .deviceGesture(source.status("discarded", of: gesture, file: file)))]
            if library.contains(file) {
                rescanLibrary()
                out.append(libraryBroadcast())
            }
            sources[source.announce.session] = source
            if sources.listChanged(now: now) { out.append(Outgoing(target: .everyone, message: .sources(sourcesMessage))) }
            return out
        }
        let status = source.status(state, of: gesture, file: file)
        rescanLibrary()
        var out = [Outgoing(target: .everyone, message: .deviceGesture(status))]
        if library.contains(file) { source.unsaved.append(file) }
        // Listed as this source's (the library names the device) before the pages are told.
        sources[source.announce.session] = source
        out.append(sourcesBroadcast())
        out.append(libraryBroadcast())
        guard state == "released", library.contains(file) else { return out }
        var bySetting: [Setting: [ConnectionID]] = [:]
        for id in watchers(of: source.number) { bySetting[watchSetting(of: id), default: []].append(id) }
        return out + showReleased(file, to: bySetting.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// A live gesture was released (the pad's or a device's): each group of pages is shown one
    /// view of its file with the group's setting (pages that agree share it, its frames made
    /// and encoded once for all of them), so each sees the decision and the completion.
    mutating func showReleased(_ file: String, to groups: [(Setting, [ConnectionID])], inReplyTo type: String? = nil) -> [Outgoing] {
        var out: [Outgoing] = []
        for (setting, pages) in groups {
            for id in pages { out += leaveFollowing(id) }
            do {
                out += try load(LoadRequest(recording: file, setting: setting), for: pages)
            } catch {
                // The gesture is kept either way; say why it is not shown.
                let message = (error as? BridgeFailure)?.message ?? "\(error)"
                for id in pages {
                    out += reply(BridgeFailure(.invalid, "the gesture was recorded, but cannot replay it: \(message)"), to: id, replyingTo: type)
                }
            }
        }
        return out
    }

    /// The pages watching source `number` that are not in the background.
    func watchers(of number: Int) -> [ConnectionID] { views.watchers(of: number) }

    /// The preset and parameters page `id` watches with: its own view's, else the first view's.
    func watchSetting(of id: ConnectionID) -> Setting {
        views.player(of: id)?.setting ?? Setting(preset: firstView?.state.preset ?? "swipe-back")
    }

    /// The frame of the latest sample for every page watching: one per distinct setting.
    private mutating func liveFrames(of source: inout DeviceSource) -> [Outgoing] {
        // Taken out while it changes (its transitions are not copied), put back at the end.
        guard var gesture = source.gesture.take() else { return [] }
        defer { source.gesture = gesture }
        let fallback = Setting(preset: firstView?.state.preset ?? "swipe-back")
        return liveFrames(of: &gesture, to: watchers(of: source.number), fallback: fallback)
    }

    /// The frame of a live gesture's latest sample (the pad's or a device's) for `pages`: one
    /// frame per distinct setting among the views they are shown, made once and sent to every
    /// page with that setting; a page with no view reads it with `fallback`.
    mutating func liveFrames(of gesture: inout LiveGesture, to pages: [ConnectionID], fallback: Setting?) -> [Outgoing] {
        // Pages by the view they are shown, then the views by setting: one look at each view.
        var byView: [PageViews.ViewID: [ConnectionID]] = [:]
        var withoutView: [ConnectionID] = []
        for id in pages {
            if let viewID = views.viewOf[id] { byView[viewID, default: []].append(id) } else { withoutView.append(id) }
        }
        // Pages whose settings resolve alike share one frame; groups in the order of their
        // settings, so every run sends the same messages in the same order.
        var bySetting: [ReplayParameters: (order: Setting, pages: [ConnectionID])] = [:]
        for (viewID, ids) in byView {
            guard let (setting, parameters) = views.modify(viewID, { ($0.player.setting, $0.player.configuration.parameters) }) else { continue }
            let group = bySetting[parameters, default: (setting, [])]
            bySetting[parameters] = (min(group.order, setting), group.pages + ids)
        }
        if !withoutView.isEmpty, let fallback, let parameters = try? ReplayParameters(fallback) {
            bySetting[parameters, default: (fallback, [])].pages += withoutView
        }
        var out: [Outgoing] = []
        for (parameters, entry) in bySetting.sorted(by: { $0.value.order < $1.value.order }) {
            let group = entry.pages
            guard let (frame, ifReleased) = gesture.frame(for: parameters) else { continue }
            var message = FrameMessage(seq: nextFrameSequence(), load: -1, emittedMicroseconds: 0, recording: gesture.file ?? "", frame: frame)
            message.source = gesture.source
            message.ifReleased = ifReleased
            out.append(Outgoing(target: .framesFor(group.sorted()), message: .frame(message)))
        }
        return out
    }

    /// `recordings` with each unsaved device gesture naming the device that made it.
    func withDevices(_ recordings: ArraySlice<RecordingInfo>) -> [RecordingInfo] {
        let byFile = sources.devicesOfFiles
        return recordings.map { entry in
            var entry = entry
            if let device = byFile[entry.id] {
                entry.device = device
            } else if isLeftUnsaved(entry.id) {
                entry.device = DeviceOfFile(source: nil, name: "\(entry.source) device, an earlier run")
            }
            return entry
        }
    }

    /// The library id (path under the recordings folder) of a file under it.
    func libraryID(of path: String) -> String {
        let root = library.folder.hasSuffix("/") ? library.folder : library.folder + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// `watch`: page `id` watches source `number` (nil: stops).
    mutating func watch(source number: Int?, from id: ConnectionID) throws -> [Outgoing] {
        if let number, !sources.contains(number: number) {
            throw BridgeFailure(.notFound, "no source \(number); the sources are listed in sources")
        }
        views.watch(id, source: number)
        return [Outgoing(target: .client(id), message: .sources(sourcesMessage))]
    }

    /// A source's connection closed: a gesture in progress is kept, marked incomplete.
    mutating func sourceClosed(_ id: ConnectionID, now: Double) -> [Outgoing] {
        guard let session = sources.closed(id), var source = sources[session] else { return [] }
        var out: [Outgoing] = []
        if source.isLive { out += endGesture(of: &source, state: "incomplete", now: now) }
        source.connection = nil
        pendingLog.append("source \(source.number) left")
        if source.unsaved.isEmpty {
            sources[session] = nil
        } else {
            sources[session] = source
        }
        return out + [sourcesBroadcast()]
    }

    /// Shutdown: every gesture in progress is closed with what it has (incomplete).
    mutating func finaliseSources() {
        sources.finaliseAll()
    }

    /// The source (by session) that holds `file` unsaved.
    private func owner(ofUnsaved file: String) -> String? {
        sources.owner(ofUnsaved: file)
    }

    /// Whether `file` is an unsaved device gesture no source of this run knows: one left by an
    /// earlier run of the server (`live/unsaved-<platform>-<source>-…`), not being written.
    func isLeftUnsaved(_ file: String) -> Bool {
        guard LiveFolder.isUnsavedDeviceName(file, platforms: LiveWire.platforms), library.contains(file) else { return false }
        return !sources.isWriting(file)
    }

    private func checkedFiles(_ files: [String]) throws -> [(session: String?, file: String)] {
        guard !files.isEmpty else { throw BridgeFailure(.invalid, "files is empty: name the unsaved device gestures") }
        guard files.count <= Self.keepFileLimit else {
            throw BridgeFailure(.invalid, "\(files.count) files in one message; at most \(Self.keepFileLimit)")
        }
        var seen = Set<String>()
        var found: [(String?, String)] = []
        for file in files where seen.insert(file).inserted {
            // A gesture inside a corpus file is never edited: keep and drop rename, rewrite or
            // delete whole files, and the corpus's other gestures share its file.
            if let location = library.corpusLocation(of: file) {
                throw BridgeFailure(
                    .invalid,
                    "\"\(WireText.cut(file, toBytes: 200))\" is a gesture inside the corpus file \(WireText.cut(location.corpus, toBytes: 200)); "
                        + "gestures in a corpus cannot be kept, relabelled or dropped here (convert it into a folder to edit them); nothing was changed"
                )
            }
            if let session = owner(ofUnsaved: file) {
                found.append((session, file))
            } else if isLeftUnsaved(file) {
                found.append((nil, file))
            } else {
                throw BridgeFailure(.notFound, "\"\(WireText.cut(file, toBytes: 200))\" is not an unsaved device gesture; nothing was changed")
            }
        }
        return found
    }

    /// `keep`: label and save each file as `live/<name>-N.pantrace`.
    mutating func keep(_ request: KeepRequest, from id: ConnectionID) throws -> [Outgoing] {
        let files = try checkedFiles(request.files)
        var moved: [KeptMessage.Moved] = []
        var failure: BridgeFailure?
        for (session, file) in files {
            let sourceName = session.flatMap { sources[$0]?.announce.name } ?? "device"
            let stem = RecordingDestination.sanitized(request.name ?? sourceName)
            let destination = RecordingDestination(folder: liveFolder, stem: stem, skipsExistingNames: true)
            let path = library.folder + "/" + file
            do {
                let read = try TraceReader(configuration: .init(isStrict: false)).read(contentsOf: path)
                var trace = read.trace
                trace.metadata.intent = request.intent ?? .unknown
                // A gesture cut by a disconnect is kept as it was, and says so.
                if !read.isComplete, !trace.metadata.tags.contains("incomplete") { trace.metadata.tags.append("incomplete") }
                let saved = try destination.writeNext(trace)
                try? FileManager.default.removeItem(atPath: path)  // cleanup: the saved copy exists
                moved.append(.init(from: file, to: libraryID(of: saved)))
                if let session { sources[session]?.unsaved.removeAll { $0 == file } }
            } catch {
                failure = BridgeFailure(.failed, "could not keep \(file): \(error); \(moved.count) kept before it")
                break
            }
        }
        forgetFinishedSources()
        rescanLibrary()
        var out = [
            Outgoing(target: .client(id), message: .kept(KeptMessage(files: moved))), libraryBroadcast(),
            sourcesBroadcast()
        ]
        out += showKept(moved)
        if let failure { out += reply(failure, to: id, replyingTo: "keep") }
        return out
    }

    /// Views that showed a gesture just kept now show the kept file (its name, its label), at
    /// the same time, with the setting they had, to the same pages.
    private mutating func showKept(_ moved: [KeptMessage.Moved]) -> [Outgoing] {
        var out: [Outgoing] = []
        for move in moved {
            for viewID in views.views.keys.sorted() {
                guard let shown = views.modify(viewID, { $0.player }), shown.recording == move.from else { continue }
                let request = LoadRequest(recording: move.to, setting: shown.setting)
                let time = shown.state.time
                let wasPlaying = shown.isPlaying
                do {
                    var kept = try player(for: request)
                    kept.speed = shown.speed
                    kept.loops = shown.loops
                    kept.sequence = shown.sequence
                    kept.seek(to: time)
                    kept.isPlaying = wasPlaying
                    views.modify(viewID) { $0.player = kept }
                    out += reloaded(viewID)
                } catch {
                    continue  // the kept file is in the library either way; the view stays as it was
                }
            }
        }
        return out
    }

    /// `drop`: delete each file.
    mutating func dropUnsaved(_ files: [String], from id: ConnectionID) throws -> [Outgoing] {
        let found = try checkedFiles(files)
        for (session, file) in found {
            try? FileManager.default.removeItem(atPath: library.folder + "/" + file)  // asked for: gone either way
            if let session { sources[session]?.unsaved.removeAll { $0 == file } }
        }
        forgetFinishedSources()
        rescanLibrary()
        return [
            Outgoing(target: .client(id), message: .dropped(DroppedMessage(files: found.map(\.file)))), libraryBroadcast(),
            sourcesBroadcast()
        ]
    }

    /// Disconnected sources with nothing left unsaved are no longer listed.
    private mutating func forgetFinishedSources() { sources.forgetFinished() }
}

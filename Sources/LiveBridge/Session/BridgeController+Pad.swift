internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// The gesture on the record pad, as every page reads it: one transition per distinct setting
/// (preset and parameters) among the pages, each fed every sample so far, so a page sees the
/// finger move its own stage under its own sliders.
struct LivePreview {
    let screen: Size
    /// The samples so far (a setting that appears mid-gesture catches up on them).
    private(set) var inputs: [GestureInput] = []
    private var transitions: [String: InteractiveTransition] = [:]

    init(screen: Size) { self.screen = screen }

    /// Feeds `input` to every setting's transition.
    mutating func add(_ input: GestureInput) {
        inputs.append(input)
        for index in transitions.indices { _ = transitions.values[index].handle(input) }
    }

    /// The frame at the latest sample under `parameters`, keyed by `key`, and while the finger
    /// is down what that setting would decide if it lifted now.
    mutating func frame(for key: String, parameters: ReplayParameters) -> (FrameState, RecordingStatus.IfReleased?)? {
        guard let last = inputs.last else { return nil }
        if transitions[key] == nil {
            var transition = InteractiveTransition(preset: parameters.preset, screen: screen)
            for input in inputs { _ = transition.handle(input) }
            transitions[key] = transition
        }
        // Read in place through the values view (`transitions[key]!` would copy the transition).
        guard let index = transitions.index(forKey: key) else { return nil }
        let frame = transitions.values[index].frameState(at: last.time)
        let down = last.phase == .began || last.phase == .changed
        return (frame, down ? LiveSession.decision(ifLiftedAt: last, of: transitions.values[index]) : nil)
    }
}

// The record pad: one page holds it while a gesture is armed or captured; each page keeps its
// own recording after the release, to label, save or discard.
extension BridgeController {
    var liveFolder: String { library.folder + "/live" }

    /// `record`: page `id` arms the pad with its own preset and parameters (or those given).
    mutating func arm(_ request: RecordRequest, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        var out: [Outgoing] = []
        if let holder = padHolder, holder != id, let held = clients[holder]?.session {
            let idle = !held.hasEvents && now - held.armedAt >= Self.idlePadSeconds
            guard idle else {
                let seconds = Int(max(0, now - held.armedAt))
                throw BridgeFailure(
                    .busy,
                    "page \(held.page) holds the record pad (for \(seconds) s); it is free when that page lifts its finger, saves or discards",
                    retryAfter: 1)
            }
            // Armed and untouched for long: the pad is free again.
            clients[holder]?.session = nil
            padHolder = nil
            out.append(Outgoing(target: .everyone, message: .recording(Self.readyStatus(page: held.page, reason: "armed but unused"))))
        }
        if clients[id]?.session?.state == .capturing { clients[id]?.session?.finalise() }
        let shown = shownView(of: id)
        let presetName = request.preset ?? shown?.state.preset ?? "swipe-back"
        let overrides = request.parameters ?? (request.preset == nil ? shown?.parameters ?? [:] : [:])
        let parameters: ReplayParameters
        do {
            parameters = try ReplayParameters(presetNamed: presetName, overrides: overrides)
        } catch {
            throw BridgeFailure(.invalid, "\(error)")
        }
        do {
            try LiveFolder.prepare(liveFolder, inside: library.folder)
        } catch {
            throw BridgeFailure(.failed, "\(error)")
        }
        let date = Date(timeIntervalSince1970: wallClock)
        let created = ISO8601DateFormatter().string(from: date)
        let stamp = created.filter { $0.isNumber }
        if clients[id]?.beforeRecording == nil, let shown {
            clients[id]?.beforeRecording = LoadRequest(recording: shown.recording, preset: shown.state.preset, parameters: shown.parameters)
        }
        guard let page = clients[id]?.page else { return out }
        let session = LiveSession(
            owner: id, page: page, request: request, preset: parameters.preset, parameters: overrides, folder: liveFolder,
            created: created, stamp: stamp, now: now)
        clients[id]?.session = session
        padHolder = id
        livePreview = LivePreview(screen: Size(request.screen))
        return out + recordingStatus(of: id, now: now)
    }

    static func readyStatus(page: Int, reason: String) -> RecordingStatus {
        RecordingStatus(state: "ready", samples: 0, durationSeconds: 0, intent: .unknown, file: nil, id: nil, message: reason, page: page)
    }

    mutating func pointer(_ message: PointerMessage, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        guard padHolder == id, var active = clients[id]?.session else {
            if let holder = padHolder, let page = clients[holder]?.page {
                try throttled(
                    BridgeFailure(.busy, "page \(page) holds the record pad; the pad is free when that page has finished", retryAfter: 1),
                    for: id, now: now)
            } else {
                try throttled(BridgeFailure(.invalid, "the pad is not armed on this page: press on the pad to start a recording"), for: id, now: now)
            }
            return []
        }
        // The session is taken out while it changes, so its transition's storage is not shared
        // with the copy left behind (a copy of every sample so far on each event).
        clients[id]?.session = nil
        let before = active.state
        let step: LiveSession.Step
        do {
            step = try active.handle(message)
        } catch let failure as BridgeFailure {
            clients[id]?.session = active  // a write failure ends the recording (state `failed`)
            if active.state == .failed {
                padHolder = nil
                livePreview = nil
                // Said once a second at most: every later pad event would fail the same way.
                try throttled(failure, for: id, now: now)
                return recordingStatus(of: id, now: now)
            }
            throw failure
        }
        clients[id]?.session = active
        var out: [Outgoing] = []
        switch step {
        case .none:
            break
        case .tap:
            // Down and up within the slop: no pan, no file. The pad is ready again, for anyone.
            clients[id]?.session = nil
            padHolder = nil
            livePreview = nil
            return [
                Outgoing(
                    target: .everyone, message: .recording(Self.readyStatus(page: active.page, reason: "a tap, not a pan")))
            ]
        case .sample(let input):
            livePreview?.add(input)
            out += previewFrames(recording: active.status(at: now).file ?? "")
        }
        // The status goes out on each change of state, and while capturing at most ten times
        // a second, so every page's counter and "if released now" follow the finger.
        let statusDue = active.state == .capturing && now - lastCaptureStatus >= Self.captureStatusInterval
        if active.state != before || statusDue {
            lastCaptureStatus = now
            out += recordingStatus(of: id, now: now)
        }
        if active.state != before, active.state == .released {
            padHolder = nil
            livePreview = nil
            out += released(active, by: id)
        }
        return out
    }

    /// The preview frame of the latest sample for every page: one frame per distinct setting,
    /// to the pages that view with it (a page with no view reads it with the recorder's).
    private mutating func previewFrames(recording: String) -> [Outgoing] {
        // Taken out while it changes (its transitions are not copied), put back at the end.
        guard var preview = livePreview.take() else { return [] }
        defer { livePreview = preview }
        let recorder = padHolder.flatMap { clients[$0]?.session }.map {
            LoadRequest(recording: "", preset: $0.presetName, parameters: $0.parameters)
        }
        return liveFrames(of: &preview, recording: recording, source: nil, to: clients.keys.sorted(), fallback: recorder)
    }

    /// The gesture was released: the library lists the unsaved file, and the recording page's
    /// view replays it with the page's own setting so it sees the decision and the completion.
    private mutating func released(_ session: LiveSession, by id: ConnectionID) -> [Outgoing] {
        rescanLibrary()
        var out = [libraryBroadcast()]
        guard let file = session.status(at: 0).file, library.contains(file) else { return out }
        do {
            out += leaveFollowing(id)
            out += try load(LoadRequest(recording: file, preset: session.presetName, parameters: session.parameters), for: id)
        } catch {
            // The recording is kept either way; say why it is not shown.
            let message = (error as? BridgeFailure)?.message ?? "\(error)"
            out += reply(BridgeFailure(.invalid, "recorded, but cannot replay it: \(message)"), to: id, replyingTo: "pointer")
        }
        return out
    }

    mutating func save(name: String?, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        let unsaved = clients[id]?.session?.status(at: now).file
        try withSession(of: id) { _ = try $0.save(name: name) }
        rescanLibrary()
        var out = recordingStatus(of: id, now: now) + [libraryBroadcast()]
        clients[id]?.beforeRecording = nil
        // The view showed the unsaved file: it now shows the saved one (its name, its label), at
        // the same time, with the setting it was recorded with.
        if let unsaved, let session = clients[id]?.session, let saved = session.status(at: now).id, let shown = views.player(of: id),
            shown.recording == unsaved
        {
            let time = shown.state.time
            let wasPlaying = shown.isPlaying
            out += try load(LoadRequest(recording: saved, preset: shown.state.preset, parameters: shown.parameters), for: id)
            out += try changeView(of: id) {
                $0.seek(to: time)
                $0.isPlaying = wasPlaying
            }
        }
        return out
    }

    mutating func discard(from id: ConnectionID, now: Double) throws -> [Outgoing] {
        let unsaved = clients[id]?.session?.status(at: now).file
        try withSession(of: id) { try $0.discard() }
        if padHolder == id {
            padHolder = nil
            livePreview = nil
        }
        rescanLibrary()
        var out = recordingStatus(of: id, now: now) + [libraryBroadcast()]
        // Back to the view the page had before it recorded.
        let before = clients[id]?.beforeRecording
        clients[id]?.beforeRecording = nil
        if let unsaved, views.player(of: id).map({ $0.recording == unsaved }) ?? true {
            if let before, library.contains(before.recording) {
                out += try load(before, for: id)
            } else if let (first, preset) = Self.firstView(in: library.recordings) {
                out += try load(LoadRequest(recording: first, preset: preset), for: id)
            }
        }
        return out
    }

    mutating func withSession(of id: ConnectionID, _ change: (inout LiveSession) throws -> Void) throws {
        guard var active = clients[id]?.session else {
            throw BridgeFailure(.invalid, "this page has no recording: arm the pad and record a gesture first")
        }
        try change(&active)
        clients[id]?.session = active
    }

    /// Page `id`'s recording status, for everyone (other pages show who holds the pad).
    func recordingStatus(of id: ConnectionID, now: Double) -> [Outgoing] {
        guard let session = clients[id]?.session else { return [] }
        return [Outgoing(target: .everyone, message: .recording(session.status(at: now)))]
    }

    /// Ends a recording in progress so its file is complete (shutdown).
    mutating func finaliseRecording() {
        if let holder = padHolder { clients[holder]?.session?.finalise() }
    }

    /// Test access: page `id`'s own recording.
    func session(of id: ConnectionID) -> LiveSession? { clients[id]?.session }
}

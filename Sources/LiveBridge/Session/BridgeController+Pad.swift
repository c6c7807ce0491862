internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// The record pad while a page holds it: which page, and the gesture on it (one value, so the
/// two never disagree).
struct HeldPad {
    let holder: ConnectionID
    var gesture: LiveGesture
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
            pad = nil
            out.append(Outgoing(target: .everyone, message: .recording(Self.readyStatus(page: held.page, reason: "armed but unused"))))
        }
        if clients[id]?.session?.state == .capturing { clients[id]?.session?.finalise() }
        let shown = shownView(of: id)
        let setting = Setting(
            preset: request.preset ?? shown?.state.preset ?? "swipe-back",
            parameters: request.parameters ?? (request.preset == nil ? shown?.setting.parameters ?? [:] : [:]))
        let parameters: ReplayParameters
        do {
            parameters = try ReplayParameters(setting)
        } catch {
            throw BridgeFailure(.invalid, "\(error)")
        }
        let sheetLibrary = try Self.sheetLibrary(of: request)
        do {
            try LiveFolder.prepare(liveFolder, inside: library.folder)
        } catch {
            throw BridgeFailure(.failed, "\(error)")
        }
        let date = Date(timeIntervalSince1970: wallClock)
        let created = ISO8601DateFormatter().string(from: date)
        let stamp = created.filter { $0.isNumber }
        if clients[id]?.beforeRecording == nil, let shown {
            clients[id]?.beforeRecording = LoadRequest(recording: shown.recording, setting: shown.setting)
        }
        guard let page = clients[id]?.page else { return out }
        let session = LiveSession(
            owner: id, page: page, request: request, setting: setting, replayParameters: parameters, folder: liveFolder,
            created: created, stamp: stamp, now: now, sheetLibrary: sheetLibrary)
        clients[id]?.session = session
        pad = HeldPad(holder: id, gesture: LiveGesture(source: nil, screen: Size(request.screen)))
        return out + recordingStatus(of: id, now: now)
    }

    /// A target trial's library, checked against its sheet on the pad's screen (the sheet
    /// itself was checked when the message was decoded).
    static func sheetLibrary(of request: RecordRequest) throws -> DetentPresetName {
        guard let sheet = request.sheet else {
            if request.sheetLibrary != nil { throw BridgeFailure(.invalid, "sheet_library: only with a sheet") }
            return .floatingpanel
        }
        let name = request.sheetLibrary ?? DetentPresetName.floatingpanel.rawValue
        guard let library = DetentPresetName(rawValue: name) else {
            throw BridgeFailure(
                .invalid, "sheet_library: unknown library \"\(name)\" (\(DetentPresetName.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let layout: SheetLayout
        do {
            layout = try SheetLayout(detents: sheet.detents, screenHeight: request.screen.height)
        } catch {
            throw BridgeFailure(.invalid, "sheet: \(error.description)")
        }
        if let problem = DetentPreset(library).problem(driving: layout) { throw BridgeFailure(.invalid, "sheet_library: \(problem)") }
        return library
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
                pad = nil
                // Said once a second at most: every later pad event would fail the same way.
                try throttled(failure, for: id, now: now)
                return recordingStatus(of: id, now: now)
            }
            throw failure
        }
        var out: [Outgoing] = []
        switch step {
        case .none:
            break
        case .tap:
            // Down and up within the slop: no pan, no file. The pad is ready again, for anyone.
            clients[id]?.session = nil
            pad = nil
            return [
                Outgoing(
                    target: .everyone, message: .recording(Self.readyStatus(page: active.page, reason: "a tap, not a pan")))
            ]
        case .sample(let input):
            pad?.gesture.file = active.status(at: now).file
            pad?.gesture.add(input)
            out += padFrames()
            // The recorder's own "if released now", from the same reading every page gets.
            active.ifReleasedNow = active.state == .capturing ? pad?.gesture.frame(for: active.replayParameters)?.1 : nil
        }
        clients[id]?.session = active
        // The status goes out on each change of state, and while capturing at most ten times
        // a second, so every page's counter and "if released now" follow the finger.
        let statusDue = active.state == .capturing && pad?.gesture.isStatusDue(now: now) == true
        if active.state != before || statusDue {
            pad?.gesture.saidStatus(at: now)
            out += recordingStatus(of: id, now: now)
        }
        if active.state != before, active.state == .released {
            pad = nil
            out += released(active, by: id)
        }
        return out
    }

    /// The pad's gesture at its latest sample for every page (each reads it with its own
    /// setting; a page with no view, with the recorder's).
    private mutating func padFrames() -> [Outgoing] {
        // Taken out while it changes (its transitions are not copied), put back at the end.
        guard var held = pad.take() else { return [] }
        defer { pad = held }
        return liveFrames(of: &held.gesture, to: clients.keys.sorted(), fallback: clients[held.holder]?.session?.setting)
    }

    /// The gesture was released: the library lists the unsaved file, and the recording page's
    /// view replays it with the setting it recorded with, so it sees the decision and the
    /// completion (other pages saw the release decided with their own).
    private mutating func released(_ session: LiveSession, by id: ConnectionID) -> [Outgoing] {
        rescanLibrary()
        let out = [libraryBroadcast()]
        guard let file = session.status(at: 0).file, library.contains(file) else { return out }
        return out + showReleased(file, to: [(session.setting, [id])], inReplyTo: "pointer")
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
            out += try load(LoadRequest(recording: saved, setting: shown.setting), for: id)
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
            pad = nil
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

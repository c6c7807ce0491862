internal import Foundation
internal import PanCapture
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// One live recording from the viewer's record pad.
///
/// Pointer events go through one ``GestureRecording``, the pipeline `pantrace record` uses,
/// which writes an `unsaved-…` file under `live/` as the gesture happens (a crash loses less
/// than 100 ms) and reports each sample it records; those samples also drive an
/// ``InteractiveTransition`` so the stage follows the finger. Saving reads the unsaved file
/// back, adds the label and writes it under its name (docs/PROTOCOL.md §3).
struct LiveSession {
    enum State: String {
        case armed, capturing, released, saved, discarded, failed
    }

    static let maximumEvents = 200_000

    let owner: ConnectionID
    let folder: String
    /// The page's preset and parameter overrides: the stage follows them while recording, the
    /// release is decided with them, and the replay after release and the saved view use them.
    let setting: Setting
    /// The page that recorded (its number, for other pages' words).
    let page: Int
    /// When the pad was armed (the controller's clock).
    let armedAt: Double
    let recognizerConfiguration: PanRecognizer.Configuration
    let metadata: TraceMetadata
    private(set) var state = State.armed
    /// Events taken so far, and the last one (a gesture still in progress at shutdown is
    /// cancelled at its time).
    private(set) var eventCount = 0
    private var lastEvent: PointerEvent?
    private(set) var intent = Intent.unknown
    private(set) var unsavedPath: String?
    private(set) var savedPath: String?
    private(set) var samples = 0
    private(set) var duration = 0.0
    private var recording: GestureRecording
    /// The preset and parameters resolved: the pad's ``LiveGesture`` reads the gesture with
    /// them for this page (one engine pipeline for every setting, this one among them).
    let replayParameters: ReplayParameters
    private var firstEventNanoseconds: Int64?
    private let stem: String
    /// While capturing: what the preset would decide if the finger lifted at the latest sample
    /// (the controller reads it off the pad's ``LiveGesture``).
    var ifReleasedNow: RecordingStatus.IfReleased?
    private var firstSampleTime: Double?
    /// A target trial's sheet (its target is the label), and the library that settles it.
    let sheet: SheetLabel?
    let sheetLibrary: DetentPresetName
    /// Once released on a sheet: where the library settles it.
    private(set) var settle: RecordingStatus.Settle?

    init(
        owner: ConnectionID, page: Int, request: RecordRequest, setting: Setting, replayParameters: ReplayParameters,
        folder: String, created: String, stamp: String, now: Double, sheetLibrary: DetentPresetName = .floatingpanel
    ) {
        self.sheet = request.sheet
        self.sheetLibrary = sheetLibrary
        self.owner = owner
        self.page = page
        self.armedAt = now
        self.folder = folder
        self.setting = setting
        self.replayParameters = replayParameters
        recognizerConfiguration = PanRecognizer.Configuration(edge: request.edge, screen: request.screen, velocity: .lsq2)
        // A target trial is labelled before it begins: its target is what the person meant.
        intent = request.sheet?.target == nil ? .unknown : .detent
        metadata = TraceMetadata(id: "", created: created, source: "browser", intent: intent, sheet: request.sheet)
        stem = "unsaved-\(stamp)"
        recording = GestureRecording(
            configuration: .init(recognizer: recognizerConfiguration, metadata: metadata),
            destination: RecordingDestination(folder: folder, stem: stem, skipsExistingNames: true))
    }

    /// The preset and parameters it records with (no recording named).
    /// Whether the session holds the record pad (no other page may arm it).
    var holdsPad: Bool { state == .armed || state == .capturing }

    /// The status at `now` (the controller's clock), for `held_s`.
    func status(at now: Double) -> RecordingStatus {
        RecordingStatus(
            state: state.rawValue, samples: samples, durationSeconds: duration, intent: intent,
            file: (savedPath ?? unsavedPath).map { relative($0) }, id: savedPath.map { relative($0) }, message: nil,
            ifReleased: state == .capturing ? ifReleasedNow : nil, page: page, heldSeconds: holdsPad ? max(0, now - armedAt) : nil,
            preset: setting.preset, parameters: setting.parameters, sheet: sheet, settle: settle)
    }

    /// The events taken so far (zero: the pad was armed and never touched).
    var hasEvents: Bool { eventCount > 0 }

    private func relative(_ path: String) -> String {
        let root = URL(fileURLWithPath: folder).deletingLastPathComponent().path + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// What one pointer event did.
    enum Step {
        /// Nothing for the stage (the pan has not begun, or the event was ignored).
        case none
        /// The pan recorded this sample; the stage follows it.
        case sample(GestureInput)
        /// The finger went down and came up within the slop: no pan, no file; the pad is free.
        case tap
    }

    /// Takes one pointer event.
    mutating func handle(_ message: PointerMessage) throws -> Step {
        guard state == .armed || state == .capturing else {
            throw BridgeFailure(.invalid, "the gesture was released: label it, then save or discard")
        }
        guard eventCount < Self.maximumEvents else { throw BridgeFailure(.invalid, "too many events in one recording") }
        // The message's values were range-checked when it was decoded; what is left is the
        // gesture as a whole, which no replay may be asked to cover for longer than an hour.
        if let first = firstEventNanoseconds, (message.milliseconds * 1e6 - Double(first)).magnitude > ValueLimits.replaySpan * 1e9 {
            throw BridgeFailure(
                .invalid,
                "t_ms \(message.milliseconds) is more than \(Int(ValueLimits.replaySpan)) s from the gesture's first event; a recording spans at most that"
            )
        }
        guard let phase = PointerEvent.Phase(rawValue: message.phase) else {
            throw BridgeFailure(.invalid, "unknown pointer phase \"\(message.phase)\" (expected down, move, up or cancel)")
        }
        let event = PointerEvent(
            nanoseconds: Int64((message.milliseconds * 1e6).rounded()), x: message.x, y: message.y, phase: phase, pointer: message.pointer ?? 0)
        let outcome: GestureRecording.Outcome
        do {
            outcome = try recording.handle(event)
        } catch {
            // Writing failed (a full disk, a missing folder): `failed`, and the recording ends;
            // anything else is the event's fault: `invalid`.
            if error.recordingError != nil {
                state = .failed
                throw BridgeFailure(.failed, "could not write the recording: \(error)")
            }
            throw BridgeFailure(.invalid, "\(error)")
        }
        eventCount += 1
        lastEvent = event
        if firstEventNanoseconds == nil { firstEventNanoseconds = event.nanoseconds }
        // One recognizer: the recording's. Each sample it records also moves the stage.
        let sample: PanSample
        switch outcome {
        case .began(let path, let began):
            unsavedPath = path
            state = .capturing
            samples = 1
            sample = began
            firstSampleTime = began.time
        case .changed(let changed):
            samples += 1
            duration = changed.time - (firstSampleTime ?? changed.time)
            sample = changed
        case .finished(let gesture, let release):
            samples = gesture.sampleCount
            duration = gesture.duration
            state = .released
            sample = release
            if let sheet { settle = Self.settle(gesture.path, on: sheet, library: sheetLibrary) }
        case .none, .failed, .ignored:
            // A press that ends before the pan began (within the slop): disarmed, back to ready.
            if state == .armed, phase == .up || phase == .cancel {
                state = .discarded
                return .tap
            }
            return .none
        }
        return .sample(GestureInput(sample))
    }

    mutating func label(_ intent: Intent) throws {
        guard state == .released else { throw BridgeFailure(.invalid, "nothing to label: record a gesture first") }
        guard sheet?.target == nil else {
            throw BridgeFailure(.invalid, "this gesture is a target trial: its label is the detent it asked for; save or discard it")
        }
        self.intent = intent
    }

    /// Where `library` settles the sheet after the gesture written at `path` (read back as
    /// saving reads it), through the same replay as `pantrace detents`; nil if it cannot be
    /// read (the status then has no settle; saving says why).
    static func settle(_ path: String, on sheet: SheetLabel, library: DetentPresetName) -> RecordingStatus.Settle? {
        guard let trace = try? TraceReader(configuration: .init(isStrict: true)).read(contentsOf: path).trace,
            let replay = try? SheetReplay(.init(detents: sheet.detents, start: sheet.start, presets: [DetentPreset(library)])),
            let gesture = try? replay.replay(trace), let verdict = gesture.verdicts.first,
            let motion = try? replay.motion(of: trace, gesture, verdict)
        else { return nil }
        let outcome = verdict.decision.outcome
        let landing = sheet.target.map {
            DetentLanding(outcome: outcome, meant: DetentOutcome($0), start: sheet.start, detentCount: sheet.detents.count)
        }
        return RecordingStatus.Settle(
            library: library.rawValue, detent: outcome.target, reason: verdict.decision.reason,
            position: gesture.releasePosition, landing: landing?.rawValue, motion: SheetSettleWire(motion.settle, fps: 60))
    }

    /// Writes the labelled gesture as `live/<name>-N.pantrace` (the next free number), from
    /// the unsaved file itself (its samples were recognised once, as they came), and removes
    /// the unsaved file; returns the saved file's path.
    mutating func save(name: String?) throws -> String {
        guard state == .released, let unsavedPath else { throw BridgeFailure(.invalid, "nothing to save: record a gesture first") }
        // Without a name (or one that sanitizes to nothing) the file says what it is: a pad
        // gesture and its label (`live/pad-finish-1.pantrace`), not `live/live-1.pantrace`.
        let given = name.map(RecordingDestination.sanitized).flatMap { $0.isEmpty ? nil : $0 }
        let destination = RecordingDestination(folder: folder, stem: given ?? "pad-\(intent.rawValue)", skipsExistingNames: true)
        let saved: String
        do {
            var trace = try TraceReader(configuration: .init(isStrict: true)).read(contentsOf: unsavedPath).trace
            trace.metadata.intent = intent
            saved = try destination.writeNext(trace)
        } catch {
            throw BridgeFailure(.failed, "could not save: \(error)")
        }
        try? FileManager.default.removeItem(atPath: unsavedPath)  // cleanup: the saved copy exists
        savedPath = saved
        state = .saved
        return saved
    }

    mutating func discard() throws {
        guard state == .released || state == .capturing || state == .armed else { throw BridgeFailure(.invalid, "nothing to discard") }
        if state == .capturing { _ = try? recording.interrupt() }  // cleanup: the file is removed next
        if let unsavedPath { try? FileManager.default.removeItem(atPath: unsavedPath) }  // cleanup
        state = .discarded
    }

    /// Ends a gesture still in progress (shutdown, the owner left): the finger is taken as
    /// cancelled at the last event's time, so the unsaved file is complete.
    mutating func finalise() {
        guard state == .capturing, let last = lastEvent else { return }
        let cancel = PointerEvent(nanoseconds: last.nanoseconds, location: last.location, phase: .cancel, pointer: last.pointer)
        if case .finished? = try? recording.handle(cancel) {  // a failure leaves the chunks written so far
            state = .released
        } else {
            _ = try? recording.interrupt()  // cleanup: keeps every complete chunk
        }
    }
}

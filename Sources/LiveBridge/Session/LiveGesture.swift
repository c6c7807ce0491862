internal import PanCapture
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// One live gesture in progress, whoever makes it: the record pad (a page's pointer events,
/// through a ``LiveSession``) or a device (its pan recognizer's samples, through a
/// ``DeviceSource``). Both go through this one type and through the controller's
/// ``BridgeController/liveFrames(of:to:fallback:)`` and ``BridgeController/showReleased(_:to:inReplyTo:)``:
/// the file it is written to, its samples read through every watching setting, how long it has
/// lasted, and when its status was last said.
struct LiveGesture {
    /// The unsaved file (a library id), once the pan has begun.
    var file: String?
    /// The device's number; nil for the record pad.
    let source: Int?
    /// The first sample's time on the maker's clock (a device's `t`); the engine's inputs are
    /// timed from it.
    private var start: Double?
    private var preview: LivePreview
    /// When the gesture's status was last said.
    private(set) var lastStatus = -Double.infinity
    /// The status goes out on each change of state, and while the finger moves at most this
    /// often (ten times a second), so every page's counter and "if released now" follow it.
    static let statusInterval = 0.1

    init(source: Int?, screen: Size, file: String? = nil) {
        self.source = source
        self.file = file
        preview = LivePreview(screen: screen)
    }

    /// Samples so far.
    var sampleCount: Int { preview.inputs.count }

    /// Seconds from the first sample to the latest.
    var duration: Double { (preview.inputs.last?.time ?? 0) - (preview.inputs.first?.time ?? 0) }

    /// Takes the engine's input of a sample already timed from the gesture's start (the pad's
    /// recorder times its samples so).
    mutating func add(_ input: GestureInput) { preview.add(input) }

    /// Takes a sample timed on the maker's clock (a device's `t`): timed from the first one.
    mutating func add(_ sample: PanSample) {
        let start = start ?? sample.time
        self.start = start
        var timed = sample
        timed.time = sample.time - start
        add(GestureInput(timed))
    }

    /// The frame at the latest sample under `parameters` (keyed by `key`), and while the finger is
    /// down what that setting would decide if it lifted now.
    mutating func frame(for parameters: ReplayParameters) -> (FrameState, RecordingStatus.IfReleased?)? {
        preview.frame(for: parameters)
    }

    /// How far `time` (the maker's clock) is from the first sample.
    func span(to time: Double) -> Double { start.map { (time - $0).magnitude } ?? 0 }

    /// Whether the status is due again at `now` while the finger moves.
    func isStatusDue(now: Double) -> Bool { now - lastStatus >= Self.statusInterval }

    /// The status was said at `now`.
    mutating func saidStatus(at now: Double) { lastStatus = now }
}

/// A live gesture as every watching page reads it: one transition per distinct setting (preset
/// and parameters) among the pages, each fed every sample so far, so a page sees the finger
/// move its own stage under its own sliders.
struct LivePreview {
    let screen: Size
    /// The samples so far (a setting that appears mid-gesture catches up on them).
    private(set) var inputs: [GestureInput] = []
    private var transitions: [ReplayParameters: InteractiveTransition] = [:]
    /// Each setting's reading of the latest sample, once made (the recorder's page and the
    /// other pages with its setting ask for the same one).
    private var readings: [ReplayParameters: (FrameState, RecordingStatus.IfReleased?)] = [:]

    init(screen: Size) { self.screen = screen }

    /// Feeds `input` to every setting's transition.
    mutating func add(_ input: GestureInput) {
        inputs.append(input)
        readings.removeAll(keepingCapacity: true)
        for index in transitions.indices { _ = transitions.values[index].handle(input) }
    }

    /// The frame at the latest sample under `parameters`, and while the finger is down what
    /// that setting would decide if it lifted now.
    mutating func frame(for parameters: ReplayParameters) -> (FrameState, RecordingStatus.IfReleased?)? {
        let key = parameters
        guard let last = inputs.last else { return nil }
        if let reading = readings[key] { return reading }
        if transitions[key] == nil {
            var transition = InteractiveTransition(preset: parameters.preset, screen: screen)
            for input in inputs { _ = transition.handle(input) }
            transitions[key] = transition
        }
        // Read in place through the values view (`transitions[key]!` would copy the transition).
        guard let index = transitions.index(forKey: key) else { return nil }
        let frame = transitions.values[index].frameState(at: last.time)
        let down = last.phase == .began || last.phase == .changed
        let reading = (frame, down ? Self.decision(ifLiftedAt: last, of: transitions.values[index]) : nil)
        readings[key] = reading
        return reading
    }

    /// The decision a lift at `input`'s place, time and velocity would get: a copy of the
    /// transition is released there (the live one is untouched).
    static func decision(ifLiftedAt input: GestureInput, of transition: InteractiveTransition) -> RecordingStatus.IfReleased? {
        var probe = transition
        _ = probe.handle(GestureInput(time: input.time, phase: .ended, translation: input.translation, velocity: input.velocity))
        guard let report = probe.frameState(at: input.time).release else { return nil }
        return RecordingStatus.IfReleased(decision: report.decision.outcome.rawValue, reason: report.reason, margin: report.margin)
    }
}

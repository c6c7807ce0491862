internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// The replay everyone watches: a recording, a preset, and a playhead in gesture time.
///
/// Frames come from a ``Replayer`` at the configured rate; the playhead moves with the time
/// it is given (`advance(by:)`), so tests drive it with virtual time.
struct Player {
    /// Which load this is (counts up across loads).
    let load: Int
    let recording: String
    let trace: Trace
    /// The preset and parameters as the page spelled them (its `load`).
    let setting: Setting
    let configuration: Replayer.Configuration
    private(set) var replayer: Replayer
    /// The whole replay, computed once per load (``ReplaySeries``).
    let series: ReplaySeries
    var isPlaying = true
    /// The last frame number sent of this view (``BridgeController/frameMessage(_:of:)``).
    var sequence: UInt64 = 0
    var speed = 1.0
    var loops = true
    /// Gesture time since the first frame, seconds (scaled by speed).
    private(set) var elapsed = 0.0
    /// Time spent holding the last frame before looping.
    private var held = 0.0
    static let loopPause = 0.6

    init(load: Int, recording: String, trace: Trace, setting: Setting, configuration: Replayer.Configuration) throws {
        self.load = load
        self.recording = recording
        self.trace = trace
        self.setting = setting
        self.configuration = configuration
        self.replayer = try Replayer(trace: trace, configuration: configuration)
        self.series = ReplaySeries(of: replayer)
    }

    /// The preset's name.
    var presetName: String { configuration.parameters.preset.name.rawValue }

    /// The `series` message of this load.
    var seriesMessage: SeriesMessage {
        SeriesMessage(
            role: "playing", load: load, recording: recording, preset: configuration.parameters.preset.name.rawValue,
            parameters: setting.parameters, fps: frameRate, summary: summary, series: series)
    }

    var summary: ReplaySummary { replayer.summary }
    var frameRate: Double { configuration.frameRate }
    var duration: Double { Double(max(0, replayer.frameCount - 1)) / frameRate }

    var state: PlaybackState {
        PlaybackState(
            load: load, recording: recording, preset: configuration.parameters.preset.name.rawValue, parameters: setting.parameters,
            playing: isPlaying, speed: speed, loop: loops, time: replayer.time(ofFrame: currentIndex),
            start: replayer.time(ofFrame: 0), end: replayer.time(ofFrame: max(0, replayer.frameCount - 1)),
            release: summary.releaseTime, fps: frameRate)
    }

    /// The index of the frame the playhead is on.
    var currentIndex: Int { min(replayer.frameCount - 1, Int((elapsed * frameRate + 1e-9).rounded(.down))) }

    /// The frame at the playhead.
    mutating func frame() -> FrameState { frame(at: currentIndex) }

    /// Frames emitted for one tick at most; a longer stall skips ahead.
    static let catchUpLimit = 8

    /// Moves the playhead by `dt` seconds of wall time; returns the frame indices passed, in
    /// order (the last is the new position), so a viewer that keeps up sees every frame.
    mutating func advance(by dt: Double) -> [Int] {
        guard isPlaying else { return [] }
        let before = currentIndex
        if before >= replayer.frameCount - 1 {
            guard loops else {
                isPlaying = false
                return []
            }
            held += dt
            if held < Self.loopPause { return [] }
            held = 0
            elapsed = 0
            return [0]
        }
        elapsed = min(duration, elapsed + dt * speed)
        let after = currentIndex
        guard after > before else { return [] }
        return Array(max(before + 1, after - Self.catchUpLimit + 1)...after)
    }

    /// Benchmark only (`pantrace serve --bench-frame-rate`): moves the playhead one frame
    /// forward, wrapping to the first frame without the loop pause, so every call yields a
    /// frame whatever the replay's length; returns its index (none while paused).
    mutating func advanceOneFrame() -> Int? {
        guard isPlaying else { return nil }
        let index = currentIndex + 1 < replayer.frameCount ? currentIndex + 1 : 0
        elapsed = Double(index) / frameRate
        held = 0
        return index
    }

    /// The frame with `index`.
    mutating func frame(at index: Int) -> FrameState {
        seekReplayer(to: index)
        return replayer.nextFrame()!
    }

    /// The largest distance from a frame's time at which a seek lands on that frame: an address
    /// keeps times to the millisecond (`t=0.033` for 0.0333…), and a seek to such a time is to
    /// that frame, not to the one before it.
    static let seekTolerance = 0.0005

    mutating func seek(to time: Double) {
        let start = replayer.time(ofFrame: 0)
        let raw = time - start
        let nearest = (raw * frameRate).rounded() / frameRate
        elapsed = max(0, min(duration, abs(raw - nearest) <= Self.seekTolerance ? nearest : raw))
        held = 0
    }

    mutating func step(frames: Int) {
        isPlaying = false
        let index = max(0, min(replayer.frameCount - 1, currentIndex + frames))
        elapsed = Double(index) / frameRate
    }

    /// Positions the replayer so that its next frame is `index`: the cost is the samples in
    /// between, not the frames, so a seek on a long recording stays cheap.
    private mutating func seekReplayer(to index: Int) {
        if replayer.frameIndex != index { replayer.seek(toFrame: index) }
    }
}

extension Player {
    /// The preset and parameters `request` names, or the wire's `invalid` error saying why not.
    static func parameters(of request: LoadRequest) throws(BridgeFailure) -> ReplayParameters {
        do {
            return try ReplayParameters(request.setting)
        } catch {
            throw BridgeFailure(.invalid, "\(error)")
        }
    }

    /// A player of `request` over `trace` with its resolved `parameters`.
    init(load: Int, request: LoadRequest, parameters: ReplayParameters, trace: Trace, frameRate: Double) throws {
        try self.init(
            load: load, recording: request.recording, trace: trace, setting: request.setting,
            configuration: Replayer.Configuration(parameters: parameters, frameRate: frameRate))
    }
}

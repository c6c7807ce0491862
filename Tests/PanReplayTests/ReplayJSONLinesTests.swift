import Foundation
import PanReplay
import PanTrace
import GestureFixtures
import Testing
import TestSupport
import TransitionEngine

/// `pantrace replay`'s JSON Lines: the hand-written frame encoder against `JSONEncoder`, and
/// the stream handed out in chunks as the replay runs.
struct ReplayJSONLinesTests {
    static let recordings = Repository.recordings

    /// What `replay` wrote before the stream: `JSONEncoder` per frame and for the summary.
    static func codableLines(_ replayer: Replayer) throws -> [UInt8] {
        var replayer = replayer
        let encoder = ReplayJSONLines.encoder()
        var out: [UInt8] = []
        while let frame = replayer.nextFrame() {
            out += try encoder.encode(frame)
            out.append(0x0A)
        }
        out += try encoder.encode(replayer.summary)
        out.append(0x0A)
        return out
    }

    static func swipeDismiss() throws -> ReplayParameters { try ReplayParameters(presetNamed: "swipe-dismiss", overrides: [:]) }

    static func streamed(_ replayer: Replayer, frames: Bool = true, chunkBytes: Int = ReplayJSONLines.chunkBytes) throws -> [[UInt8]] {
        var replayer = replayer
        var chunks: [[UInt8]] = []
        try ReplayJSONLines.stream(&replayer, frames: frames, chunkBytes: chunkBytes) { chunks.append($0) }
        return chunks
    }

    /// Every bundled recording under every preset at 60 fps (and 240 under swipe-dismiss): byte
    /// for byte what `JSONEncoder` writes (gestures, releases, masks, every layer kind).
    @Test func everyBundledRecordingEncodesAsJSONEncoderDoes() throws {
        let listing = TraceFolder.list(Self.recordings, formats: [.pantrace])
        #expect(listing.files.count >= 50)
        var compared = 0
        for file in listing.files {
            let trace = try TraceFiles.read(Self.recordings + "/" + file).trace
            for preset in PresetCatalog.names {
                for fps in preset == "swipe-dismiss" ? [60.0, 240.0] : [60.0] {
                    let parameters = try ReplayParameters(presetNamed: preset, overrides: [:])
                    guard let replayer = try? Replayer(trace: trace, configuration: .init(parameters: parameters, frameRate: fps)) else { continue }
                    let expected = try Self.codableLines(replayer)
                    let got = try Self.streamed(replayer).flatMap { $0 }
                    #expect(got == expected, "\(file) under \(preset) at \(fps) fps")
                    compared += 1
                }
            }
        }
        #expect(compared >= 100)
    }

    /// Chunks leave while the replay runs: none waits past the chunk size plus one frame, so
    /// the output of a long replay is never held whole.
    @Test func chunksLeaveAsTheReplayRuns() throws {
        let trace = Fixtures.handMade(times: (0..<2_400).map { Double($0) / 240 })
        let replayer = try Replayer(trace: trace, configuration: .init(parameters: try Self.swipeDismiss(), frameRate: 240))
        let chunkBytes = 4096
        let chunks = try Self.streamed(replayer, chunkBytes: chunkBytes)
        #expect(chunks.count > 50)
        let longestFrame = try Self.codableLines(replayer).split(separator: 0x0A).map(\.count).max() ?? 0
        for chunk in chunks.dropLast() { #expect(chunk.count >= chunkBytes && chunk.count < chunkBytes + longestFrame + 1) }
        #expect(chunks.flatMap { $0 } == (try Self.codableLines(replayer)))
    }

    /// A chunk that cannot be written stops the replay with that error: nothing more is computed.
    @Test func aFailingWriteStopsTheReplay() throws {
        struct Closed: Error {}
        let trace = Fixtures.handMade(times: (0..<2_400).map { Double($0) / 240 })
        var replayer = try Replayer(trace: trace, configuration: .init(parameters: try Self.swipeDismiss(), frameRate: 240))
        var calls = 0
        #expect(throws: Closed.self) {
            try ReplayJSONLines.stream(&replayer, chunkBytes: 4096) { _ in
                calls += 1
                throw Closed()
            }
        }
        #expect(calls == 1)
        #expect(replayer.frameIndex < replayer.frameCount)
    }

    /// `--format summary`: the summary line alone, as `JSONEncoder` writes it.
    @Test func summaryAloneIsOneLine() throws {
        let trace = Fixtures.handMade(times: (0..<100).map { Double($0) / 120 })
        let replayer = try Replayer(trace: trace, configuration: .init(parameters: try Self.swipeDismiss()))
        let chunks = try Self.streamed(replayer, frames: false)
        #expect(chunks.count == 1)
        #expect(chunks[0] == Array(try ReplayJSONLines.encoder().encode(replayer.summary)) + [0x0A])
    }
}

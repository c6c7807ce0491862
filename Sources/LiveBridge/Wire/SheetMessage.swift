internal import Foundation
internal import PanReplay
package import PanTrace
package import TransitionEngine

/// How a sheet moves after the release, as a page draws it: the library's settle sampled at
/// the viewer's frame rate (docs/PROTOCOL.md, `sheet`; docs/MODEL.md §9.5).
package struct SheetSettleWire: Codable, Sendable, Equatable {
    /// The most frames sent: ten seconds at 60 Hz (every library rests sooner).
    static let frameLimit = 600

    /// The library's motion in words.
    package var motion: String
    /// Seconds from the release until the sheet rests.
    package var durationSeconds: Double
    /// Frames a second of `tops`.
    package var fps: Double
    /// The sheet's top edge, points, `1 / fps` apart from `1 / fps` after the release; the
    /// last at rest where the library sent it.
    package var tops: [Double]

    package init(_ settle: SheetSettle, fps: Double) {
        motion = settle.summary
        durationSeconds = settle.duration
        self.fps = fps
        tops = settle.positions(rate: fps, limit: Self.frameLimit)
    }

    private enum CodingKeys: String, CodingKey {
        case motion, fps, tops
        case durationSeconds = "duration_s"
    }
}

/// `sheet`: one recording replayed as a drag of a sheet through one library, in answer to a
/// `compare` that names a sheet (docs/PROTOCOL.md §2).
package struct SheetMessage: Codable, Sendable {
    /// The most drag points sent (every `stride`-th past it).
    static let dragLimit = 4_000

    package var recording: String
    package var library: String
    package var parameters: [String: PresetValue]
    /// The sheet and the detent it started at (and, when asked, the detent meant).
    package var sheet: SheetLabel
    /// Where the library settles it: a detent index or `dismissed`.
    package var detent: SheetLabel.Target
    /// The branch of its rule, in words.
    package var reason: String
    /// The velocity the rule read, pt/s, positive downward; nil when not finite (vaul's press
    /// mean over a press of zero length).
    package var velocity: Double?
    /// Where that velocity came from.
    package var estimator: String
    /// The smallest velocity change that changes the outcome, and that outcome.
    package var margin: Margin?
    /// Against the detent meant, when the request named one: `hit`, `skip`, `stuck`, `wrong`.
    package var landing: String?
    /// The sheet's top edge at the release, points.
    package var releasePosition: Double
    /// Seconds from the first sample to the release.
    package var release: Double
    /// `[t, top]` while the finger is down: seconds since the first sample, points.
    package var drag: [[Double]]
    /// The settle after the release.
    package var settle: SheetSettleWire

    /// `margin`.
    package struct Margin: Codable, Sendable, Equatable {
        package var velocityChange: Double
        package var detent: SheetLabel.Target

        private enum CodingKeys: String, CodingKey {
            case detent
            case velocityChange = "velocity_change"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case recording, library, parameters, sheet, detent, reason, velocity, estimator, margin, landing, release, drag, settle
        case releasePosition = "release_position"
    }

    /// `trace` replayed on `sheet` through `preset`.
    ///
    /// - Throws: ``ReplayError`` when the trace has no release or the sheet does not fit its
    ///   screen or the library.
    init(recording: String, trace: Trace, sheet: SheetLabel, preset: DetentPreset, parameters: [String: PresetValue], fps: Double) throws {
        let replay = try SheetReplay(.init(detents: sheet.detents, start: sheet.start, presets: [preset]))
        let gesture = try replay.replay(trace)
        guard let verdict = gesture.verdicts.first else { preconditionFailure("one library that can drive the sheet gives one verdict") }
        let motion = try replay.motion(of: trace, gesture, verdict)
        let outcome = verdict.decision.outcome
        self.recording = recording
        library = preset.name.rawValue
        self.parameters = parameters
        self.sheet = sheet
        detent = outcome.target
        reason = verdict.decision.reason
        velocity = verdict.velocity.isFinite ? verdict.velocity : nil
        estimator = verdict.estimator?.rawValue ?? DetentVelocityGate.pressMean.rawValue
        margin = verdict.margin.map { Margin(velocityChange: $0.velocityChange, detent: $0.outcome.target) }
        landing = sheet.target.map {
            DetentLanding(outcome: outcome, meant: DetentOutcome($0), start: gesture.start, detentCount: sheet.detents.count).rawValue
        }
        releasePosition = gesture.releasePosition
        release = motion.release
        let stride = max(1, (motion.drag.count + Self.dragLimit - 1) / Self.dragLimit)
        drag = Swift.stride(from: 0, to: motion.drag.count, by: stride).map { [motion.drag[$0].time, motion.drag[$0].top] }
        settle = SheetSettleWire(motion.settle, fps: fps)
    }
}

package import TransitionEngine

/// A sheet drag as it moves on screen (docs/MODEL.md §9.5): the top edge under the finger from
/// the first sample to the release, then the library's own settle to where its rule sent it.
/// What `replay --format jsonl` writes frame by frame and what the viewer plays.
package struct SheetMotion: Sendable {
    /// One frame of the motion.
    package struct Frame: Sendable, Hashable {
        /// Seconds since the first sample.
        package var t: Double
        /// `drag` while the finger is down, `settle` after.
        package var phase: Phase
        /// The sheet's top edge, points from the top of the screen.
        package var top: Double
    }

    /// Whether the finger is down.
    package enum Phase: String, Sendable, Hashable {
        case drag, settle
    }

    /// The finger's part: seconds since the first sample, and the top edge then.
    package let drag: [(time: Double, top: Double)]
    /// Seconds from the first sample to the release.
    package let release: Double
    /// The library's settle from the release.
    package let settle: SheetSettle

    /// The motion of `track` on `sheet`, settling as `preset` does to `outcome` from the
    /// release the rule read.
    init(track: GestureTrack, on sheet: SheetLayout, preset: DetentPreset, release: DetentRelease, outcome: DetentOutcome) {
        let start = release.start
        let origin = track.inputs[0].time
        let base = sheet.detents[start]
        drag = track.inputs.map { ($0.time - origin, base + $0.translation.y) }
        self.release = track.release.time - origin
        // vaul's press mean is infinite for a zero-length press; no settle reads it as a speed.
        let read = release.velocity.isFinite ? release : release.withVelocity(0)
        settle = preset.settle(read, to: outcome, on: sheet, display: SheetDisplay(width: track.screen.width))
    }

    /// Seconds from the first sample until the sheet rests.
    package var duration: Double { release + settle.duration }

    /// The top edge `t` seconds after the first sample: the last sample's position at or before
    /// `t` while the finger is down, the settle after.
    package func top(at t: Double) -> Double {
        if t >= release { return settle.position(at: t - release) }
        var low = 0
        var high = drag.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if drag[middle].time <= t { low = middle } else { high = middle - 1 }
        }
        return drag[low].top
    }

    /// Frames `1 / rate` seconds apart from the first sample until the sheet rests; the last is
    /// at rest on the target. At most `limit` frames.
    package func frames(rate: Double, limit: Int = 20_000) -> [Frame] {
        var frames: [Frame] = []
        var index = 0
        while frames.count < limit {
            let t = Double(index) / rate
            if t >= duration {
                frames.append(Frame(t: duration, phase: .settle, top: settle.to))
                break
            }
            frames.append(Frame(t: t, phase: t < release ? .drag : .settle, top: top(at: t)))
            index += 1
        }
        return frames
    }
}

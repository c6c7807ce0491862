import PanCapture
@testable import PanTrace

/// Traces used across the codec tests.
enum TestTraces {
    /// A seeded synthetic gesture (seed 42), `index` picks which.
    static func synthetic(_ index: Int = 0, rate: Double = 120) -> Trace {
        var configuration = GestureSynthesizer.Configuration()
        configuration.rate = rate
        return GestureSynthesizer(configuration: configuration, seed: 42).trace(at: index)
    }

    /// A hand-made trace with every optional column, mixed presence and unknown metadata keys.
    static func everyField() -> Trace {
        var samples: [PanSample] = []
        for i in 0..<40 {
            let t = Double(i) / 120
            samples.append(
                PanSample(
                    time: t, phase: i == 0 ? .began : (i == 39 ? .ended : .changed),
                    translation: PanVector(x: 3.5 * Double(i), y: -0.25 * Double(i % 7)),
                    velocity: PanVector(x: 420 + Double(i), y: -12.5),
                    location: i % 3 == 0 ? nil : PanVector(x: 10 + Double(i), y: 400.01),
                    touches: i % 5 == 0 ? nil : 1 + i % 2))
        }
        let metadata = TraceMetadata(
            id: "every-field", created: "2026-11-21T10:00:00Z", source: "import:csv",
            screen: ScreenGeometry(width: 393, height: 852, scale: 3), edge: .right, intent: .finish,
            tags: ["a", "ü"], notes: "a note, with punctuation: \"quoted\"", velocityOrigin: "lsq2",
            extra: ["device": .string("sailfish"), "calibration": .object(["gain": .number(1.25), "ok": .bool(true)])])
        return Trace(metadata: metadata, samples: samples)
    }

    /// The trace as a reader returns it: every value snapped to the grid.
    static func snapped(_ trace: Trace) -> Trace {
        var copy = trace
        copy.samples = trace.samples.map(trace.grid.snapped)
        return copy
    }

    /// Byte ranges of the gzip members (chunks) of an encoded file.
    static func memberStarts(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0x1f, bytes[i + 1] == 0x8b, bytes[i + 2] == 0x08 { starts.append(i) }
            i += 1
        }
        return starts
    }

    /// One gzip member holding `payload`.
    static func member(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        GzipDeflater().appendMember(of: payload, to: &out)
        return out
    }
}

internal import PanCapture
package import PanTrace
internal import TransitionEngine

/// Seeded synthetic gestures shared by the PanReplay and PanTune tests.
package enum Fixtures {
    /// Swipe-down gestures (for `swipe-dismiss`), labelled by scenario.
    package static func swipes(_ count: Int, seed: UInt64 = 7, rate: Double = 120) -> [Trace] {
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = .swipeDown
        configuration.rate = rate
        let synthesizer = GestureSynthesizer(configuration: configuration, seed: seed)
        return (0..<count).map(synthesizer.trace(at:))
    }

    /// Edge-swipe-back gestures (for the horizontal presets: `swipe-back`, `uikit-percent`, `best`).
    package static func edgeSwipes(_ count: Int, seed: UInt64 = 7, rate: Double = 120) -> [Trace] {
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = .edgeBack
        configuration.rate = rate
        let synthesizer = GestureSynthesizer(configuration: configuration, seed: seed)
        return (0..<count).map(synthesizer.trace(at:))
    }

    /// A hand-made vertical gesture: samples at the given times, progress rising linearly.
    package static func handMade(times: [Double], endPhase: PanTrace.GesturePhase = .ended, intent: Intent = .finish) -> Trace {
        let samples = times.enumerated().map { index, time in
            let phase: PanTrace.GesturePhase = index == 0 ? .began : (index == times.count - 1 ? endPhase : .changed)
            return PanSample(time: time, phase: phase, translation: PanVector(x: 0, y: 40 * Double(index)), velocity: PanVector(x: 0, y: 600))
        }
        return Trace(metadata: TraceMetadata(id: "hand-made", screen: .phone, intent: intent), samples: samples)
    }
}

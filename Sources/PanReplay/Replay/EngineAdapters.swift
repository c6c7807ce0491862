package import PanCapture
package import PanTrace
package import TransitionEngine

// The one place PanTrace's and PanCapture's types become the engine's. The engine stays free
// of PanTrace (it imports only the standard library), so each concept has one type per layer:
// a phase (`PanTrace.GesturePhase` / `TransitionEngine.GesturePhase`), a vector (`PanVector`
// / `Vector2`) and a screen (`ScreenGeometry` / `Size`). Every caller converts through these.

extension TransitionEngine.GesturePhase {
    /// The engine's phase of a recorded sample's phase.
    package init(_ phase: PanTrace.GesturePhase) {
        switch phase {
        case .began: self = .began
        case .changed: self = .changed
        case .ended: self = .ended
        case .cancelled: self = .cancelled
        }
    }
}

extension Vector2 {
    /// The engine's vector of a recorded translation, velocity or location.
    package init(_ vector: PanVector) {
        self.init(x: vector.x, y: vector.y)
    }
}

extension Size {
    /// The engine's screen of a recording's screen (points; the scale plays no part).
    package init(_ screen: ScreenGeometry) {
        self.init(width: screen.width, height: screen.height)
    }
}

extension GestureInput {
    /// The engine's input of a recorded sample, with its own velocity or another.
    package init(_ sample: PanSample, velocity: Vector2? = nil) {
        self.init(
            time: sample.time, phase: TransitionEngine.GesturePhase(sample.phase),
            translation: Vector2(sample.translation), velocity: velocity ?? Vector2(sample.velocity))
    }
}

extension VelocitySample.Phase {
    /// The phase a platform's velocity tracker is fed for a sample of this phase.
    package init(_ phase: PanTrace.GesturePhase) {
        switch phase {
        case .began: self = .down
        case .changed: self = .move
        case .ended: self = .up
        case .cancelled: self = .cancel
        }
    }
}

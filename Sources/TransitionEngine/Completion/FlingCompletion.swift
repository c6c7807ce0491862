/// T9: Flutter `Dismissible`'s completion (docs/MODEL.md §4.9; Flutter `packages/flutter/lib/src/widgets/dismissible.dart`).
///
/// After a fling (a velocity-based decision) `AnimationController.fling` runs a critically
/// damped spring (mass 1, stiffness 500) toward `q ± 0.01` with progress velocity
/// `±|v|/300` (size-independent, as the source is), and stops, clamped, when it reaches `q`.
/// Otherwise `forward()`/`reverse()` run linearly for `movementDuration × |Δ|`.
public struct FlingCompletion: Sendable, Hashable, Codable {
    /// The spring stiffness (500).
    public var stiffness: Double
    /// `_kFlingVelocityScale`, 1/300.
    public var velocityScale: Double
    /// `_kFlingTolerance.distance`, 0.01: the overshoot of the spring's target.
    public var tolerance: Double
    /// `movementDuration`, 0.2 s, for non-fling completions.
    public var movementDuration: Double

    /// Creates the model with Flutter's constants by default.
    public init(stiffness: Double = 500, velocityScale: Double = 1.0 / 300, tolerance: Double = 0.01, movementDuration: Double = 0.2) {
        precondition(stiffness > 0 && velocityScale > 0 && tolerance > 0 && movementDuration > 0, "invalid fling parameters")
        self.stiffness = stiffness
        self.velocityScale = velocityScale
        self.tolerance = tolerance
        self.movementDuration = movementDuration
    }

    /// The critically damped spring (`SpringDescription.withDampingRatio(mass: 1, stiffness: 500)`).
    public var spring: Spring {
        Spring(mass: 1, stiffness: stiffness, damping: 2 * stiffness.squareRoot())
    }
}

package import PanTrace

extension VelocitySource {
    /// The parameter key under which the replayer, the tuner, a setting file and the wire's
    /// `load` take a velocity source beside a preset's own ``TransitionEngine/ParameterKey``s.
    package static let parameterKey = "velocity"
}

public import ArgumentParser
public import PanTrace

/// `--screen WIDTHxHEIGHT`, in points: parsed straight into the model's ``ScreenGeometry``
/// (with scale 1; commands that record take the scale from `--scale`).
///
/// Each side must lie within ``ValueLimits/screenPoints`` (1…100000): a zero, subnormal or
/// huge screen is an argument error here, before anything is written with it.
extension ScreenGeometry: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]) else { return nil }
        self.init(width: width, height: height, scale: 1)
        guard problem == nil else { return nil }
    }

    /// How `--help` shows a default: as the user would type it.
    public var defaultValueDescription: String { "\(Self.format(width))x\(Self.format(height))" }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? String(Int(value)) : String(value)
    }

    /// The same size at `scale`.
    func scaled(_ scale: Double) -> ScreenGeometry { ScreenGeometry(width: width, height: height, scale: scale) }

    /// The `--scale` check every command shares: the range ``ValueLimits/screenScale``.
    static func validate(scale: Double) throws {
        if let problem = ScreenGeometry(width: 390, height: 844, scale: scale).problem {
            throw ValidationError("--scale: \(problem)")
        }
    }
}

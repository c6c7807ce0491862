internal import ArgumentParser
internal import PanTrace

/// A `WIDTHxHEIGHT` screen size in points, as given on the command line.
///
/// Each side must lie within ``ValueLimits/screenPoints`` (1…100000): a zero, subnormal or
/// huge screen is an argument error here, before anything is written with it.
struct ScreenSize: ExpressibleByArgument, Sendable {
    var width: Double
    var height: Double

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
            ScreenGeometry(width: w, height: h, scale: 1).problem == nil
        else {
            return nil
        }
        width = w
        height = h
    }

    /// How `--help` shows a default: as the user would type it.
    var defaultValueDescription: String { "\(Self.format(width))x\(Self.format(height))" }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? String(Int(value)) : String(value)
    }
}

extension ScreenGeometry {
    /// The `--scale` check every command shares: the range ``ValueLimits/screenScale``.
    static func validate(scale: Double) throws {
        if let problem = ScreenGeometry(width: 390, height: 844, scale: scale).problem {
            throw ValidationError("--scale: \(problem)")
        }
    }
}

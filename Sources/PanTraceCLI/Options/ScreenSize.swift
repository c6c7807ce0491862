internal import ArgumentParser

/// A `WIDTHxHEIGHT` screen size in points, as given on the command line.
struct ScreenSize: ExpressibleByArgument, Sendable {
    var width: Double
    var height: Double

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else {
            return nil
        }
        width = w
        height = h
    }

    static var defaultValueDescription: String { "390x844" }
}

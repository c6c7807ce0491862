internal import ArgumentParser
internal import PanCapture
internal import PanTrace

/// How a pointer log becomes pans: the recognizer, the screen and the getevent panel, as
/// `record` and `live` both take them (docs/CAPTURE.md).
struct RecognizerOptions: ParsableArguments {
    @Option(help: "Points the pointer must move before the pan begins.")
    var slop: Double = 10

    @Option(help: "Edge mode: only touches that go down near this edge begin.")
    var edge: ScreenEdge?

    @Option(name: .customLong("edge-zone"), help: "Edge mode: how close to the edge, in points, the touch must go down.")
    var edgeZone: Double = 20

    @Option(help: "Velocity estimator.")
    var velocity: VelocityStrategy = .lsq2

    @Option(help: "Screen size in points, WIDTHxHEIGHT, each 1…100000.")
    var screen = ScreenGeometry(width: 390, height: 844, scale: 1)

    @Option(help: "Screen scale (pixels per point): 0.1…100 for record, 1…4 for live.")
    var scale: Double = 3

    @Option(name: .customLong("device-info"), help: "getevent: a `getevent -p` dump with the panel's axis ranges.")
    var deviceInfo: String?

    @Option(name: .customLong("axis-range"), help: "getevent: panel ranges XMIN:XMAX,YMIN:YMAX (instead of --device-info).")
    var axisRange: String?

    @Option(help: "getevent: the device to follow (default: the first with multi-touch events).")
    var device: String?

    func validate() throws {
        guard slop >= 0, slop.isFinite else { throw ValidationError("--slop must be a non-negative number") }
        guard edgeZone >= 0, edgeZone.isFinite else { throw ValidationError("--edge-zone must be a non-negative number") }
    }

    /// The screen in points at `--scale`.
    var scaledScreen: ScreenGeometry { screen.scaled(scale) }

    /// The recognizer's configuration on `screen`.
    func recognizer(on screen: ScreenGeometry) -> PanRecognizer.Configuration {
        .init(slop: slop, edge: edge, edgeZone: edgeZone, screen: screen, velocity: velocity)
    }

    /// The getevent panel and device on `screen`.
    func getevent(on screen: ScreenGeometry) throws -> GeteventOptions {
        try GeteventOptions(device: device, deviceInfo: deviceInfo, axisRange: axisRange, screen: screen)
    }
}

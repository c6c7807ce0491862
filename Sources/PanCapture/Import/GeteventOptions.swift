public import PanTrace

/// How to read an Android `getevent` log.
public struct GeteventOptions: Hashable, Sendable {
    /// The device to follow (`/dev/input/event2`); `nil` follows the first device that
    /// reports a multi-touch axis. Lines of other devices are checked and skipped.
    public var device: String?
    /// Axis ranges to use whatever the device (`--axis-range`).
    public var axes: GeteventAxes?
    /// Axis ranges by device, from a `getevent -p` dump (`--device-info`).
    public var deviceAxes: [String: GeteventAxes]
    /// The screen to map panel units onto; `nil` keeps raw panel units.
    public var screen: ScreenGeometry?

    /// Creates options.
    public init(device: String? = nil, axes: GeteventAxes? = nil, deviceAxes: [String: GeteventAxes] = [:], screen: ScreenGeometry? = nil) {
        self.device = device
        self.axes = axes
        self.deviceAxes = deviceAxes
        self.screen = screen
    }
}

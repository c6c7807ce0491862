/// The ranges PanTrace accepts for numbers that come from outside: files, logs, wire
/// messages and flags (docs/FORMAT.md §5, "Limits a reader enforces").
///
/// Each boundary checks what it lets in against these and throws an error naming where the
/// value came from, so that no input can reach a trap further in: a zero or subnormal screen
/// would make a progress distance zero, a time past ±9.2·10⁹ s overflows a nanosecond count,
/// and a span of years would ask a replay for billions of frames.
public enum ValueLimits {
    /// Screen width and height, points: a watch is about 160, a wall display a few thousand.
    public static let screenPoints: ClosedRange<Double> = 1...100_000
    /// Pixels per point (`UIScreen.scale`, `window.devicePixelRatio`, which browser zoom can
    /// take down to 0.25).
    public static let screenScale: ClosedRange<Double> = 0.1...100
    /// Largest magnitude of a sample or event time, seconds: ±4·10⁹ s holds Unix time up to
    /// 2096 and any uptime clock, and keeps nanoseconds inside `Int64`.
    public static let timeMagnitude = 4e9
    /// Largest magnitude of a translation, location or velocity a pointer event or log may
    /// carry (points, points per second).
    public static let coordinateMagnitude = 1e9

    /// Longest stretch a replay covers, seconds, from the first sample to the settled end of
    /// the completion: one hour, at most 864,000 frames at 240 Hz. A recording or a setting
    /// that asks for more is refused with an error rather than computed for hours.
    public static let replaySpan = 3600.0

    /// Whether `seconds` is a finite time within ±``timeMagnitude``.
    public static func isValidTime(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds.magnitude <= timeMagnitude
    }

    /// Whether `value` is a finite coordinate within ±``coordinateMagnitude``.
    public static func isValidCoordinate(_ value: Double) -> Bool {
        value.isFinite && value.magnitude <= coordinateMagnitude
    }
}

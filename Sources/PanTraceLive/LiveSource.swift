internal import PanLiveWire
public import PanTrace

/// Who a live link speaks for: what `pantrace serve` writes into every recording it makes of
/// this device's gestures, and what pages call the device (docs/PROTOCOL.md §4, `source`).
public struct LiveSource: Hashable, Sendable {
    /// The platform, the recordings' `source`.
    public enum Platform: String, Hashable, Sendable, CaseIterable {
        /// An iPhone or iPad app.
        case ios
        /// An Android device (`pantrace live` reading `adb exec-out getevent`).
        case android
        /// A Linux touch screen (`pantrace live` reading `evemu-record`).
        case linux
        /// Anything else (a CSV or JSON Lines log).
        case other
    }

    /// What pages call the device: 1 to 64 characters, no control characters.
    public var name: String
    /// The platform.
    public var platform: Platform
    /// The screen in points and its scale (1…4).
    public var screen: ScreenGeometry
    /// The edge an edge pan starts from, or `nil` for a plain pan.
    public var edge: ScreenEdge?
    /// How the samples' velocity was made: ``VelocitySource/recorded`` (UIKit's `velocity(in:)`)
    /// or the estimator that made it.
    public var velocity: VelocitySource
    /// Chosen once per run (8–64 characters of `A-Z a-z 0-9 -`); a reconnect sends it again, so
    /// the server knows which samples it already has.
    public var session: String
    /// For the server's log.
    public var client: String

    /// This library's name and version, the default ``client``.
    public static let clientName = "PanTraceLive 0.1.0"

    /// Creates a source; the session is a fresh random one unless given.
    public init(
        name: String, platform: Platform = .ios, screen: ScreenGeometry, edge: ScreenEdge? = nil, velocity: VelocitySource = .recorded,
        session: String? = nil, client: String = clientName
    ) {
        self.name = name
        self.platform = platform
        self.screen = screen
        self.edge = edge
        self.velocity = velocity
        self.session = session ?? Self.randomSession()
        self.client = client
    }

    /// What is wrong with the source, in one sentence naming the field, or `nil`: the server's
    /// own rule (``LiveWire/sourceProblem(session:name:platform:width:height:scale:velocity:client:)``).
    public var problem: String? {
        LiveWire.sourceProblem(
            session: session, name: name, platform: platform.rawValue, width: screen.width, height: screen.height, scale: screen.scale,
            velocity: velocity.rawValue, client: client)
    }

    /// 32 hexadecimal digits from the system's random source.
    static func randomSession() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The `source` message (docs/PROTOCOL.md §4).
    var message: String {
        var json = JSONText()
        json.open()
        json.field("type", LiveWire.MessageType.source.rawValue)
        json.field("session", session)
        json.field("name", name)
        json.field("platform", platform.rawValue)
        json.key("screen")
        json.open()
        json.field("width", screen.width)
        json.field("height", screen.height)
        json.close()
        json.field("scale", screen.scale)
        if let edge { json.field("edge", edge.rawValue) }
        json.field("velocity", velocity.rawValue)
        json.field("client", client)
        json.close()
        return json.text
    }
}

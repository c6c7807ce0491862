import PanCapture
import PanLiveWire
import PanTrace
import Testing
@testable import LiveBridge
@testable import PanTraceLive

/// The device and the server read one definition of the live wire: every edge value a device
/// accepts, the server accepts, and every one the server refuses, the device refuses first.
struct LiveWireAgreementTests {
    static let limit = 1e6

    /// Each field at its bound, just past it, and not a number at all.
    static let sampleEdges: [(String, t: Double, tx: Double, vx: Double, touches: Int?, accepted: Bool)] = [
        ("all at rest", 0, 0, 0, 1, true),
        ("tx at the bound", 1, limit, 0, 1, true),
        ("tx past the bound", 1, limit.nextUp, 0, 1, false),
        ("tx below minus the bound", 1, -limit.nextUp, 0, 1, false),
        ("vx at the bound", 1, 0, -limit, 1, true),
        ("vx past the bound", 1, 0, limit * 2, 1, false),
        ("tx not a number", 1, .nan, 0, 1, false),
        ("vx infinite", 1, 0, .infinity, 1, false),
        ("t negative", -0.001, 0, 0, 1, false),
        ("t at the largest time", 4e9, 0, 0, 1, true),
        ("t past the largest time", 4e9.nextUp, 0, 0, 1, false),
        ("no touches", 1, 0, 0, 0, true),
        ("twenty touches", 1, 0, 0, 20, true),
        ("twenty-one touches", 1, 0, 0, 21, false),
        ("minus one touch", 1, 0, 0, -1, false),
        ("touches absent", 1, 0, 0, nil, true)
    ]

    @Test(arguments: sampleEdges.indices)
    func aSampleTheDeviceAcceptsIsOneTheServerAccepts(_ index: Int) {
        let edge = Self.sampleEdges[index]
        let device = LiveSample.problem(
            time: edge.t, translation: PanVector(x: edge.tx, y: 0), velocity: PanVector(x: edge.vx, y: 0), location: PanVector(x: 10, y: 10),
            touches: edge.touches)
        let server = SourceSample(seq: 1, t: edge.t, state: "changed", tx: edge.tx, ty: 0, vx: edge.vx, vy: 0, lx: 10, ly: 10, touches: edge.touches)
            .problem()
        #expect((device == nil) == edge.accepted, "\(edge.0): device says \(device ?? "fine")")
        #expect(device == server, "\(edge.0): one rule, one sentence")
    }

    /// A `source` on both sides of each bound: name and client in Unicode scalars (a single
    /// character can hold thousands of them), session, scale.
    static let sourceEdges: [(String, name: String, session: String, scale: Double, accepted: Bool)] = [
        ("a plain name", "iPhone 15", "0123456789abcdef", 3, true),
        ("64 scalars", String(repeating: "n", count: 64), "0123456789abcdef", 3, true),
        ("65 scalars", String(repeating: "n", count: 65), "0123456789abcdef", 3, false),
        ("one character of 1,000 scalars", "e" + String(repeating: "\u{301}", count: 999), "0123456789abcdef", 3, false),
        ("a control character", "tab\there", "0123456789abcdef", 3, false),
        ("empty name", "", "0123456789abcdef", 3, false),
        ("session of 8", "d", "abcdefgh", 3, true),
        ("session of 7", "d", "abcdefg", 3, false),
        ("session with a dot", "d", "abcd.efgh", 3, false),
        ("scale 1", "d", "0123456789abcdef", 1, true),
        ("scale 4", "d", "0123456789abcdef", 4, true),
        ("scale below 1", "d", "0123456789abcdef", 0.99, false),
        ("scale past 4", "d", "0123456789abcdef", 4.01, false)
    ]

    @Test(arguments: sourceEdges.indices)
    func aSourceTheDeviceAcceptsIsOneTheServerAccepts(_ index: Int) {
        let edge = Self.sourceEdges[index]
        let device = LiveSource(
            name: edge.name, platform: .ios, screen: ScreenGeometry(width: 390, height: 844, scale: edge.scale), session: edge.session
        ).problem
        let announce = SourceAnnounce(
            session: edge.session, name: edge.name, platform: "ios", screen: SourceScreen(width: 390, height: 844), scale: edge.scale,
            velocity: "recorded", client: LiveSource.clientName)
        var server: String?
        do {
            _ = try announce.validated()
        } catch {
            server = error.message
        }
        #expect((device == nil) == edge.accepted, "\(edge.0): device says \(device ?? "fine")")
        #expect(device == server, "\(edge.0)")
    }

    @Test func theSampleStatesAreOneListForBothEnds() {
        for state in TraceRecorder.State.allCases { #expect(TraceRecorder.State(wireName: state.wireName) == state) }
        #expect(LiveWire.sampleStates == "possible, began, changed, ended, cancelled, failed")
        #expect(TraceRecorder.State(wireName: "recognized") == nil && TraceRecorder.State(wireName: "Began") == nil)
    }
}

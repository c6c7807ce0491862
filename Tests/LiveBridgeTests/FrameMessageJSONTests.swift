import Foundation
import PanReplay
import Testing
import TransitionEngine
@testable import LiveBridge

/// The hand-written `frame` encoder against the `Codable` path it replaces on the hot path.
struct FrameMessageJSONTests {
    /// What the bridge's runtime encoder writes (LiveBridge.runController).
    static func codableJSON(_ message: FrameMessage) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(ServerMessage.frame(message)))
    }

    static func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }

    @Test(arguments: ["frame", "frame-release"])
    func goldenFixturesEncodeToTheCodableBytes(name: String) throws {
        let url = WireMessageTests.folder.appendingPathComponent("server/\(name).json")
        let golden = try Data(contentsOf: url)
        guard case .frame(let message) = try JSONDecoder().decode(ServerMessage.self, from: golden) else {
            Issue.record("\(name).json is not a frame")
            return
        }
        let fast = try #require(message.sortedKeysJSON())
        #expect(Self.text(fast) == Self.text(try Self.codableJSON(message)))
        #expect(try WireMessageTests.object(Data(fast)) == WireMessageTests.object(golden))
    }

    @Test(arguments: 0..<4)
    func seededRandomFramesEncodeToTheCodableBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let message = FrameMessage.random(using: &random)
            let fast = message.sortedKeysJSON()
            // A margin of two huge numbers can overflow to infinity: then both must refuse.
            let codable = try? Self.codableJSON(message)
            #expect(Self.text(fast) == Self.text(codable))
            if Self.text(fast) != Self.text(codable) { return }  // one diff is enough to read
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteNumberFallsBackToTheEncoderWhichRejectsIt(value: Double) {
        var random = SplitMix64(seed: 7)
        var message = FrameMessage.random(using: &random)
        message.frame.progress = value
        #expect(message.sortedKeysJSON() == nil)
        #expect(throws: EncodingError.self) { try Self.codableJSON(message) }
        message.frame.progress = 0.5
        #expect(message.sortedKeysJSON() != nil)
    }

    @Test(
        arguments: [
            (0.0, "0"), (-0.0, "-0"), (844, "844"), (-1, "-1"), (0.25, "0.25"), (1e-5, "1e-05"),
            (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000"), (1e16, "1e+16"),
            (-3.14e-12, "-3.14e-12")
        ] as [(Double, String)])
    func numbersAreWrittenAsTheEncoderWritesThem(value: Double, expected: String) {
        var writer = JSONWriter(capacity: 32)
        writer.number(value)
        #expect(Self.text(writer.bytes) == expected)
    }
}

/// A small seeded generator (SplitMix64, Steele et al. 2014), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Double {
    /// Finite values of every shape a formatter must handle: integers, signed zeros, tiny and
    /// huge magnitudes (exponent notation), ordinary fractions and arbitrary bit patterns.
    static func anyFinite(using random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return Double(Int.random(in: -5000...5000, using: &random))
        case 1: return Bool.random(using: &random) ? 0 : -0.0
        case 2: return Double.random(in: -1...1, using: &random)
        case 3: return Double.random(in: -5000...5000, using: &random)
        case 4:
            let exponent = Int.random(in: -30...30, using: &random)
            return Double.random(in: -10...10, using: &random) * pow(10, Double(exponent))
        case 5: return Double(Int64.random(in: -(1 << 60)...(1 << 60), using: &random))
        case 6:
            return [1e15, -1e15, 1e15 - 1, 1e16, 9_007_199_254_740_992, .leastNonzeroMagnitude, .greatestFiniteMagnitude][
                Int.random(in: 0..<7, using: &random)]
        default:
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 1.5
        }
    }
}

extension String {
    /// Strings with everything JSON escaping must handle: quotes, backslashes, slashes, every
    /// control character, DEL, and multi-byte characters.
    static func anyText(using random: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] =
            (0..<0x20).map { Unicode.Scalar(UInt8($0)) }
            + ["\"", "\\", "/", "\u{7F}", "a", "Z", " ", "é", "≤", "→", "😀", "\u{2028}", "\u{FEFF}", ".", "-"]
        let count = Int.random(in: 0..<24, using: &random)
        var text = ""
        for _ in 0..<count { text.unicodeScalars.append(pool[Int.random(in: 0..<pool.count, using: &random)]) }
        return text
    }
}

extension FrameMessage {
    static func random(using random: inout SplitMix64) -> FrameMessage {
        func number() -> Double { .anyFinite(using: &random) }
        func vector() -> Vector2 { Vector2(x: number(), y: number()) }
        let layers = (0..<Int.random(in: 0..<4, using: &random)).map { _ in
            Layer(
                role: LayerRole.allCases.randomElement(using: &random)!, frame: Rect(x: number(), y: number(), width: number(), height: number()),
                scale: number(), translation: vector(), alpha: number(), cornerRadius: number(),
                mask: Bool.random(using: &random) ? CircleMask(center: vector(), radius: number()) : nil)
        }
        let gesture =
            Bool.random(using: &random)
            ? GestureInput(time: number(), phase: GesturePhase.allCases.randomElement(using: &random)!, translation: vector(), velocity: vector())
            : nil
        var release: ReleaseReport?
        if Bool.random(using: &random) {
            let bases: [Decision.Basis] = [.progress, .lookAhead, .projection, .flick, .fling, .direction, .fallback, .cancelledPhase]
            let decision = Decision(
                outcome: Bool.random(using: &random) ? .finish : .cancel, basis: bases.randomElement(using: &random)!,
                statistic: number(), threshold: number(), comparison: Decision.Comparison.allCases.randomElement(using: &random)!,
                axisVelocity: number(), progressVelocity: number(), isVelocityGated: Bool.random(using: &random))
            release = ReleaseReport(
                decision: decision, rule: .anyText(using: &random), completionModel: .anyText(using: &random), completionTime: number())
        }
        let frame = FrameState(
            time: number(), phase: TransitionPhase.allCases.randomElement(using: &random)!, progress: number(),
            renderedProgress: number(), layers: layers, gesture: gesture, release: release)
        var message = FrameMessage(
            seq: random.next(), load: Int.random(in: Int.min...Int.max, using: &random),
            emittedMicroseconds: Int64.random(in: Int64.min...Int64.max, using: &random), recording: .anyText(using: &random), frame: frame)
        // A live gesture's frame: its source and, while the finger is down, the page's own decision.
        if Bool.random(using: &random) { message.source = Int.random(in: 1...64, using: &random) }
        if Bool.random(using: &random) {
            message.ifReleased = .init(decision: .anyText(using: &random), reason: .anyText(using: &random), margin: number())
        }
        return message
    }
}

import Testing
import TransitionEngine

struct TimingCurveTests {
    struct SlopeCase: Sendable, CustomTestStringConvertible {
        let curve: TimingCurve
        let start: Double
        let end: Double
        var testDescription: String { curve.name }
    }

    // docs/MODEL.md §5.1 table of C'(0) and C'(1).
    static let slopes: [SlopeCase] = [
        SlopeCase(curve: .linear, start: 1, end: 1),
        SlopeCase(curve: .easeIn, start: 0, end: 1 / 0.58),
        SlopeCase(curve: .easeOut, start: 1 / 0.58, end: 0),
        SlopeCase(curve: .easeInOut, start: 0, end: 0),
        SlopeCase(curve: .systemDefault, start: 0.4, end: 0),
        SlopeCase(curve: .materialStandard, start: 0, end: 0)
    ]

    @Test(arguments: slopes)
    func endSlopesMatchTheDocumentedTable(_ example: SlopeCase) {
        #expect(abs(example.curve.startSlope - example.start) < 1e-12)
        #expect(abs(example.curve.endSlope - example.end) < 1e-12)
        #expect(abs(example.curve.slope(at: 0) - example.start) < 1e-9)
        #expect(abs(example.curve.slope(at: 1) - example.end) < 1e-9)
    }

    @Test
    func easeOutStartSlopeIsOnePointSevenTwoFour() {
        #expect(abs(TimingCurve.easeOut.startSlope - 1.724) < 1e-3)
        #expect(abs(TimingCurve.easeIn.endSlope - 1.724) < 1e-3)
    }

    @Test(arguments: TimingCurve.named)
    func curvesRunFromZeroToOneMonotonically(_ curve: TimingCurve) {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        var previous = 0.0
        for step in 1...1000 {
            let value = curve.value(at: Double(step) / 1000)
            #expect(value >= previous - 1e-12)
            previous = value
        }
    }

    @Test(arguments: TimingCurve.named)
    func analyticSlopeMatchesACentralDifference(_ curve: TimingCurve) {
        for u in stride(from: 0.05, through: 0.95, by: 0.05) {
            let h = 1e-6
            let numeric = (curve.value(at: u + h) - curve.value(at: u - h)) / (2 * h)
            #expect(abs(curve.slope(at: u) - numeric) < 1e-5, "u = \(u)")
        }
    }

    @Test
    func easeInOutIsSymmetricAboutTheMiddle() {
        let curve = TimingCurve.easeInOut
        #expect(abs(curve.value(at: 0.5) - 0.5) < 1e-12)
        for u in stride(from: 0.0, through: 1.0, by: 0.1) {
            #expect(abs(curve.value(at: u) + curve.value(at: 1 - u) - 1) < 1e-12)
        }
    }

    @Test
    func customCurveSolvesSteepSegmentsWithTheBisectionFallback() {
        // Nearly vertical in the middle: Newton alone struggles where x'(t) ≈ 0.
        let curve = TimingCurve.custom(CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1))
        for u in stride(from: 0.0, through: 1.0, by: 0.01) {
            let value = curve.value(at: u)
            #expect(value >= 0 && value <= 1)
        }
        #expect(abs(curve.value(at: 0.5) - 0.5) < 1e-9)
    }

    @Test
    func namesRoundTrip() {
        for curve in TimingCurve.named {
            #expect(TimingCurve(name: curve.name) == curve)
        }
        #expect(TimingCurve(name: "bouncy") == nil)
    }
}

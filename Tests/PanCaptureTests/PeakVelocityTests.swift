import PanTrace
import Testing

@testable import PanCapture

/// The peak `pantrace inspect` reports: the lsq2 tracker's largest estimate from the third
/// sample on, from translations; recorded velocities play no part.
struct PeakVelocityTests {
    static func samples(speed: Double, count: Int, recordedFirst: PanVector) -> [PanSample] {
        (0..<count).map { i in
            let t = Double(i) / 120
            return PanSample(
                time: t, phase: i == 0 ? .began : (i == count - 1 ? .ended : .changed),
                translation: PanVector(x: 0, y: speed * t), velocity: i == 0 ? recordedFirst : PanVector(x: 0, y: speed))
        }
    }

    @Test func aStartOfGestureArtefactDoesNotSetThePeak() {
        let samples = Self.samples(speed: 800, count: 20, recordedFirst: PanVector(x: -59_000, y: 19_000))
        let peak = PeakVelocity.of(samples)
        #expect(abs(peak - 800) < 1, "\(peak)")
    }

    @Test(arguments: [0, 1, 2])
    func tooFewSamplesGiveZero(count: Int) {
        #expect(PeakVelocity.of(Self.samples(speed: 800, count: count, recordedFirst: .zero)) == 0)
    }

    @Test func theThirdSampleIsTheFirstThatCounts() {
        #expect(PeakVelocity.of(Self.samples(speed: 800, count: 4, recordedFirst: .zero)) > 0)
    }
}

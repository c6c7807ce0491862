import Foundation
import PanCapture
import PanTrace
import Testing

/// `DecimalText.fixed` writes what `printf("%.*f")` writes, on both sides of every tie.
struct DecimalTextTests {
    static func printf(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    @Test(arguments: 0...4)
    func seededValuesOfEveryMagnitudeReadAsPrintfWritesThem(digits: Int) {
        var generator = SeededGenerator(seed: 2026 &+ UInt64(digits))
        for _ in 0..<20_000 {
            let exponent = Double(generator.next() % 40) - 20
            let sign: Double = generator.next() & 1 == 0 ? 1 : -1
            let value = sign * Double(generator.next() >> 11) / Double(1 << 53) * pow(10, exponent)
            #expect(DecimalText.fixed(value, digits: digits) == Self.printf(value, digits), "\(value)")
        }
    }

    @Test func tiesRoundHalfToEvenOnTheExactBinaryValue() {
        // Exact binary ties round to even; decimal "ties" that are not exact in binary go the
        // way their binary value lies (0.125 is exact; 0.015 is a little below, 1.005 too).
        let cases: [(Double, Int, String)] = [
            (0.125, 2, "0.12"), (0.375, 2, "0.38"), (2.5, 0, "2"), (3.5, 0, "4"), (0.0625, 3, "0.062"),
            (0.015, 2, "0.01"), (1.005, 2, "1.00"), (0.045, 2, "0.04"), (1.0000000000000002, 0, "1"),
            (0.49999999999999994, 0, "0"), (0.5, 0, "0"), (1.5, 0, "2")
        ]
        for (value, digits, text) in cases {
            #expect(DecimalText.fixed(value, digits: digits) == text, "\(value)")
            #expect(Self.printf(value, digits) == text, "printf \(value)")
        }
    }

    @Test func signsZerosAndWhatFallsBackReadAsPrintf() {
        for value in [-0.0, 0.0, -0.04, -0.05, -0.06, 0x1p51 / 1000, 0x1p51 / 1000 - 1, 1e300, -1e300, .infinity, -.infinity, .nan] {
            for digits in [0, 1, 3] {
                #expect(DecimalText.fixed(value, digits: digits) == Self.printf(value, digits), "\(value) \(digits)")
            }
        }
    }

    @Test func withoutNegativeZeroAValueThatRoundsToZeroHasNoSign() {
        #expect(DecimalText.fixed(-0.04, digits: 1, negativeZero: false) == "0.0")
        #expect(DecimalText.fixed(-0.0, digits: 2, negativeZero: false) == "0.00")
        #expect(DecimalText.fixed(-0.05000001, digits: 1, negativeZero: false) == "-0.1")
        #expect(DecimalText.fixed(-0.04, digits: 1) == "-0.0")
    }
}

import Testing

@testable import PanCapture

struct ASCIINumberTests {
    static func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

    @Test(arguments: [
        ("235089067.457", Int64(235_089_067_457_000)), ("0", 0), ("12.5", 12_500_000), ("-3", -3_000_000),
        ("0.000001", 1), ("0.0000004", 0), ("0.0000005", 1), ("1E3", 1_000_000_000), ("4.5e0", 4_500_000),
        ("9007199254.740993", 9_007_199_254_740_993)
    ])
    func millisecondsBecomeExactNanoseconds(text: String, nanoseconds: Int64) {
        #expect(ASCIINumber.nanoseconds(fromMilliseconds: Self.bytes(text)) == nanoseconds)
    }

    @Test(arguments: ["", "-", ".", "abc", "1.2.3", "nan", "inf", "99999999999999999999"])
    func notMillisecondsGiveNil(text: String) {
        #expect(ASCIINumber.nanoseconds(fromMilliseconds: Self.bytes(text)) == nil)
    }

    @Test(arguments: ["0.1", "123.456", "-0.0001", "1e5", "2.5E-3", "12345678901234567890.5", "0.30000000000000004", "951.698181"])
    func decimalsMatchTheStandardParser(text: String) {
        #expect(ASCIINumber.double(Self.bytes(text)) == Double(text))
    }

    @Test func nanAndInfinityParseSoCallersCanNameThem() {
        #expect(ASCIINumber.double(Self.bytes("nan"))?.isNaN == true)
        #expect(ASCIINumber.double(Self.bytes("-inf")) == -.infinity)
        #expect(ASCIINumber.double(Self.bytes("x1")) == nil)
    }
}

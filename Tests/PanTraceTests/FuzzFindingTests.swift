import Foundation
import Testing
@testable import PanTrace

/// Files the structure-aware fuzzer found (docs/FUZZING.md), kept as regressions: each is
/// read correctly, or refused with a clear error, and what is read writes back the same.
struct FuzzFindingTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    /// A 40,023-byte chunk under a 64 KiB chunk limit was refused: the inflater counted its
    /// last output twice.
    @Test func aChunkJustUnderTheLimitIsRead() throws {
        let file = Self.bytes(
            "1f8b0800000000000203edc1b10d802000003060c1b788612584f0800947789aa3e778069b57b4eda5cd51ce9abebc568cf7f13ee9020000000000000000000000"
                + "0000000000000000000000000000000000000000000000000000007ea1860d71f08f87579c0000")
        var output: [UInt8] = []
        #expect(GzipInflater().inflateMember(file, from: 0, limit: 40_023, into: &output) == .complete(consumed: file.count))
        #expect(output.count == 40_023)
        #expect(GzipInflater().inflateMember(file, from: 0, limit: 40_022, into: &output) == .overLimit)
    }

    @Test(arguments: [
        // Unknown-keys JSON nested 500 deep: took seconds to refuse, now refused at depth 64.
        (
            "1f8b08000000000002030b70f40b09727476657ac19e92c2c858c17548bc5a292535b540c9aa5a297194182546895162941825468951629418628461ed28187980c195010087190c9cd80b0000",
            "nested deeper than 64"
        ),
        // A translation of 2⁵³ ticks, which the writer refuses.
        (
            "1f8b0800000000000403012800d7ff50414e545241434502e8076464010178005300010200014000408080808080808020400040004000033d185c28000000",
            "beyond what the grid stores exactly"
        ),
        // −4000000000000002 ticks: between 2⁵¹ and 2⁵³, it would read back as …03.
        (
            "1f8b0800000000000403012800d7ff50414e545241434502e80764640101780053000102000140004000408380d0b1d2fe9a0e40004000ffeb26d528000000",
            "beyond what the grid stores exactly"
        )
    ])
    func whatCannotBeWrittenBackIsRefused(hex: String, problem: String) throws {
        let error = #expect(throws: PanTraceError.self) { try TraceReader().decode(Self.bytes(hex)) }
        #expect(error?.description.contains(problem) == true, "\(error.map(String.init(describing:)) ?? "")")
    }

    /// Values just inside the exact range read and write back to the same samples.
    @Test(arguments: [Int64(1) << 51 - 1, -(Int64(1) << 51 - 1), 4_000_000_000_000_000, -4_000_000_000_000_000])
    func ticksThatComeBackExactlyAreReadAndRoundTrip(ticks: Int64) throws {
        let value = Double(ticks) / 100
        var ok = true
        let exact = QuantizedColumns.ticks(value * 100, &ok) == ticks && ok
        let sample = PanSample(time: 0, phase: .began, translation: PanVector(x: value, y: 0), velocity: .zero)
        let trace = Trace(metadata: TraceMetadata(id: "t"), samples: [sample])
        if exact {
            let read = try TraceReader().decode(TraceEncoder.encode(trace)).trace
            #expect(try TraceReader().decode(TraceEncoder.encode(read)).trace.samples == read.samples)
        }
    }
}

// How fast columns coded in blocks of one bit width would decode (BENCHMARKS.md, "Metadata in
// one box, and what block-coded columns would cost"). Not part of the package: a prototype of a
// coding the format does not have, to weigh a format version before building it.
//
//     swiftc -O Benchmarks/prototypes/block_unpack.swift -o /tmp/block_unpack && /tmp/block_unpack
//
// Columns of 63 values (the benchmark corpus's gestures), each in blocks of 32 (Parquet's
// miniblock): a width byte, the block's minimum, then every value less the minimum in that
// width. Decoding unpacks each value with one unaligned load, a shift and a mask, then undoes
// an order-1 prediction (a running sum), which every decoder of predicted columns pays.
// Widths are drawn from 6…10 bits, the range of the corpus's residuals (size_floor.py).
import Foundation

let columns = 200_000
let perColumn = 63
let blockSize = 32

var generator = SystemRandomNumberGenerator()
var stream: [UInt8] = []
var starts: [Int] = []
for _ in 0..<columns {
    starts.append(stream.count)
    var first = 0
    while first < perColumn {
        let count = min(blockSize, perColumn - first)
        let width = Int.random(in: 6...10, using: &generator)
        let minimum = Int64.random(in: -500...500, using: &generator)
        stream.append(UInt8(width))
        withUnsafeBytes(of: minimum.littleEndian) { stream.append(contentsOf: $0) }
        var bits = [UInt8](repeating: 0, count: (count * width + 7) / 8)
        for index in 0..<count {
            let value = UInt64.random(in: 0..<(1 << UInt64(width)), using: &generator)
            for bit in 0..<width where (value >> UInt64(bit)) & 1 == 1 {
                let position = index * width + bit
                bits[position >> 3] |= 1 << UInt8(position & 7)
            }
        }
        stream += bits
        first += count
    }
}
stream += [UInt8](repeating: 0, count: 16)  // room for the last value's whole-word load

var values = [Int64](repeating: 0, count: perColumn)

func decodeAll() -> Int64 {
    var check: Int64 = 0
    stream.withUnsafeBytes { raw in
        values.withUnsafeMutableBufferPointer { out in
            for column in 0..<columns {
                var at = starts[column]
                var first = 0
                while first < perColumn {
                    let count = min(blockSize, perColumn - first)
                    let width = Int(raw[at])
                    let minimum = raw.loadUnaligned(fromByteOffset: at + 1, as: Int64.self)
                    at += 9
                    let mask: UInt64 = (1 << UInt64(width)) &- 1
                    for index in 0..<count {
                        let position = index &* width
                        let word = raw.loadUnaligned(fromByteOffset: at &+ (position >> 3), as: UInt64.self)
                        out[first &+ index] = Int64(bitPattern: (word >> UInt64(position & 7)) & mask) &+ minimum
                    }
                    at += (count * width + 7) / 8
                    first += count
                }
                var sum: Int64 = 0
                for index in 0..<perColumn {
                    sum &+= out[index]
                    out[index] = sum
                }
                check &+= out[perColumn - 1]
            }
        }
    }
    return check
}

var best = Double.infinity
var check: Int64 = 0
for _ in 0..<7 {
    let start = DispatchTime.now().uptimeNanoseconds
    check &+= decodeAll()
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
}
let perValue = String(format: "%.2f", best / Double(columns * perColumn))
print("blocks of \(blockSize), \(perColumn)-value columns: \(perValue) ns a value (unpack and running sum; check \(check & 1))")

internal import Foundation
internal import TransitionEngine

// Release states to and from the bytes of the temporary file (`Sweep/ReleaseSpill.swift` has
// the file): the one place the tuner reads and writes raw bytes.
extension ReleaseSpill {
    /// `states` as records: eleven little-endian words each (ten doubles' bits, then the
    /// phase's two bits and whether it changed).
    static func encode(_ states: ReleaseBlock.SubSequence) -> Data {
        var data = Data(count: states.count * recordSize)
        data.withUnsafeMutableBytes { bytes in
            var offset = 0
            for state in states {
                func store(_ word: UInt64) {
                    bytes.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                store(state.progress.bitPattern)
                store(state.velocity.x.bitPattern)
                store(state.velocity.y.bitPattern)
                store(state.axisVelocity.bitPattern)
                store(state.crossVelocity.bitPattern)
                store(state.distance.bitPattern)
                store(state.gain.bitPattern)
                store(state.time.bitPattern)
                store(state.lastMoveTime.bitPattern)
                store(state.startProgress.bitPattern)
                store(UInt64(state.phase.storedBits) | (state.hasChanged ? 4 : 0))
            }
        }
        return data
    }

    /// The states of whole records in `data`, into `states` (replaced, its capacity kept).
    static func decode(_ data: Data, into states: inout [ReleaseState]) {
        states.removeAll(keepingCapacity: true)
        data.withUnsafeBytes { bytes in
            var offset = 0
            func word() -> UInt64 {
                defer { offset += 8 }
                return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            func number() -> Double { Double(bitPattern: word()) }
            while offset + recordSize <= bytes.count {
                let progress = number(), x = number(), y = number(), axis = number(), cross = number()
                let distance = number(), gain = number(), time = number(), lastMoveTime = number(), startProgress = number()
                let flags = word()
                states.append(
                    ReleaseState(
                        progress: progress, velocity: Vector2(x: x, y: y), axisVelocity: axis, crossVelocity: cross, distance: distance,
                        gain: gain, phase: GesturePhase(storedBits: flags), time: time, lastMoveTime: lastMoveTime, startProgress: startProgress,
                        hasChanged: flags & 4 != 0))
            }
        }
    }
}

import Foundation
import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine

@testable import PanReplay
@testable import PanTune

/// The columns `tune` keeps per gesture give back exactly what was put in.
struct TuneStorageTests {
    static func state(_ index: Int, _ random: inout SeededGenerator) -> ReleaseState {
        func value() -> Double { Double(Int(random.next() % 20_001) - 10_000) / 977 }
        return ReleaseState(
            progress: value(), velocity: Vector2(x: value(), y: value()), axisVelocity: value(), crossVelocity: value(),
            distance: 390, gain: 1, phase: index % 7 == 3 ? .cancelled : .ended, time: Double(index) / 60, lastMoveTime: Double(index) / 60,
            startProgress: nil, hasChanged: index % 5 != 1)
    }

    /// Each shadow column (start progress, last move, distance, gain) is stored only from the
    /// first trace that differs from its base, before it (index 0), in the middle, or never.
    @Test(arguments: [nil, 0, 1, 57])
    func releaseColumnsGiveBackEveryStateToTheBit(divergingAt: Int?) {
        var random = SeededGenerator(seed: 11)
        var states = (0..<120).map { Self.state($0, &random) }
        if let divergingAt {
            states[divergingAt].startProgress = -0.0
            states[divergingAt + 3].lastMoveTime = states[divergingAt + 3].time - 0.25
            states[divergingAt + 5].distance = 844
            states[divergingAt + 7].gain = 0.5
            states[divergingAt + 9].progress = Double.nan
        }
        let columns = ReleaseBlock(states)
        #expect(columns.count == states.count)
        // States alike store only their own seven columns; each that differs adds one.
        #expect(columns.fullShadowColumns == (divergingAt == nil ? 0 : 4))
        for (index, state) in states.enumerated() {
            let back = columns[index]
            let fields: [(Double, Double)] = [
                (back.progress, state.progress), (back.startProgress, state.startProgress), (back.velocity.x, state.velocity.x),
                (back.velocity.y, state.velocity.y), (back.axisVelocity, state.axisVelocity), (back.crossVelocity, state.crossVelocity),
                (back.distance, state.distance), (back.gain, state.gain), (back.time, state.time), (back.lastMoveTime, state.lastMoveTime)
            ]
            #expect(fields.allSatisfy { $0.0.bitPattern == $0.1.bitPattern }, "trace \(index)")
            #expect(back.phase == state.phase && back.hasChanged == state.hasChanged, "trace \(index)")
        }
    }

    static func sameBits(_ a: ReleaseState, _ b: ReleaseState) -> Bool {
        let pairs: [(Double, Double)] = [
            (a.progress, b.progress), (a.startProgress, b.startProgress), (a.velocity.x, b.velocity.x), (a.velocity.y, b.velocity.y),
            (a.axisVelocity, b.axisVelocity), (a.crossVelocity, b.crossVelocity), (a.distance, b.distance), (a.gain, b.gain),
            (a.time, b.time), (a.lastMoveTime, b.lastMoveTime)
        ]
        return pairs.allSatisfy { $0.0.bitPattern == $0.1.bitPattern } && a.phase == b.phase && a.hasChanged == b.hasChanged
    }

    /// Past `spillAfter` states, each full block goes to a temporary file: on either side of
    /// the limit, and across several blocks of the file and a partial block in memory, every state comes
    /// back in order to the bit, to two readers at once.
    @Test(arguments: [(20, 21, 0), (21, 21, 1), (100, 7, 14), (3, 1, 3)])
    func spilledStatesComeBackInOrderToTheBit(count: Int, spillAfter: Int, files: Int) {
        var random = SeededGenerator(seed: 12)
        var states = (0..<count).map { Self.state($0, &random) }
        if count > 9 {
            states[9].startProgress = -0.0
            states[9].progress = .nan
            states[8].distance = 844
        }
        let columns = ReleaseColumns(states, spillingAfter: spillAfter)
        #expect(columns.count == count)
        #expect(columns.spilledBlocks == files)
        var first = columns.makeIterator(), second = columns.makeIterator()
        for (index, state) in states.enumerated() {
            let a = first.next(), b = second.next()
            #expect(a.map { Self.sameBits($0, state) } == true, "state \(index) (first reader)")
            #expect(b.map { Self.sameBits($0, state) } == true, "state \(index) (second reader)")
        }
        #expect(first.next() == nil)
        #expect(Array(columns).count == count)
    }

    /// A spill file is unlinked as soon as it is open: nothing is left in the folder, even
    /// while its states are still read.
    @Test
    func aSpillLeavesNoFileBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededGenerator(seed: 13)
        let states = (0..<50).map { Self.state($0, &random) }
        let columns = ReleaseColumns(states, spillingAfter: 16, to: folder)
        #expect(columns.spilledBlocks == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(zip(columns, states).allSatisfy(Self.sameBits))
    }

    /// Two copies that go their own ways after a spill share the file's first block: the first
    /// to fill its next block writes it, the other keeps its own in memory, and each reads back
    /// its own states.
    @Test
    func copiesThatGoTheirOwnWayKeepTheirOwnStates() {
        var random = SeededGenerator(seed: 15)
        let shared = (0..<10).map { Self.state($0, &random) }
        let mine = (10..<25).map { Self.state($0, &random) }
        let theirs = (25..<40).map { Self.state($0, &random) }
        var first = ReleaseColumns(shared, spillingAfter: 8)
        var second = first
        for state in mine { first.append(state) }
        for state in theirs { second.append(state) }
        #expect(first.spilledBlocks == 3)
        #expect(second.spilledBlocks == 1)
        #expect(first.count == 25 && second.count == 25)
        #expect(zip(first, shared + mine).allSatisfy(Self.sameBits) && Array(first).count == 25)
        #expect(zip(second, shared + theirs).allSatisfy(Self.sameBits) && Array(second).count == 25)
    }

    /// A folder that cannot take the file keeps the states in memory: the same states, no file.
    @Test
    func aRefusedSpillKeepsTheStatesInMemory() {
        let folder = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        var random = SeededGenerator(seed: 14)
        let states = (0..<40).map { Self.state($0, &random) }
        let columns = ReleaseColumns(states, spillingAfter: 8, to: folder)
        #expect(columns.spilledBlocks == 0)
        #expect(columns.count == 40)
        #expect(zip(columns, states).allSatisfy(Self.sameBits))
    }

    /// A chunked column gives back every element across the chunks' edges, and keeps room
    /// for at most one chunk more than it holds.
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 2 * 65_536 + 3])
    func chunkedColumnsGiveBackEveryElement(count: Int) {
        var column = ChunkedColumn<UInt32>()
        for value in 0..<count { column.append(UInt32(truncatingIfNeeded: value &* 2_654_435_761)) }
        #expect(column.count == count)
        #expect(column.indices.allSatisfy { column[$0] == UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) })
        #expect(Array(column).count == count)
    }

    /// Labels come back as added, a corpus gesture's `file#id` included, and a file name with a
    /// `#` that is not followed by the identifier is kept whole.
    @Test func tunedTracesGiveBackEveryLabel() throws {
        let traces = [
            TunedTrace(file: "c.pantraces#g-1", id: "g-1", intent: .finish, tags: ["a", "b"], source: "synth", foldHash: 1),
            TunedTrace(file: "c.pantraces#g-2", id: "g-2", intent: .cancel, tags: ["a", "b"], source: "synth", foldHash: 2),
            TunedTrace(file: "odd#name.pantrace", id: "name", intent: .cancel, tags: [], source: "phone", foldHash: .max),
            TunedTrace(file: "plain.pantrace", id: "", intent: .finish, tags: ["ü"], source: "", foldHash: 0),
            TunedTrace(file: "x#", id: "", intent: .finish, tags: ["a", "b"], source: "synth", foldHash: 9)
        ]
        let stored = try TunedTraces(traces)
        #expect(Array(stored) == traces)
        #expect(stored.labelSets.count == 3)
    }
}

/// A track that estimates the velocity at the release only gives every release state the
/// whole track gives, to the bit, for every estimator and preset.
struct ReleaseOnlyVelocityTests {
    @Test(arguments: VelocitySource.allCases)
    func releaseStatesEqualTheWholeTrack(source: VelocitySource) throws {
        var traces = Fixtures.swipes(12) + Fixtures.edgeSwipes(12)
        traces.append(Fixtures.handMade(times: [0, 0.008, 0.016, 0.05], endPhase: .cancelled, intent: .cancel))
        for trace in traces {
            let whole = try GestureTrack(trace: trace, velocity: source)
            let fast = try GestureTrack(trace: trace, velocity: source, releaseVelocityOnly: true)
            #expect(fast.release == whole.release && fast.lastMoveTime == whole.lastMoveTime, "\(trace.metadata.id)")
            for name in ["swipe-dismiss", "swipe-back", "drawer", "uikit-percent"] {
                let preset = try Preset(named: name)
                #expect(fast.releaseState(preset: preset) == whole.releaseState(preset: preset), "\(trace.metadata.id) \(name)")
            }
        }
    }
}

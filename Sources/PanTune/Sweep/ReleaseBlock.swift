internal import TransitionEngine

/// Release states kept in columns in memory: about 49 bytes a trace instead of a
/// `ReleaseState`'s 96 (the part of ``ReleaseColumns`` not yet spilled to a file).
///
/// The progress, the velocity and its two components and the release time take a column
/// each. The other fields usually repeat something already kept: the start progress is the
/// progress, the time of the last move is the release time, the distance and the gain are one
/// screen's. Such a column costs nothing until a trace differs; from then on it is stored in
/// full. Values are kept to the bit (`-0.0`, NaN payloads included), so an element read back
/// equals the state appended.
struct ReleaseBlock: Sendable, RandomAccessCollection {
    /// A column that costs nothing while each value equals its base.
    private struct Shadow: Sendable {
        /// Empty while every value equals its base; every value once one did not.
        var values: [Double] = []

        @inline(__always)
        func value(at index: Int, base: Double) -> Double { values.isEmpty ? base : values[index] }

        /// Appends `value`, whose base is `base`; when the column must be stored in full, the
        /// earlier elements' bases are `bases` (all of them), or `base` for each when nil.
        mutating func append(_ value: Double, base: Double, bases: [Double]?, count: Int) {
            if values.isEmpty {
                guard value.bitPattern != base.bitPattern else { return }
                values = bases.map { Array($0[0..<count]) } ?? [Double](repeating: base, count: count)
            }
            values.append(value)
        }
    }

    private var progress: [Double] = []
    private var velocityX: [Double] = []
    private var velocityY: [Double] = []
    private var axisVelocity: [Double] = []
    private var crossVelocity: [Double] = []
    private var time: [Double] = []
    /// The phase's index in `GesturePhase.allCases`, and 4 when a `changed` came first.
    private var flags: [UInt8] = []
    private var startProgress = Shadow()
    private var lastMoveTime = Shadow()
    private var distance = Shadow()
    private var gain = Shadow()
    /// The first trace's distance and gain: the bases of their columns.
    private var firstDistance = 1.0
    private var firstGain = 1.0

    /// How many of the four shadow columns are stored in full (tests check that states alike
    /// store none).
    var fullShadowColumns: Int { [startProgress, lastMoveTime, distance, gain].filter { !$0.values.isEmpty }.count }

    private static let changedFlag: UInt8 = 4

    /// No states.
    init() {}

    /// The states given, in order.
    init(_ states: some Sequence<ReleaseState>) {
        for state in states { append(state) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { progress.count }

    /// The state at `index`, equal to the one appended.
    @inline(__always)
    subscript(index: Int) -> ReleaseState {
        let progress = progress[index]
        let time = time[index]
        let flags = flags[index]
        return ReleaseState(
            progress: progress, velocity: Vector2(x: velocityX[index], y: velocityY[index]), axisVelocity: axisVelocity[index],
            crossVelocity: crossVelocity[index], distance: distance.value(at: index, base: firstDistance),
            gain: gain.value(at: index, base: firstGain), phase: GesturePhase(storedBits: flags), time: time,
            lastMoveTime: lastMoveTime.value(at: index, base: time), startProgress: startProgress.value(at: index, base: progress),
            hasChanged: flags & Self.changedFlag != 0)
    }

    /// Makes room for `count` states in the columns every state fills.
    mutating func reserveCapacity(_ count: Int) {
        progress.reserveCapacity(count)
        velocityX.reserveCapacity(count)
        velocityY.reserveCapacity(count)
        axisVelocity.reserveCapacity(count)
        crossVelocity.reserveCapacity(count)
        time.reserveCapacity(count)
        flags.reserveCapacity(count)
    }

    /// Forgets every state, keeping the columns' capacity.
    mutating func removeAll() {
        progress.removeAll(keepingCapacity: true)
        velocityX.removeAll(keepingCapacity: true)
        velocityY.removeAll(keepingCapacity: true)
        axisVelocity.removeAll(keepingCapacity: true)
        crossVelocity.removeAll(keepingCapacity: true)
        time.removeAll(keepingCapacity: true)
        flags.removeAll(keepingCapacity: true)
        startProgress = Shadow()
        lastMoveTime = Shadow()
        distance = Shadow()
        gain = Shadow()
    }

    /// Adds `state` at the end.
    mutating func append(_ state: ReleaseState) {
        let count = progress.count
        if count == 0 {
            firstDistance = state.distance
            firstGain = state.gain
        }
        startProgress.append(state.startProgress, base: state.progress, bases: progress, count: count)
        lastMoveTime.append(state.lastMoveTime, base: state.time, bases: time, count: count)
        distance.append(state.distance, base: firstDistance, bases: nil, count: count)
        gain.append(state.gain, base: firstGain, bases: nil, count: count)
        self.progress.append(state.progress)
        self.time.append(state.time)
        velocityX.append(state.velocity.x)
        velocityY.append(state.velocity.y)
        axisVelocity.append(state.axisVelocity)
        crossVelocity.append(state.crossVelocity)
        let phase = state.phase.storedBits
        flags.append(phase | (state.hasChanged ? Self.changedFlag : 0))
    }
}

extension GesturePhase {
    /// The phase's two bits where the tuner stores release states (``ReleaseBlock``, the
    /// spill's records).
    var storedBits: UInt8 {
        switch self {
        case .began: 0
        case .changed: 1
        case .ended: 2
        case .cancelled: 3
        }
    }

    /// The phase of the two low bits of `bits`.
    init(storedBits bits: some BinaryInteger) {
        switch bits & 3 {
        case 0: self = .began
        case 1: self = .changed
        case 2: self = .ended
        default: self = .cancelled
        }
    }
}

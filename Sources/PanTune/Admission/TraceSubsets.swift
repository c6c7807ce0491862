package import PanTrace

/// A tuned trace as the report needs it, without its samples: where it came from, its label,
/// its tags and source (the breakdown) and its fold hash (cross-validation).
package struct TunedTrace: Sendable, Hashable {
    /// The file the trace came from.
    package var file: String
    /// The trace's identifier.
    package var id: String
    /// What the person meant.
    package var intent: Intent
    /// The trace's tags, as recorded.
    package var tags: [String]
    /// The trace's source.
    package var source: String
    /// ``TraceSubsets/foldHash(of:)`` of the trace.
    package var foldHash: UInt64

    /// Creates a tuned trace from its parts.
    package init(file: String, id: String, intent: Intent, tags: [String], source: String, foldHash: UInt64) {
        self.file = file
        self.id = id
        self.intent = intent
        self.tags = tags
        self.source = source
        self.foldHash = foldHash
    }

    /// The tuned trace of `trace`, read from `file`; `foldHash` when it was computed already
    /// (``FoldHash/of(count:_:)``).
    package init(file: String, trace: Trace, foldHash: UInt64? = nil) {
        self.init(
            file: file, id: trace.metadata.id, intent: trace.metadata.intent, tags: trace.metadata.tags, source: trace.metadata.source,
            foldHash: foldHash ?? TraceSubsets.foldHash(of: trace))
    }
}

/// The subsets of the tuned traces a sweep also scores: the cross-validation folds and the
/// groups of the breakdown (docs/TUNE.md, "Cross-validation" and "Breakdown").
///
/// Subset `0..<foldCount` are the folds; the groups follow. Each trace is in exactly one fold
/// and in any number of groups.
struct TraceSubsets: Sendable {
    /// A group of traces sharing one tag or one source.
    struct Group: Sendable, Hashable {
        /// `tag` or `source`.
        var kind: String
        /// The tag or the source.
        var value: String
        /// How many tuned traces are in it.
        var traces: Int
    }

    /// Folds when there are enough traces.
    static let preferredFoldCount = 5
    /// The seed of the fold assignment: the fold hash starts from it.
    static let seed: UInt64 = 1
    /// The most groups broken down; the largest are kept.
    static let maximumGroups = 16

    /// How many folds (0 when fewer than two traces were tuned).
    let foldCount: Int
    /// The groups, largest first (then by kind and value).
    let groups: [Group]
    /// Groups that qualified but were left out for ``maximumGroups``.
    let groupsLeftOut: Int
    /// The fold of each trace, in corpus order.
    let foldOfTrace: [UInt8]
    /// Subset indices of each trace, flattened: trace `i`'s are `members[starts[i]..<starts[i + 1]]`.
    private let starts: [Int32]
    private let members: [Int32]

    /// Subsets: all the folds and groups.
    var count: Int { foldCount + groups.count }

    /// The fold hash of a trace: 64-bit FNV-1a, started from ``seed``, over the identifier's
    /// UTF-8 bytes and then, per sample, the little-endian bytes of the time, the translation
    /// and the velocity (x, y), each a 64-bit IEEE double. It depends on the gesture alone, not
    /// on where it is in the corpus, so a corpus tuned in shards and merged has the same folds.
    static func foldHash(of trace: Trace) -> UInt64 { FoldHash.of(trace) }

    /// Assigns traces read from files to folds and groups (as the sweep does).
    init(traces: [Trace]) {
        do {
            self.init(traces: try TunedTraces(traces.map { TunedTrace(file: $0.metadata.id, trace: $0) }))
        } catch {
            // Only past 4 GiB of identifiers, which traces held in memory cannot reach first.
            preconditionFailure("\(error)")
        }
    }

    /// Assigns `traces` to folds and groups.
    ///
    /// A trace's fold is its fold hash (``foldHash(of:)``) modulo the fold count: the same
    /// gesture is in the same fold whatever else is tuned with it and in whatever order. A
    /// group is a tag or a source that at least two tuned traces carry and not all of them do.
    /// Groups are counted per distinct combination of tags and source, not per trace, and the
    /// subsets of each trace are stored flat as 32-bit indices.
    init(traces: TunedTraces) {
        let n = traces.count
        let count = n >= 2 ? min(Self.preferredFoldCount, n) : 0
        foldCount = count
        let folds = count > 0 ? traces.foldHashes.map { UInt8($0 % UInt64(count)) } : [UInt8](repeating: 0, count: n)
        foldOfTrace = folds

        struct Label: Hashable {
            var kind: String
            var value: String
        }
        var tracesOfSet = [Int](repeating: 0, count: traces.labelSets.count)
        for set in traces.labelSetOfTrace { tracesOfSet[Int(set)] += 1 }
        var candidates: [Label: (traces: Int, sets: [Int])] = [:]
        for (number, set) in traces.labelSets.enumerated() where tracesOfSet[number] > 0 {
            // Each label once per trace (a tag may repeat).
            var labels = set.tags.enumerated().filter { !set.tags[..<$0.offset].contains($0.element) }.map { Label(kind: "tag", value: $0.element) }
            labels.append(Label(kind: "source", value: set.source))
            for label in labels {
                candidates[label, default: (0, [])].traces += tracesOfSet[number]
                candidates[label, default: (0, [])].sets.append(number)
            }
        }
        var qualified = candidates.filter { $0.value.traces >= 2 && $0.value.traces < n }.map {
            (group: Group(kind: $0.key.kind, value: $0.key.value, traces: $0.value.traces), sets: $0.value.sets)
        }
        qualified.sort {
            ($0.group.traces, $1.group.kind, $1.group.value) > ($1.group.traces, $0.group.kind, $0.group.value)
        }
        groupsLeftOut = max(0, qualified.count - Self.maximumGroups)
        qualified = Array(qualified.prefix(Self.maximumGroups))
        groups = qualified.map(\.group)

        // The groups of each combination of tags and source, ascending.
        var groupsOfSet = [[Int32]](repeating: [], count: traces.labelSets.count)
        for (number, entry) in qualified.enumerated() {
            for set in entry.sets { groupsOfSet[set].append(Int32(count + number)) }
        }
        var starts = [Int32](repeating: 0, count: n + 1)
        var total = 0
        for index in 0..<n {
            total += (count > 0 ? 1 : 0) + groupsOfSet[Int(traces.labelSetOfTrace[index])].count
            starts[index + 1] = Int32(total)
        }
        var members: [Int32] = []
        members.reserveCapacity(total)
        for index in 0..<n {
            if count > 0 { members.append(Int32(folds[index])) }
            members += groupsOfSet[Int(traces.labelSetOfTrace[index])]
        }
        self.starts = starts
        self.members = members
    }

    /// Folds only, as given (no groups): for sweeping bare statistics.
    init(foldCount: Int, foldOfTrace: [Int]) {
        self.foldCount = foldCount
        self.foldOfTrace = foldOfTrace.map { UInt8($0) }
        groups = []
        groupsLeftOut = 0
        starts = (0...foldOfTrace.count).map { Int32($0) }
        members = foldOfTrace.map { Int32($0) }
    }

    /// The subsets trace `index` is in.
    @inline(__always)
    func subsets(ofTrace index: Int) -> LazyMapSequence<ArraySlice<Int32>, Int> {
        members[Int(starts[index])..<Int(starts[index + 1])].lazy.map { Int($0) }
    }
}

/// Correct decisions and the smallest margin per subset, for one grid point.
struct SubsetTally: Sendable, Hashable {
    var correct: [Int]
    var minimumMargin: [Double]

    init(subsets: Int) {
        correct = [Int](repeating: 0, count: subsets)
        minimumMargin = [Double](repeating: .infinity, count: subsets)
    }

    mutating func reset() {
        for index in correct.indices {
            correct[index] = 0
            minimumMargin[index] = .infinity
        }
    }
}

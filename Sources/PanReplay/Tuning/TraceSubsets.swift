internal import PanCapture
internal import PanTrace

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
    /// The seed of the fold assignment.
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
    let foldOfTrace: [Int]
    /// Subset indices of each trace, flattened: trace `i`'s are `members[starts[i]..<starts[i + 1]]`.
    private let starts: [Int]
    private let members: [Int]

    /// Subsets: all the folds and groups.
    var count: Int { foldCount + groups.count }

    /// Assigns `traces` to folds and groups.
    ///
    /// Folds are stratified by intent: the finish traces are shuffled with a seeded
    /// Fisher–Yates shuffle (``SeededGenerator`` with ``seed``, `j = next() mod (i + 1)`) and
    /// dealt to folds 0, 1, … in turn, then the cancel traces continue the deal from where the
    /// finish traces stopped; so every fold has nearly the same number of each. A group is a
    /// tag or a source that at least two tuned traces carry and not all of them do.
    init(traces: [TraceMetadata]) {
        let n = traces.count
        foldCount = n >= 2 ? min(Self.preferredFoldCount, n) : 0
        var folds = [Int](repeating: 0, count: n)
        if foldCount > 0 {
            var generator = SeededGenerator(seed: Self.seed)
            var dealt = 0
            for intent in [Intent.finish, .cancel] {
                var indices = traces.indices.filter { traces[$0].intent == intent }
                if indices.count > 1 {
                    for i in stride(from: indices.count - 1, to: 0, by: -1) {
                        let j = Int(generator.next() % UInt64(i + 1))
                        indices.swapAt(i, j)
                    }
                }
                for index in indices {
                    folds[index] = dealt % foldCount
                    dealt += 1
                }
            }
        }
        foldOfTrace = folds

        struct Label: Hashable {
            var kind: String
            var value: String
        }
        var candidates: [Label: [Int]] = [:]
        for (index, metadata) in traces.enumerated() {
            // Each label once per trace (a tag may repeat); no set per trace, as this runs for
            // every trace of every sweep.
            for (position, tag) in metadata.tags.enumerated() where !metadata.tags[..<position].contains(tag) {
                candidates[Label(kind: "tag", value: tag), default: []].append(index)
            }
            candidates[Label(kind: "source", value: metadata.source), default: []].append(index)
        }
        var qualified = candidates.filter { $0.value.count >= 2 && $0.value.count < n }.map {
            (group: Group(kind: $0.key.kind, value: $0.key.value, traces: $0.value.count), members: $0.value)
        }
        qualified.sort {
            ($0.group.traces, $1.group.kind, $1.group.value) > ($1.group.traces, $0.group.kind, $0.group.value)
        }
        groupsLeftOut = max(0, qualified.count - Self.maximumGroups)
        qualified = Array(qualified.prefix(Self.maximumGroups))
        groups = qualified.map(\.group)

        var perTrace = [[Int]](repeating: [], count: n)
        for index in 0..<n where foldCount > 0 { perTrace[index].append(folds[index]) }
        for (number, entry) in qualified.enumerated() {
            for member in entry.members { perTrace[member].append(foldCount + number) }
        }
        var starts = [0]
        var members: [Int] = []
        for list in perTrace {
            members += list
            starts.append(members.count)
        }
        self.starts = starts
        self.members = members
    }

    /// Folds only, as given (no groups): for sweeping bare statistics.
    init(foldCount: Int, foldOfTrace: [Int]) {
        self.foldCount = foldCount
        self.foldOfTrace = foldOfTrace
        groups = []
        groupsLeftOut = 0
        starts = Array(0...foldOfTrace.count)
        members = foldOfTrace
    }

    /// The subsets trace `index` is in.
    @inline(__always)
    func subsets(ofTrace index: Int) -> ArraySlice<Int> { members[starts[index]..<starts[index + 1]] }
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

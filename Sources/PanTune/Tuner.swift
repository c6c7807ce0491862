package import PanReplay
package import TransitionEngine
internal import Dispatch
package import PanTrace
internal import Synchronization

/// Sweeps decision parameters over labelled recordings and scores every grid point.
///
/// Each trace's release state is computed once per progress mapping and velocity source (it
/// does not depend on decision parameters), then decided under every grid point, or, along a
/// threshold axis, scored from the traces' sorted statistics (``ThresholdSweep``). Points are
/// split across threads; every sum is exact and rounded once (``ExactSum``), so the result is
/// the same bit for bit for any thread count and either path.
package struct Tuner: Sendable {
    /// How to sweep.
    package struct Configuration: Sendable, Hashable {
        /// Threads to use (the CLI passes the number of active cores).
        package var threadCount: Int
        /// The display frame rate for completion times (only the stepper depends on it), Hz.
        package var frameRate: Double
        /// The screen to decide on; each trace's own when nil.
        package var screen: Size?
        /// The most (grid points × folds and groups) tallied for cross-validation and the
        /// breakdown; a larger sweep leaves them out and says so.
        package var maximumTallies = TuningFindings.maximumTallies
        /// Whether a threshold axis may be swept from sorted statistics (``ThresholdSweep``)
        /// rather than by deciding every point; both give the same result to the bit, and
        /// tests turn this off to compare them.
        package var allowsSortedSweep = true

        /// Creates a configuration.
        package init(threadCount: Int = 2, frameRate: Double = 60, screen: Size? = nil) {
            precondition(threadCount > 0, "at least one thread")
            precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be positive")
            self.threadCount = threadCount
            self.frameRate = frameRate
            self.screen = screen
        }
    }

    /// How a grid axis affects the work, which decides the sweep order.
    enum AxisRole: Int, Sendable, Comparable {
        /// Changes the release state (velocity source, progress mapping): outermost.
        case release
        /// May change the completion (model, curve, gates, geometry): middle.
        case completion
        /// Changes only the decision rule: innermost, so the completion cache is reused.
        case decision

        static func < (lhs: AxisRole, rhs: AxisRole) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Keys that only enter the decision rule (`Preset.makePolicy`): threshold, comparison,
        /// cancelled-phase handling, the projection rate and the direction dead-band.
        /// `TunerTests` checks that these leave the completion and the mapping unchanged.
        static let decisionKeys: Set<String> = ["threshold", "comparison", "cancelledPhase", "decelerationRate", "deadBand"]
        /// Keys that enter the progress mapping (`Preset.mapping(screen:)`) or the reading of
        /// the callbacks (`Preset.reading`), and so the release state.
        static let mappingKeys: Set<String> = ["rubberBand", "direction", "travel", "travelUnit", "releaseProgress"]

        init(key: String) {
            if key == VelocitySource.parameterKey || Self.mappingKeys.contains(key) {
                self = .release
            } else if Self.decisionKeys.contains(key) {
                self = .decision
            } else {
                self = .completion
            }
        }
    }

    /// The preset swept.
    package let presetName: PresetName
    /// The grid.
    package let grid: TuningGrid
    /// The configuration.
    package let configuration: Configuration

    /// Prepares a sweep of `grid` over the preset called `name`.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown preset or a value out of range;
    ///   ``ReplayError`` for an unknown key (listing the valid ones, `velocity` included).
    package init(presetNamed name: String, grid: TuningGrid, configuration: Configuration = Configuration()) throws {
        let valid = try ReplayParameters.validKeys(forPreset: name)
        for axis in grid.axes {
            guard valid.contains(axis.key) else { throw ReplayError.unknownParameter(axis.key, preset: name, valid: valid) }
            // A range's values lie between its ends, so checking the ends and every name is enough.
            let numbers = axis.values.compactMap(\.number)
            var checked = axis.values.filter { $0.number == nil }
            if let low = numbers.min(), let high = numbers.max() { checked += [.number(low), .number(high)] }
            for value in checked {
                _ = try ReplayParameters(presetNamed: name, overrides: [axis.key: value])
            }
        }
        self.presetName = try Preset(named: name).name
        self.grid = grid
        self.configuration = configuration
    }

    /// The parameters at grid point `index`.
    package func parameters(atPoint index: Int) -> ReplayParameters {
        parameters(keys: grid.axes.map(\.key), values: grid.values(ofPoint: index))
    }

    /// The preset's own parameters: every default, with its expected velocity source.
    package var defaultParameters: ReplayParameters { ReplayParameters(preset: Preset(presetName)) }

    func parameters(keys: [String], values: [PresetValue]) -> ReplayParameters {
        var overrides: [String: PresetValue] = [:]
        var velocity: VelocitySource?
        do {
            for (key, value) in zip(keys, values) {
                if key == VelocitySource.parameterKey {
                    velocity = try ReplayParameters.velocitySource(value)
                } else {
                    overrides[key] = value
                }
            }
            return ReplayParameters(preset: try Preset(presetName, overrides: overrides), velocity: velocity)
        } catch {
            // Every axis value was validated in `init`, and keys are independent.
            preconditionFailure("validated grid value rejected: \(error)")
        }
    }

    /// Scores every grid point on `corpus`.
    ///
    /// Traces with an unknown intent are left out and counted; traces that cannot be replayed
    /// are left out and listed with the reason; the corpus's unreadable files are carried
    /// into the result.
    ///
    /// - Parameters:
    ///   - corpus: the labelled traces.
    ///   - progress: called with (points done, points in all) from worker threads as the
    ///     sweep advances.
    /// - Throws: ``ReplayError`` when no trace has a known intent and can be replayed.
    package func run(on corpus: TraceCorpus, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws -> TuningResult {
        try run(on: prepare(corpus), progress: progress)
    }

    /// The traces of a corpus a sweep decides, with their tracks: the part of ``run(on:progress:)``
    /// that reads the traces, separate so a benchmark can time the sweep alone.
    package struct Preparation: Sendable {
        let admitted: Admitted
        let failures: [TraceCorpus.Failure]

        /// The traces the sweep decides.
        package var traceCount: Int { admitted.kept.count }
    }

    /// Admits the traces of `corpus` (see ``run(on:progress:)``).
    /// - Throws: ``ReplayError`` when no trace has a known intent and can be replayed.
    package func prepare(_ corpus: TraceCorpus) throws -> Preparation {
        let admitted = try admit(corpus, sources: velocitySources())
        guard !admitted.kept.isEmpty else { throw Self.noTraces(admitted, unreadable: corpus.failures.count) }
        return Preparation(admitted: admitted, failures: corpus.failures)
    }

    /// Scores every grid point on prepared traces (see ``run(on:progress:)``).
    package func run(on preparation: Preparation, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> TuningResult {
        let defaults = defaultParameters
        let admitted = preparation.admitted
        let kept = admitted.kept
        let meantFinish = kept.intents.map { $0 == .finish }

        func releaseSet(_ parameters: ReplayParameters) -> ReleaseSet {
            let releases = admitted.releases(parameters, key: releaseKey(parameters))
            var set = ReleaseSet(releases: releases, meantFinish: meantFinish)
            set.exactSums = hasThresholdAxis
            return set
        }

        let layout = TraceSubsets(traces: kept)
        let isDetailed = layout.count > 0 && grid.pointCount <= configuration.maximumTallies / layout.count
        let swept = sweep(releaseSet: releaseSet, subsets: isDetailed ? layout : nil, progress: progress)
        let scores = swept.scores
        let defaultSet = releaseSet(defaults)
        var cache = ReleaseSet.CompletionCache(traces: kept.count)
        var defaultTally = SubsetTally(subsets: layout.count)
        let defaultScore = defaultSet.score(defaults.preset, frameRate: configuration.frameRate, cache: &cache, subsets: layout, tally: &defaultTally)
        let defaultValues = grid.axes.map { defaults.value(forKey: $0.key)! }
        let rule = TieRule(grid: grid, defaultValues: defaultValues)
        let choice = rule.choose(correct: { scores[$0].correct }, minimumMargin: { scores[$0].minimumMargin })
        let bestPoint = choice.best
        let best = parameters(atPoint: bestPoint)
        let comparison = Self.compare(best: (best, releaseSet(best)), defaults: (defaults, defaultSet), kept: kept, meantFinish: meantFinish)

        let noEffect = TuningFindings.noEffectAxes(grid: grid, scores: scores)
        var findings = TuningFindings(
            choice: choice, noEffectAxes: noEffect,
            edges: TuningFindings.edges(grid: grid, best: bestPoint, noEffect: noEffect, preset: presetName),
            accuracyInterval: BinomialInterval(correct: scores[bestPoint].correct, trials: scores[bestPoint].traces),
            defaultsInterval: BinomialInterval(correct: defaultScore.correct, trials: defaultScore.traces),
            crossValidation: nil, breakdown: [], groupsLeftOut: layout.groupsLeftOut)
        if let tallies = swept.tallies {
            (findings.crossValidation, findings.breakdown) = tallies.findings(
                subsets: layout, rule: rule, grid: grid, scores: scores, best: bestPoint, defaults: defaultTally)
        } else if layout.count == 0 {
            findings.detailNote = "cross-validation needs at least 2 traces"
        } else {
            findings.detailNote =
                "cross-validation and the breakdown are left out: \(grid.pointCount) points × \(layout.count) folds and groups "
                + "is more than \(configuration.maximumTallies) tallies; sweep a coarser grid for them"
        }

        return TuningResult(
            preset: presetName.rawValue, grid: grid, scores: scores, bestPoint: bestPoint,
            defaults: defaultScore, defaultValues: defaultValues,
            traceCount: kept.count, finishCount: meantFinish.filter { $0 }.count, cancelCount: meantFinish.filter { !$0 }.count,
            unknownIntentCount: admitted.unknownIntent, notFitting: admitted.notFitting, unreplayable: admitted.unreplayable,
            unreadable: preparation.failures, misjudged: comparison.misjudged, fixedByBest: comparison.fixed, brokenByBest: comparison.broken,
            unreachable: unreachableSettings(), findings: findings)
    }

    /// Whether the grid has a numeric threshold axis, which the sorted sweep may score: the
    /// per-decision sweep then keeps its sums exactly, so both paths agree to the bit (and
    /// the report is the same whether the sorted sweep runs or not). Without one, it adds
    /// them in trace order, as plain doubles.
    var hasThresholdAxis: Bool {
        grid.axes.contains { axis in axis.key == "threshold" && axis.values.count > 1 && axis.values.allSatisfy { $0.number?.isFinite == true } }
    }

    /// The velocity sources the sweep needs: the defaults' and every one on a velocity axis.
    func velocitySources() throws -> [VelocitySource] {
        var sources = [defaultParameters.velocity]
        if let axis = grid.axes.first(where: { $0.key == VelocitySource.parameterKey }) {
            for value in axis.values {
                let source = try ReplayParameters.velocitySource(value)
                if !sources.contains(source) { sources.append(source) }
            }
        }
        return sources
    }

    /// The traces a sweep decides, and why the others are left out.
    struct Admitted: Sendable {
        var kept = TunedTraces()
        /// One track per kept trace, in order, for each velocity source (read from traces).
        var tracks: [VelocitySource: [GestureTrack]] = [:]
        /// The release states of every kept trace, by ``Tuner/releaseKey(_:)`` (merged partials).
        var stored: [String: ReleaseColumns] = [:]
        var unknownIntent = 0
        var notFitting: [TuningResult.Misfit] = []
        var unreplayable: [TraceCorpus.Failure] = []

        /// The release state of every kept trace under `parameters`, whose release key is `key`.
        func releases(_ parameters: ReplayParameters, key: String) -> ReleaseColumns {
            if let states = stored[key] { return states }
            // No track for a source when no trace was kept (a shard may have none).
            return ReleaseColumns((tracks[parameters.velocity] ?? []).lazy.map { $0.releaseState(preset: parameters.preset) })
        }
    }

    /// What identifies a release set: the value of each release axis (velocity source and
    /// progress mapping) in `parameters`, in axis order; other axes leave the release unchanged.
    func releaseKey(_ parameters: ReplayParameters) -> String {
        grid.axes.filter { AxisRole(key: $0.key) == .release }.map { axis in
            "\(axis.key)=\(parameters.value(forKey: axis.key).map { "\($0)" } ?? "")"
        }.joined(separator: ",")
    }

    /// The error of a sweep with no trace left, saying why each was left out.
    static func noTraces(_ admitted: Admitted, unreadable: Int) -> ReplayError {
        let offAxis = admitted.notFitting.filter { $0.verdict == .offAxis }.count
        return ReplayError.noTraces(
            "no readable, replayable trace with a known intent that drives the preset (\(admitted.unknownIntent) with unknown intent, "
                + "\(offAxis) along the other axis, \(admitted.notFitting.count - offAxis) never reaching progress "
                + "\(GestureFit.minimumPeakProgress) or going the wrong way, "
                + "\(unreadable) unreadable, \(admitted.unreplayable.count) without a release)")
    }

    /// Labelled, replayable traces that drive the preset, with one track per velocity source
    /// (none at all is the caller's to refuse).
    func admit(_ corpus: TraceCorpus, sources: [VelocitySource]) throws -> Admitted {
        var admission = try Admission(tuner: self, sources: sources, compact: false)
        for entry in corpus.entries { admission.add(entry) }
        return admission.admitted
    }

    /// Admits traces one at a time (see ``admit(_:sources:)``). With `compact`, a kept trace
    /// leaves only its release state in each of ``releaseParameters()``'s sets, not its
    /// tracks, so the trace itself can be dropped once added.
    struct Admission {
        let judge: Judge
        var admitted = Admitted()

        init(tuner: Tuner, sources: [VelocitySource], compact: Bool) throws {
            judge = Judge(tuner: tuner, sources: sources, variants: tuner.mappingVariants(), sets: compact ? tuner.releaseParameters() : nil)
            if let sets = judge.sets { for set in sets { admitted.stored[set.key] = ReleaseColumns() } }
        }

        mutating func add(_ entry: TraceCorpus.Entry) { record(judge.verdict(on: entry)) }

        /// Adds what ``Judge/verdict(on:)`` found, in corpus order.
        mutating func record(_ verdict: Verdict) {
            switch verdict {
            case .unknownIntent: admitted.unknownIntent += 1
            case .notFitting(let misfit): admitted.notFitting.append(misfit)
            case .unreplayable(let failure): admitted.unreplayable.append(failure)
            case .kept(let trace, let states, let tracks):
                do {
                    // The label first: it is the one step that can refuse (past 4 GiB of identifiers).
                    try admitted.kept.append(trace)
                } catch {
                    admitted.unreplayable.append(TraceCorpus.Failure(file: trace.file, reason: "\(trace.file): \(error)"))
                    return
                }
                for (set, state) in zip(judge.sets ?? [], states) { admitted.stored[set.key]!.append(state) }
                for (source, track) in tracks { admitted.tracks[source, default: []].append(track) }
            }
        }
    }

    /// The verdicts of a batch judged on another thread.
    final class VerdictBox: Sendable {
        let value = Mutex<[Verdict]>([])
    }

    /// What admitting one trace found.
    enum Verdict: Sendable {
        case unknownIntent
        case notFitting(TuningResult.Misfit)
        case unreplayable(TraceCorpus.Failure)
        /// Kept: its label, its release state in each compact set, or its tracks.
        case kept(TunedTrace, states: [ReleaseState], tracks: [VelocitySource: GestureTrack])
    }

    /// Decides whether a trace is tuned and computes what is kept of it: a pure function of
    /// the trace, so traces can be judged on several threads and recorded in order.
    struct Judge: Sendable {
        let tuner: Tuner
        let sources: [VelocitySource]
        let variants: [Preset]
        let sets: [(key: String, parameters: ReplayParameters)]?

        func verdict(on entry: TraceCorpus.Entry) -> Verdict {
            let defaults = tuner.defaultParameters
            // A detent label is not a finish or cancel: such a gesture is tuned by a sheet library.
            guard entry.trace.metadata.intent.outcome != nil else { return .unknownIntent }
            do {
                var built: [VelocitySource: GestureTrack] = [:]
                for source in sources {
                    // Kept compactly, a track gives only its release states: no other velocity is read.
                    built[source] = try GestureTrack(
                        trace: entry.trace, velocity: source, screen: tuner.configuration.screen, releaseVelocityOnly: sets != nil)
                }
                // A gesture that does not drive the transition under any of the grid's mappings
                // (moving mostly across its axis, never reaching a meaningful progress, or the
                // wrong way) would only add noise: it is left out and counted with its reason
                // (docs/MODEL.md §2.6), like an unknown intent.
                let track = built[defaults.velocity]!
                let fits = variants.map { GestureFit(inputs: track.inputs, mapping: $0.mapping(screen: track.screen)) }
                guard fits.contains(where: \.fits) else {
                    return .notFitting(TuningResult.Misfit(file: entry.file, verdict: fits[0].verdict, reason: fits[0].explanation))
                }
                let trace = TunedTrace(file: entry.file, trace: entry.trace)
                guard let sets else { return .kept(trace, states: [], tracks: built) }
                return .kept(trace, states: sets.map { built[$0.parameters.velocity]!.releaseState(preset: $0.parameters.preset) }, tracks: [:])
            } catch {
                return .unreplayable(TraceCorpus.Failure(file: entry.file, reason: "\(entry.file): \(error)"))
            }
        }

        /// The verdicts on `entries`, in order, judged on up to `threads` threads.
        func verdicts(on entries: [TraceCorpus.Entry], threads: Int) -> [Verdict] {
            guard threads > 1 && entries.count > 1 else { return entries.map(verdict(on:)) }
            let found = Mutex([Verdict?](repeating: nil, count: entries.count))
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: min(threads, entries.count)) { _ in
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < entries.count else { break }
                    let verdict = self.verdict(on: entries[index])
                    found.withLock { $0[index] = verdict }
                }
            }
            return found.withLock { $0.map { $0! } }
        }
    }

    /// How many traces are judged together (on every thread) while reading.
    static let admissionBatch = 512

    /// Reads and admits the traces under `paths` one file at a time, keeping per gesture only
    /// what the sweep needs (its label and release states), so memory grows with the number
    /// of gestures, not their samples. Nil with the folder when one holds more than
    /// `maximumFiles` trace files.
    /// - Throws: ``ReplayError`` when no trace has a known intent and can be replayed (unless `allowsNone`).
    package func prepare(
        paths: [String], reader: TraceReader = TraceReader(), maximumFiles: Int = TraceFolder.defaultLimit,
        allowsNone: Bool = false, failure: (TraceCorpus.Failure) -> Void = { _ in }
    ) throws -> (preparation: Preparation?, folderOverLimit: String?) {
        var admission = try Admission(tuner: self, sources: velocitySources(), compact: true)
        var failures: [TraceCorpus.Failure] = []
        // Traces are read and decoded on this thread while the batch before is judged on the
        // others (velocity, release states, the fold hash: most of the work); verdicts are
        // recorded in corpus order. With one thread, each batch is judged here in turn.
        var batch: [TraceCorpus.Entry] = []
        batch.reserveCapacity(Self.admissionBatch)
        var inFlight: (group: DispatchGroup, verdicts: VerdictBox)?
        func finishInFlight() {
            guard let (group, verdicts) = inFlight else { return }
            group.wait()
            for verdict in verdicts.value.withLock({ $0 }) { admission.record(verdict) }
            inFlight = nil
        }
        func flush() {
            let entries = batch
            batch = []
            batch.reserveCapacity(Self.admissionBatch)
            finishInFlight()
            let judge = admission.judge
            guard configuration.threadCount > 1 else {
                for verdict in judge.verdicts(on: entries, threads: 1) { admission.record(verdict) }
                return
            }
            let verdicts = VerdictBox()
            let group = DispatchGroup()
            let threads = configuration.threadCount - 1
            DispatchQueue.global().async(group: group) {
                let found = judge.verdicts(on: entries, threads: threads)
                verdicts.value.withLock { $0 = found }
            }
            inFlight = (group, verdicts)
        }
        let folder = TraceCorpus.forEach(paths: paths, reader: reader, maximumFiles: maximumFiles) { item in
            switch item {
            case .entry(let entry):
                batch.append(entry)
                if batch.count == Self.admissionBatch { flush() }
            case .failure(let problem):
                failures.append(problem)
                failure(problem)
            }
        }
        flush()
        finishInFlight()
        if let folder { return (nil, folder) }
        guard allowsNone || !admission.admitted.kept.isEmpty else { throw Self.noTraces(admission.admitted, unreadable: failures.count) }
        return (Preparation(admitted: admission.admitted, failures: failures), nil)
    }

    /// The traces the best point gets wrong, and how many it fixes and breaks against the defaults.
    private static func compare(
        best: (parameters: ReplayParameters, set: ReleaseSet), defaults: (parameters: ReplayParameters, set: ReleaseSet),
        kept: TunedTraces, meantFinish: [Bool]
    ) -> (misjudged: [TuningResult.Misjudgement], fixed: Int, broken: Int) {
        var misjudged: [TuningResult.Misjudgement] = []
        var fixed = 0, broken = 0
        for index in kept.indices {
            let decision = best.parameters.preset.policy.decide(best.set.releases[index])
            let wasRight = (defaults.parameters.preset.policy.decide(defaults.set.releases[index]).outcome == .finish) == meantFinish[index]
            let isRight = (decision.outcome == .finish) == meantFinish[index]
            if isRight && !wasRight { fixed += 1 }
            if !isRight && wasRight { broken += 1 }
            guard !isRight else { continue }
            let trace = kept[index]
            misjudged.append(
                TuningResult.Misjudgement(
                    file: trace.file, trace: trace.id, intent: trace.intent,
                    decision: decision.outcome, reason: decision.reason, margin: decision.margin,
                    progressAtRelease: best.set.releases[index].progress, velocity: decision.axisVelocity))
        }
        return (misjudged, fixed, broken)
    }

    /// The presets of every combination of the grid's mapping axes (the defaults when it has
    /// none): a trace is tuned when it drives at least one of them.
    func mappingVariants() -> [Preset] {
        let axes = grid.axes.filter { AxisRole.mappingKeys.contains($0.key) }
        let count = axes.reduce(1) { $0 * $1.values.count }
        return (0..<count).map { combination in
            var remainder = combination
            var overrides: [String: PresetValue] = [:]
            for axis in axes.reversed() {
                overrides[axis.key] = axis.values[remainder % axis.values.count]
                remainder /= axis.values.count
            }
            return parameters(keys: Array(overrides.keys), values: Array(overrides.values)).preset
        }
    }

    /// Settings among the grid's points that make a decision outcome unreachable
    /// (docs/MODEL.md §3.10), each once, with the first point that has them; at most 20.
    func unreachableSettings() -> [String] {
        var notes: [String] = []
        var seen: Set<String> = []
        let keys = grid.axes.map(\.key)
        // `Preset.unreachableOutcomes` reads only the rule's threshold and comparison and the
        // rubber band, and names nothing for a threshold strictly between 0 and 1 (docs/MODEL.md
        // §3.10): a point is built only for a new combination of those axes' values, and not
        // for a threshold inside (0, 1).
        let relevant = keys.indices.filter { ["threshold", "comparison", "rubberBand"].contains(keys[$0]) }
        let thresholdAxis = keys.firstIndex(of: "threshold")
        var checked: Set<[Int]> = []
        for index in 0..<min(grid.pointCount, TuningReport.maximumListedPoints) {
            let indices = grid.valueIndices(ofPoint: index)
            if let thresholdAxis, let value = grid.axes[thresholdAxis].values[indices[thresholdAxis]].number, value > 0 && value < 1 {
                continue
            }
            guard checked.insert(relevant.map { indices[$0] }).inserted else { continue }
            let preset = parameters(atPoint: index).preset
            for note in preset.unreachableOutcomes where !seen.contains(note) {
                seen.insert(note)
                let values = zip(keys, grid.values(ofPoint: index)).map { "\($0)=\(TuningResult.text($1))" }.joined(separator: " ")
                notes.append(values.isEmpty ? note : "\(values): \(note)")
                if notes.count == 20 { return notes }
            }
        }
        return notes
    }

    /// Scores every point, in grid order.
    ///
    /// Points are visited in "sweep order": axes that change the release state outermost,
    /// then those that may change the completion, then decision-only axes innermost, so a
    /// worker rebuilds release sets and completion caches only when it crosses a boundary.
    /// With `subsets`, each point's per-subset tallies are kept too.
    private func sweep(
        releaseSet: (ReplayParameters) -> ReleaseSet, subsets: TraceSubsets?, progress: (@Sendable (Int, Int) -> Void)?
    ) -> (scores: [PointScore], tallies: SubsetTallies?) {
        let axes = grid.axes
        let roles = axes.map { AxisRole(key: $0.key) }
        let order = axes.indices.sorted { roles[$0] != roles[$1] ? roles[$0] < roles[$1] : $0 < $1 }
        let sizes = order.map { axes[$0].values.count }
        let decisionPoints = zip(order, sizes).filter { roles[$0.0] == .decision }.reduce(1) { $0 * $1.1 }
        let completionPoints = zip(order, sizes).filter { roles[$0.0] != .release }.reduce(1) { $0 * $1.1 }
        let releaseAxes = order.filter { roles[$0] == .release }
        let keys = axes.map(\.key)

        // One release set per combination of release-axis values (usually one).
        let releaseGroups = releaseAxes.reduce(1) { $0 * axes[$1].values.count }
        let releaseSets: [ReleaseSet] = (0..<releaseGroups).map { group in
            var remainder = group
            var values: [(String, PresetValue)] = []
            for axis in releaseAxes.reversed() {
                let size = axes[axis].values.count
                values.append((keys[axis], axes[axis].values[remainder % size]))
                remainder /= size
            }
            return releaseSet(parameters(keys: values.map(\.0), values: values.map(\.1)))
        }

        if let sorted = sortedSweep(releaseSets: releaseSets, releaseAxes: releaseAxes, subsets: subsets, progress: progress) {
            return sorted
        }
        // Every point decides every release: an array reads faster than the columns.
        let materializedSets = releaseSets.map { set in
            var set = set
            set.materialize()
            return set
        }
        let total = grid.pointCount
        let threads = min(configuration.threadCount, total)
        let chunk = max(1, min(4096, total / (threads * 8)))
        let chunks = (total + chunk - 1) / chunk
        let nextChunk = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let results = Mutex([PointScore](repeating: .empty, count: total))
        let subsetCount = subsets?.count ?? 0
        let tallies = Mutex(SubsetTallies(points: subsets == nil ? 0 : total, subsets: subsetCount))
        let frameRate = configuration.frameRate
        let traceCount = releaseSets[0].releases.count

        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var cache = ReleaseSet.CompletionCache(traces: traceCount)
            var tally = SubsetTally(subsets: subsetCount)
            var indices = [Int](repeating: 0, count: axes.count)
            var values = [PresetValue](repeating: .number(0), count: axes.count)
            // The completion context the cache holds; kept across chunks of the same context.
            var context = -1
            while true {
                let current = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
                guard current < chunks else { break }
                let range = (current * chunk)..<min(total, (current + 1) * chunk)
                var local: [(Int, PointScore)] = []
                local.reserveCapacity(range.count)
                var localCorrect: [Int32] = []
                var localMargins: [Double] = []
                for sweepIndex in range {
                    // Sweep index → value index per axis (in sweep order) → grid index.
                    var remainder = sweepIndex
                    for position in order.indices.reversed() {
                        indices[order[position]] = remainder % sizes[position]
                        remainder /= sizes[position]
                    }
                    for axis in axes.indices { values[axis] = axes[axis].values[indices[axis]] }
                    let gridIndex = grid.point(withValueIndices: indices)
                    let completionContext = sweepIndex / decisionPoints
                    if completionContext != context {
                        cache.invalidate()
                        context = completionContext
                    }
                    let parameters = self.parameters(keys: keys, values: values)
                    let set = materializedSets[sweepIndex / completionPoints]
                    local.append((gridIndex, set.score(parameters.preset, frameRate: frameRate, cache: &cache, subsets: subsets, tally: &tally)))
                    for subset in 0..<subsetCount {
                        localCorrect.append(Int32(tally.correct[subset]))
                        localMargins.append(tally.minimumMargin[subset])
                    }
                }
                results.withLock { scores in
                    for (index, score) in local { scores[index] = score }
                }
                if subsets != nil {
                    tallies.withLock { $0.store(correct: localCorrect, margins: localMargins, atPoints: local.map(\.0)) }
                }
                let finished = done.add(range.count, ordering: .relaxed).newValue
                progress?(finished, total)
            }
        }
        let scores = results.withLock { $0 }
        return (scores, subsets == nil ? nil : tallies.withLock { $0 })
    }
}

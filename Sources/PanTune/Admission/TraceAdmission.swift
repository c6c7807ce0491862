package import PanReplay
package import PanTrace
package import TransitionEngine

/// The traces of a corpus a sweep decides, with their tracks: the part of ``Tuner/run(on:progress:)``
/// that reads the traces, separate so a benchmark can time the sweep alone.
package struct AdmittedCorpus: Sendable {
    let admitted: TraceAdmission.Admitted
    let failures: [TraceCorpus.Failure]

    /// The traces the sweep decides.
    package var traceCount: Int { admitted.kept.count }
}

/// Which traces of a corpus a sweep decides, and what it keeps of each: its label, and its
/// release state under each release set (or its tracks), judged on several threads and
/// recorded in corpus order.
package struct TraceAdmission: Sendable {
    /// The grid the traces are admitted for.
    let space: PresetGrid
    /// The screen to decide on; each trace's own when nil.
    let screen: Size?
    /// The threads that judge.
    let work: ParallelWork
    /// Release states of a set kept in memory before they go to a temporary file (``ReleaseColumns``).
    let spillAfter: Int

    /// Admission for a sweep of `space` on `screen` with `threads` threads, keeping `spillAfter`
    /// release states of a set in memory (nil: ``ReleaseColumns/defaultSpillAfter``).
    package init(space: PresetGrid, screen: Size?, threads: Int, spillAfter: Int? = nil) {
        self.space = space
        self.screen = screen
        self.work = ParallelWork(threads: threads)
        self.spillAfter = spillAfter ?? ReleaseColumns.defaultSpillAfter
    }

    /// Admits the traces of `corpus` (see ``Tuner/run(on:progress:)``).
    /// - Throws: ``ReplayError`` when no trace has a known intent and can be replayed.
    package func prepare(_ corpus: TraceCorpus) throws -> AdmittedCorpus {
        let admitted = try admit(corpus, sources: space.velocitySources())
        guard !admitted.kept.isEmpty else { throw Self.noTraces(admitted, unreadable: corpus.failures.count) }
        return AdmittedCorpus(admitted: admitted, failures: corpus.failures)
    }

    /// The traces a sweep decides, and why the others are left out.
    struct Admitted: Sendable {
        var kept = TunedTraces()
        /// One track per kept trace, in order, for each velocity source (read from traces).
        var tracks: [VelocitySource: [GestureTrack]] = [:]
        /// The release states of every kept trace, by ``PresetGrid/releaseKey(_:)`` (merged partials).
        var stored: [String: ReleaseColumns] = [:]
        var unknownIntent = 0
        var notFitting: [TuningResult.Misfit] = []
        var unreplayable: [TraceCorpus.Failure] = []
        /// Release states of a set kept in memory before they go to a temporary file.
        var spillAfter = ReleaseColumns.defaultSpillAfter

        /// The release state of every kept trace under `parameters`, whose release key is `key`.
        func releases(_ parameters: ReplayParameters, key: String) -> ReleaseColumns {
            if let states = stored[key] { return states }
            // No track for a source when no trace was kept (a shard may have none).
            return ReleaseColumns(
                (tracks[parameters.velocity] ?? []).lazy.map { $0.releaseState(preset: parameters.preset) }, spillingAfter: spillAfter)
        }
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
        var admission = try Admission(self, sources: sources, compact: false)
        for entry in corpus.entries { admission.add(entry) }
        return admission.finished()
    }

    /// Admits traces one at a time (see ``admit(_:sources:)``). With `compact`, a kept trace
    /// leaves only its release state in each of ``PresetGrid/releaseParameters()``'s sets, not its
    /// tracks, so the trace itself can be dropped once added.
    struct Admission {
        let judge: Judge
        private var admitted = Admitted()
        /// The release states of each of `judge.sets`, in its order, until ``finished()``
        /// files them under their keys: an array, so adding a trace's states looks nothing up.
        private var columns: [ReleaseColumns] = []

        init(_ admission: TraceAdmission, sources: [VelocitySource], compact: Bool) throws {
            let space = admission.space
            judge = Judge(
                space: space, screen: admission.screen, sources: sources, variants: space.mappingVariants(),
                sets: compact ? space.releaseParameters() : nil)
            admitted.spillAfter = admission.spillAfter
            columns = (judge.sets ?? []).map { _ in ReleaseColumns(spillingAfter: admission.spillAfter) }
        }

        /// What was admitted, each compact set's release states under its key.
        mutating func finished() -> Admitted {
            for (set, states) in zip(judge.sets ?? [], columns) { admitted.stored[set.key] = states }
            columns = []
            return admitted
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
                for (set, state) in states.enumerated() { columns[set].append(state) }  // one state for each of judge.sets
                for (source, track) in tracks { admitted.tracks[source, default: []].append(track) }
            }
        }
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
        let space: PresetGrid
        let screen: Size?
        let sources: [VelocitySource]
        let variants: [Preset]
        let sets: [(key: String, parameters: ReplayParameters)]?

        /// `foldHash`: the trace's fold hash when it was computed already (with others, faster).
        func verdict(on entry: TraceCorpus.Entry, foldHash: UInt64? = nil) -> Verdict {
            let defaults = space.defaultParameters
            // A detent label is not a finish or cancel: such a gesture is tuned by a sheet library.
            guard entry.trace.metadata.intent.outcome != nil else { return .unknownIntent }
            do {
                // A grid has a source or two: a list, not a dictionary, saves a lookup's hashing
                // and an allocation for every trace.
                let built = try sources.map { source in
                    // Kept compactly, a track gives only its release states: no other velocity is read.
                    (source, try GestureTrack(trace: entry.trace, velocity: source, screen: screen, releaseVelocityOnly: sets != nil))
                }
                func builtTrack(_ source: VelocitySource) -> GestureTrack? { built.first { $0.0 == source }?.1 }
                // A gesture that does not drive the transition under any of the grid's mappings
                // (moving mostly across its axis, never reaching a meaningful progress, or the
                // wrong way) would only add noise: it is left out and counted with its reason
                // (docs/MODEL.md §2.6), like an unknown intent.
                // Every source of the grid was built above, the defaults' among them.
                guard let track = builtTrack(defaults.velocity) else { throw MissingTrack(velocity: defaults.velocity) }
                let fits = variants.map { GestureFit(inputs: track.inputs, mapping: $0.mapping(screen: track.screen)) }
                guard fits.contains(where: \.fits) else {
                    return .notFitting(TuningResult.Misfit(file: entry.file, verdict: fits[0].verdict, reason: fits[0].explanation))
                }
                let trace = TunedTrace(file: entry.file, trace: entry.trace, foldHash: foldHash)
                guard let sets else { return .kept(trace, states: [], tracks: Dictionary(built) { first, _ in first }) }
                let states = try sets.map { set in
                    guard let track = builtTrack(set.parameters.velocity) else { throw MissingTrack(velocity: set.parameters.velocity) }
                    return track.releaseState(preset: set.parameters.preset)
                }
                return .kept(trace, states: states, tracks: [:])
            } catch {
                return .unreplayable(TraceCorpus.Failure(file: entry.file, reason: "\(entry.file): \(error)"))
            }
        }

        /// A release set whose velocity source the grid did not list: cannot happen (the sets
        /// come from the same grid), and is said as a trace that cannot be replayed if it does.
        struct MissingTrack: Error, CustomStringConvertible {
            let velocity: VelocitySource
            var description: String { "no track was built for the velocity \(velocity)" }
        }

        /// The verdicts on `entries`, in order, judged four at a time: their fold hashes are
        /// computed together (``FoldHash/of(count:_:)``: ``TraceSubsets/foldHash(of:)``'s values).
        /// The entries stay in their array: copying a trace retains each of its fields.
        func verdicts(on entries: [TraceCorpus.Entry], work: ParallelWork) -> [Verdict] {
            let starts = Array(stride(from: 0, to: entries.count, by: 4))
            return work.map(starts) { start in
                let end = min(start + 4, entries.count)
                let hashes = FoldHash.of(count: end - start) { (entries[start + $0].trace.metadata.id, entries[start + $0].trace.samples) }
                return (start..<end).map { verdict(on: entries[$0], foldHash: hashes[$0 - start]) }
            }.flatMap { $0 }
        }
    }

    /// How many traces are judged together (on every thread) while reading.
    static let batchSize = 512

    /// Reads and admits the traces under `paths` one file at a time, keeping per gesture only
    /// what the sweep needs (its label and release states), so memory grows with the number
    /// of gestures, not their samples. Nil with the folder when one holds more than
    /// `maximumFiles` trace files.
    /// - Throws: ``ReplayError`` when no trace has a known intent and can be replayed (unless `allowsNone`).
    package func prepare(
        paths: [String], reader: TraceReader = TraceReader(), maximumFiles: Int = TraceFolder.defaultLimit,
        allowsNone: Bool = false, failure: (TraceCorpus.Failure) -> Void = { _ in }
    ) throws -> (admitted: AdmittedCorpus?, folderOverLimit: String?) {
        try prepare(allowsNone: allowsNone, failure: failure) { body in
            TraceCorpus.forEach(paths: paths, reader: reader, maximumFiles: maximumFiles, body)
        }
    }

    /// Admits the traces `read` hands over one at a time, as ``prepare(paths:reader:maximumFiles:allowsNone:failure:)``
    /// does for files (which it calls with a walk of `paths`): a reader of other places (the
    /// live viewer's library) keeps the same memory bound. `read` returns the folder over the
    /// file limit, if one was.
    package func prepare(
        allowsNone: Bool = false, failure: (TraceCorpus.Failure) -> Void = { _ in },
        reading read: (_ body: (TraceCorpus.Item) -> Void) -> String?
    ) throws -> (admitted: AdmittedCorpus?, folderOverLimit: String?) {
        var admission = try Admission(self, sources: space.velocitySources(), compact: true)
        var failures: [TraceCorpus.Failure] = []
        // Traces are read and decoded on this thread while the batch before is judged on the
        // others (velocity, release states, the fold hash: most of the work); verdicts are
        // recorded in corpus order. With one thread, each batch is judged here in turn.
        var batch: [TraceCorpus.Entry] = []
        batch.reserveCapacity(Self.batchSize)
        var inFlight: ParallelWork.Pending<[Verdict]>?
        func finishInFlight() {
            guard let pending = inFlight else { return }
            for verdict in pending.wait() { admission.record(verdict) }
            inFlight = nil
        }
        func flush() {
            let entries = batch
            batch = []
            batch.reserveCapacity(Self.batchSize)
            finishInFlight()
            let judge = admission.judge
            guard work.threads > 1 else {
                for verdict in judge.verdicts(on: entries, work: work) { admission.record(verdict) }
                return
            }
            let others = ParallelWork(threads: work.threads - 1)
            inFlight = ParallelWork.start { judge.verdicts(on: entries, work: others) }
        }
        // `read` calls back only while it runs, so `failure` does not outlive this call.
        let folder = withoutActuallyEscaping(failure) { failure in
            read { item in
                switch item {
                case .entry(let entry):
                    batch.append(entry)
                    if batch.count == Self.batchSize { flush() }
                case .failure(let problem):
                    failures.append(problem)
                    failure(problem)
                }
            }
        }
        flush()
        finishInFlight()
        if let folder { return (nil, folder) }
        let admitted = admission.finished()
        guard allowsNone || !admitted.kept.isEmpty else { throw Self.noTraces(admitted, unreadable: failures.count) }
        return (AdmittedCorpus(admitted: admitted, failures: failures), nil)
    }
}

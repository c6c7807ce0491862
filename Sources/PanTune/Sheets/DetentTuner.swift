package import PanReplay
internal import PanTrace
package import TransitionEngine
internal import Foundation
internal import Synchronization

/// A sweep of one sheet library's settings over gestures labelled with the detent the person
/// meant (docs/MODEL.md §9.5, docs/DETENTS.md "Tuning"): every grid point decides every
/// labelled drag on its own sheet, and each landing is a hit, a skip, a stuck or a wrong one.
///
/// The pieces are the two-state tuner's: the grid (``TuningGrid``), the tie rule
/// (``TieRule``), the fold of a gesture (``TraceSubsets/foldHash(of:)``) and the exact interval
/// (``BinomialInterval``). What differs is the score: a detent, not finish or cancel.
package struct DetentTuner: Sendable {
    /// The library tuned.
    package let library: DetentPresetName
    /// The grid: the library's settings (`pantrace presets NAME`) and `velocity`.
    package let grid: TuningGrid
    /// The screen to replay on; each trace's own when nil.
    package let screen: Size?
    /// Worker threads for the sweep.
    package let threadCount: Int
    /// The estimator of each grid point's velocity, by value index of the velocity axis (one
    /// entry, the library's own, when the grid has no velocity axis; nil for vaul's press mean).
    let estimators: [VelocitySource?]
    /// The velocity axis's index among the axes, if any.
    let velocityAxis: Int?
    /// Where the library's own estimator is in ``estimators`` (appended when the velocity
    /// axis leaves it out): the defaults read it.
    let defaultsEstimator: Int

    /// A sweep of `name`'s settings over `grid`.
    ///
    /// - Throws: ``ReplayError`` or ``TransitionEngineError`` for an axis the library does not
    ///   have, a value it refuses (out of range, not on/off), or a velocity axis on a library
    ///   that reads no estimator.
    package init(presetNamed name: String, grid: TuningGrid, screen: Size? = nil, threadCount: Int = 1) throws {
        let library = try DetentPreset(named: name).name
        let keys = DetentPreset(library).settings.map(\.key)
        var velocityAxis: Int?
        for (index, axis) in grid.axes.enumerated() {
            if axis.key == VelocitySource.parameterKey {
                guard library.velocityGate != .pressMean else {
                    throw ReplayError.badGridValue(
                        axis.key, axis.values.map(\.description).joined(separator: ","),
                        "\(name) reads no estimator: its velocity is the mean over the whole press")
                }
                velocityAxis = index
                continue
            }
            guard keys.contains(axis.key) else {
                throw ReplayError.unknownParameter(axis.key, preset: name, valid: keys + [VelocitySource.parameterKey])
            }
            // Every value once, before any gesture is read: a bad one is said at once.
            for value in axis.values { _ = try DetentPreset(named: name, overrides: [axis.key: value]) }
        }
        self.library = library
        self.grid = grid
        self.screen = screen
        self.threadCount = max(1, threadCount)
        self.velocityAxis = velocityAxis
        let own: VelocitySource? = library.velocityGate == .pressMean ? nil : SheetReplay.libraryEstimator(library)
        var estimators: [VelocitySource?] = []
        if let velocityAxis { estimators = try grid.axes[velocityAxis].values.map { try ReplayParameters.velocitySource($0) } }
        if let index = estimators.firstIndex(of: own) {
            defaultsEstimator = index
        } else {
            defaultsEstimator = estimators.count
            estimators.append(own)
        }
        self.estimators = estimators
        let settings = DetentPreset(library).settings
        defaultValues = grid.axes.map { axis in
            axis.key == VelocitySource.parameterKey
                ? .choice(SheetReplay.libraryEstimator(library).rawValue)
                : settings.first { $0.key == axis.key }?.value ?? axis.values[0]
        }
    }

    /// The library's preset at grid point `point`.
    package func preset(atPoint point: Int) -> DetentPreset {
        var overrides: [String: PresetValue] = [:]
        for (index, value) in grid.values(ofPoint: point).enumerated() where index != velocityAxis {
            overrides[grid.axes[index].key] = value
        }
        do {
            return try DetentPreset(named: library.rawValue, overrides: overrides)
        } catch {
            // Each value was built alone in init; settings are independent of one another.
            preconditionFailure("\(error)")
        }
    }

    /// The index into a drag's releases that point `point` reads.
    func estimatorIndex(atPoint point: Int) -> Int {
        guard let velocityAxis else { return 0 }
        return grid.valueIndices(ofPoint: point)[velocityAxis]
    }

    /// The library's defaults on every axis, in axis order (the tie rule's step 4).
    package let defaultValues: [PresetValue]

    // MARK: Admission

    /// One labelled drag, reduced to what the sweep reads.
    package struct LabelledDrag: Sendable {
        /// The file it came from (`file#id` for a corpus member).
        package var file: String
        /// The detent meant.
        package var meant: DetentOutcome
        /// The sheet it dragged.
        package var sheet: SheetLayout
        /// The release through each estimator of the sweep, in ``DetentTuner/estimators`` order.
        package var releases: [DetentRelease]
        /// Its cross-validation fold hash.
        package var foldHash: UInt64

        /// The detent the drag began at.
        package var start: Int { releases[0].start }
    }

    /// The gestures a sweep decides, and why the others are left out.
    package struct Admitted: Sendable {
        /// The labelled drags, in corpus order.
        package var drags: [LabelledDrag] = []
        /// Gestures without a detent label.
        package var unlabelled = 0
        /// Gestures on a sheet the library cannot drive, each with why.
        package var notDriven: [TraceCorpus.Failure] = []
        /// Gestures that cannot be replayed (no release, a sheet off their screen).
        package var unreplayable: [TraceCorpus.Failure] = []

        package init() {}
    }

    /// Reads one gesture into `admitted`: kept, or counted with its reason.
    package func admit(_ entry: TraceCorpus.Entry, into admitted: inout Admitted) {
        let metadata = entry.trace.metadata
        guard metadata.intent == .detent, let label = metadata.sheet, let target = label.target else {
            admitted.unlabelled += 1
            return
        }
        let meant = DetentOutcome(target)
        do {
            let drag = try SheetDrag(trace: entry.trace, estimators: estimators.compactMap { $0 }, screen: screen)
            let sheet: SheetLayout
            do {
                sheet = try SheetLayout(detents: label.detents, screenHeight: drag.screen.height)
            } catch {
                throw ReplayError.invalidSheet(error.description)
            }
            if let problem = DetentPreset(library).problem(driving: sheet) {
                admitted.notDriven.append(TraceCorpus.Failure(file: entry.file, reason: "\(entry.file): \(problem)"))
                return
            }
            let gate = library.velocityGate
            let releases = estimators.map { drag.release(from: label.start, on: sheet, gate: gate, estimator: $0) }
            admitted.drags.append(
                LabelledDrag(file: entry.file, meant: meant, sheet: sheet, releases: releases, foldHash: TraceSubsets.foldHash(of: entry.trace)))
        } catch {
            admitted.unreplayable.append(TraceCorpus.Failure(file: entry.file, reason: "\(entry.file): \(error)"))
        }
    }

    // MARK: The sweep

    /// How a point's decisions landed, counted.
    package struct Landings: Sendable, Hashable {
        /// Drags by landing, in ``DetentLanding`` case order.
        package var counts: [Int] = [0, 0, 0, 0]

        package init() {}

        /// Drags counted.
        package var total: Int { counts.reduce(0, +) }
        /// Drags that landed `landing`.
        package subscript(_ landing: DetentLanding) -> Int {
            get { counts[landing.ordinal] }
            set { counts[landing.ordinal] = newValue }
        }
    }

    /// Where `preset` reading release `estimator` sends `drag`, and how that compares with what
    /// was meant.
    func landing(of drag: LabelledDrag, preset: DetentPreset, estimator: Int) -> (DetentDecision, DetentLanding) {
        let decision = preset.decide(drag.releases[estimator], on: drag.sheet)
        let landing = DetentLanding(outcome: decision.outcome, meant: drag.meant, start: drag.start, detentCount: drag.sheet.detents.count)
        return (decision, landing)
    }

    /// How one configuration lands the drags: counted, each drag's landing in order, and the
    /// drags it does not land where meant.
    package struct Score: Sendable {
        package var landings = Landings()
        package var each: [DetentLanding] = []
        package var misses: [DetentTuning.Miss] = []
    }

    /// Scores `preset` reading the release of estimator `estimator` on every drag.
    package func score(_ preset: DetentPreset, estimator: Int, on drags: [LabelledDrag]) -> Score {
        var score = Score()
        for drag in drags {
            let (decision, landing) = self.landing(of: drag, preset: preset, estimator: estimator)
            score.landings[landing] += 1
            score.each.append(landing)
            if landing != .hit {
                score.misses.append(
                    DetentTuning.Miss(
                        file: drag.file, start: drag.start, meant: drag.meant, landed: decision.outcome, landing: landing, reason: decision.reason,
                        velocity: drag.releases[estimator].velocity))
            }
        }
        return score
    }

    /// Sweeps the grid over the admitted drags.
    ///
    /// - Throws: ``ReplayError`` when no labelled drag is left, saying why each was left out.
    package func run(_ admitted: Admitted, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> DetentTuning {
        let drags = admitted.drags
        guard !drags.isEmpty else {
            throw ReplayError.noTraces(
                "no gesture labelled with a detent that \(library.rawValue) can drive (\(admitted.unlabelled) without a detent label, "
                    + "\(admitted.notDriven.count) on a sheet it cannot drive, \(admitted.unreplayable.count) that cannot be replayed)")
        }
        let foldCount = drags.count >= 2 ? min(TraceSubsets.preferredFoldCount, drags.count) : 0
        let folds = drags.map { foldCount > 0 ? Int($0.foldHash % UInt64(foldCount)) : 0 }
        let points = grid.pointCount
        // Per point: the four landing counts, then the hits in each fold.
        let width = 4 + foldCount
        let table = Mutex([Int32](repeating: 0, count: points * width))
        let done = Atomic<Int>(0)
        let block = 64
        ParallelWork(threads: threadCount).forEachBlock(count: points, blockSize: block) {
            [Int32](repeating: 0, count: width * block)
        } each: { row, range in
            for i in row.indices { row[i] = 0 }
            for point in range {
                let preset = preset(atPoint: point)
                let estimator = estimatorIndex(atPoint: point)
                let base = (point - range.lowerBound) * width
                for (index, drag) in drags.enumerated() {
                    let landing = landing(of: drag, preset: preset, estimator: estimator).1
                    row[base + landing.ordinal] += 1
                    if landing == .hit && foldCount > 0 { row[base + 4 + folds[index]] += 1 }
                }
            }
            table.withLock { table in
                for i in 0..<(range.count * width) { table[range.lowerBound * width + i] = row[i] }
            }
            progress?(done.wrappingAdd(range.count, ordering: .relaxed).newValue, points)
            return true
        }
        let scores = table.withLock { $0 }
        func hits(_ point: Int) -> Int { Int(scores[point * width]) }
        let rule = TieRule(grid: grid, defaultValues: defaultValues)
        // A detent rule has no margin to one threshold: step 2 of the tie rule passes every
        // equal point on (docs/DETENTS.md, "Tuning").
        let choice = rule.choose(correct: hits, minimumMargin: { _ in 0 })
        let best = score(preset(atPoint: choice.best), estimator: estimatorIndex(atPoint: choice.best), on: drags)
        let defaults = score(DetentPreset(library), estimator: defaultsEstimator, on: drags)
        var defaultFoldHits = [Int](repeating: 0, count: max(foldCount, 1))
        for (index, landing) in defaults.each.enumerated() where landing == .hit && foldCount > 0 { defaultFoldHits[folds[index]] += 1 }
        var byStart: [Int: (best: Landings, defaults: Landings)] = [:]
        for (index, drag) in drags.enumerated() {
            byStart[drag.start, default: (Landings(), Landings())].best[best.each[index]] += 1
            byStart[drag.start, default: (Landings(), Landings())].defaults[defaults.each[index]] += 1
        }
        var crossValidation: TuningFindings.CrossValidation?
        if foldCount > 0 {
            var foldResults: [TuningFindings.Fold] = []
            for fold in 0..<foldCount {
                let held = folds.filter { $0 == fold }.count
                let trained = rule.choose(correct: { hits($0) - Int(scores[$0 * width + 4 + fold]) }, minimumMargin: { _ in 0 })
                foldResults.append(
                    TuningFindings.Fold(
                        fold: fold, traces: held, values: grid.values(ofPoint: trained.best), correct: Int(scores[trained.best * width + 4 + fold]),
                        defaultsCorrect: defaultFoldHits[fold]))
            }
            crossValidation = TuningFindings.CrossValidation(seed: TraceSubsets.seed, folds: foldResults)
        }
        return DetentTuning(
            library: library, axes: grid.axes.map(\.key), pointCount: points, choice: choice, bestValues: grid.values(ofPoint: choice.best),
            best: best.landings, defaults: defaults.landings,
            byStart: byStart.sorted { $0.key < $1.key }.map {
                DetentTuning.StartScore(start: $0.key, best: $0.value.best, defaults: $0.value.defaults)
            },
            crossValidation: crossValidation, misses: best.misses, unlabelled: admitted.unlabelled, notDriven: admitted.notDriven,
            unreplayable: admitted.unreplayable)
    }
}

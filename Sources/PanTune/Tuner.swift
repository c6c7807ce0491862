package import PanReplay
internal import PanTrace
package import TransitionEngine

/// Sweeps decision parameters over labelled recordings and scores every grid point: admits the
/// traces (``TraceAdmission``), sweeps the grid (``GridSweep``) and gathers the findings into a
/// ``TuningResult``.
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
        /// How the threshold sweep keeps its compared traces: by default in running totals
        /// between thresholds when those take less memory than sorted columns (the two give
        /// the same result to the bit; tests choose each).
        package var thresholdStorage = ThresholdStorage.smaller
        /// Release states of a set kept in memory before they go to a temporary file (nil: 262,144;
        /// tests spill after a few).
        package var spillAfter: Int?

        /// Creates a configuration.
        package init(threadCount: Int = 2, frameRate: Double = 60, screen: Size? = nil) {
            precondition(threadCount > 0, "at least one thread")
            precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be positive")
            self.threadCount = threadCount
            self.frameRate = frameRate
            self.screen = screen
        }
    }

    /// The grid and the preset it sweeps.
    package let space: PresetGrid
    /// The configuration.
    package let configuration: Configuration

    /// Prepares a sweep of `grid` over the preset called `name`.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown preset or a value out of range;
    ///   ``ReplayError`` for an unknown key (listing the valid ones, `velocity` included).
    package init(presetNamed name: String, grid: TuningGrid, configuration: Configuration = Configuration()) throws {
        space = try PresetGrid(presetNamed: name, grid: grid)
        self.configuration = configuration
    }

    /// Who admits the traces of a corpus for this sweep.
    package var admission: TraceAdmission {
        TraceAdmission(space: space, screen: configuration.screen, threads: configuration.threadCount, spillAfter: configuration.spillAfter)
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
        try run(on: admission.prepare(corpus), progress: progress)
    }

    /// Scores every grid point on prepared traces (see ``run(on:progress:)``).
    package func run(on corpus: AdmittedCorpus, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> TuningResult {
        let grid = space.grid
        let defaults = space.defaultParameters
        let admitted = corpus.admitted
        let kept = admitted.kept
        let meantFinish = kept.intents.map { $0 == .finish }

        func releaseSet(_ parameters: ReplayParameters) -> ReleaseSet {
            let releases = admitted.releases(parameters, key: space.releaseKey(parameters))
            var set = ReleaseSet(releases: releases, meantFinish: meantFinish)
            set.exactSums = space.hasThresholdAxis
            return set
        }

        let layout = TraceSubsets(traces: kept)
        let isDetailed = layout.count > 0 && grid.pointCount <= configuration.maximumTallies / layout.count
        let sweep = GridSweep(
            space: space, frameRate: configuration.frameRate, work: ParallelWork(threads: configuration.threadCount),
            allowsSortedSweep: configuration.allowsSortedSweep, thresholdStorage: configuration.thresholdStorage)
        let swept = sweep.run(releaseSet: releaseSet, subsets: isDetailed ? layout : nil, progress: progress)
        let scores = swept.scores
        let defaultSet = releaseSet(defaults)
        // One score: a completion cache (80 bytes a trace) would never be read twice.
        var cache = ReleaseSet.CompletionCache.none
        var defaultTally = SubsetTally(subsets: layout.count)
        let defaultScore = defaultSet.score(defaults.preset, frameRate: configuration.frameRate, cache: &cache, subsets: layout, tally: &defaultTally)
        let defaultValues = grid.axes.map { defaults.value(forKey: $0.key)! }
        let rule = TieRule(grid: grid, defaultValues: defaultValues)
        let choice = rule.choose(correct: { scores[$0].correct }, minimumMargin: { scores[$0].minimumMargin })
        let bestPoint = choice.best
        let best = space.parameters(atPoint: bestPoint)
        let comparison = Self.compare(best: (best, releaseSet(best)), defaults: (defaults, defaultSet), kept: kept, meantFinish: meantFinish)

        let noEffect = TuningFindings.noEffectAxes(grid: grid, scores: scores)
        var findings = TuningFindings(
            choice: choice, noEffectAxes: noEffect,
            edges: TuningFindings.edges(grid: grid, best: bestPoint, noEffect: noEffect, preset: space.presetName),
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
            preset: space.presetName.rawValue, grid: grid, scores: scores, bestPoint: bestPoint,
            defaults: defaultScore, defaultValues: defaultValues,
            traceCount: kept.count, finishCount: meantFinish.filter { $0 }.count, cancelCount: meantFinish.filter { !$0 }.count,
            unknownIntentCount: admitted.unknownIntent, notFitting: admitted.notFitting, unreplayable: admitted.unreplayable,
            unreadable: corpus.failures, misjudged: comparison.misjudged, fixedByBest: comparison.fixed, brokenByBest: comparison.broken,
            unreachable: space.unreachableSettings(), findings: findings)
    }

    /// The traces the best point gets wrong, and how many it fixes and breaks against the defaults.
    private static func compare(
        best: (parameters: ReplayParameters, set: ReleaseSet), defaults: (parameters: ReplayParameters, set: ReleaseSet),
        kept: TunedTraces, meantFinish: [Bool]
    ) -> (misjudged: [TuningResult.Misjudgement], fixed: Int, broken: Int) {
        var misjudged: [TuningResult.Misjudgement] = []
        var fixed = 0, broken = 0
        // Both sets are read in order, side by side (they may be in files: ``ReleaseColumns``).
        for (index, (release, defaultRelease)) in zip(best.set.releases, defaults.set.releases).enumerated() {
            let decision = best.parameters.preset.policy.decide(release)
            let wasRight = (defaults.parameters.preset.policy.decide(defaultRelease).outcome == .finish) == meantFinish[index]
            let isRight = (decision.outcome == .finish) == meantFinish[index]
            if isRight && !wasRight { fixed += 1 }
            if !isRight && wasRight { broken += 1 }
            guard !isRight else { continue }
            let trace = kept[index]
            misjudged.append(
                TuningResult.Misjudgement(
                    file: trace.file, trace: trace.id, intent: trace.intent,
                    decision: decision.outcome, reason: decision.reason, margin: decision.margin,
                    progressAtRelease: release.progress, velocity: decision.axisVelocity))
        }
        return (misjudged, fixed, broken)
    }
}

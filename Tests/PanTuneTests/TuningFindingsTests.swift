import Foundation
import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TestSupport
import TransitionEngine
@testable import PanReplay
@testable import PanTune

struct TuningFindingsTests {
    static let recordings = Repository.recordings
    static let bundled = Repository.bundled

    static func tune(_ corpus: TraceCorpus, preset: String, _ axes: [String], threads: Int = 2) throws -> TuningResult {
        let grid = try TuningGrid(axes: axes.map(GridAxis.init(parsing:)))
        return try Tuner(presetNamed: preset, grid: grid, configuration: Tuner.Configuration(threadCount: threads)).run(on: corpus)
    }

    static func findings(_ result: TuningResult) throws -> TuningFindings { try #require(result.findings) }

    // MARK: The exact binomial interval

    /// Reference values: the beta quantiles `B(α/2; k, n − k + 1)` and `B(1 − α/2; k + 1, n − k)`
    /// (scipy.stats.beta.ppf), which equal the Clopper–Pearson ends.
    @Test(arguments: [
        (5, 10, 0.18708602844739855, 0.8129139715526015),
        (0, 10, 0.0, 0.3084971078187607),
        (10, 10, 0.6915028921812392, 1.0),
        (31, 41, 0.5969537633763495, 0.8763675116041559),
        (46, 56, 0.6960283930577571, 0.910899046786023),
        (1, 1, 0.025, 1.0)
    ])
    func theIntervalIsClopperPearsons(correct: Int, trials: Int, low: Double, high: Double) {
        let interval = BinomialInterval(correct: correct, trials: trials)
        #expect(abs(interval.low - low) < 1e-9)
        #expect(abs(interval.high - high) < 1e-9)
        #expect(interval.level == 0.95)
    }

    /// The binomial sum walks only the terms over its cutoff, and they are the same terms
    /// added in the same order as a walk over every term: the same bits, for sums below the
    /// peak, above it and across it, small and large `n`, `p` near 0 and 1.
    @Test func theBinomialSumIsTheFullWalksToTheBit() {
        var random = SeededGenerator(seed: 34)
        for _ in 0..<400 {
            let n = [1, 2, 7, 60, 1_000, 30_000][Int(random.next() % 6)]
            var logFactorials = [0.0]
            for i in 1...n { logFactorials.append(logFactorials[i - 1] + log(Double(i))) }
            let k = Int(random.next() % UInt64(n + 1))
            let p = [1e-9, 0.001, Double(random.next() >> 11) / Double(1 << 53), 0.5, 0.999, 1 - 1e-9][Int(random.next() % 6)]
            let sum = BinomialInterval.cumulative(atMost: k, p: p, logFactorials: logFactorials)
            #expect(sum.bitPattern == Self.everyTerm(atMost: k, p: p, logFactorials: logFactorials).bitPattern, "n \(n) k \(k) p \(p)")
        }
    }

    /// The sum as a walk over every term from 0 to k, skipping those under the cutoff.
    static func everyTerm(atMost k: Int, p: Double, logFactorials: [Double]) -> Double {
        let n = logFactorials.count - 1
        let logP = log(p), logQ = log1p(-p)
        func logTerm(_ i: Int) -> Double {
            logFactorials[n] - logFactorials[i] - logFactorials[n - i] + Double(i) * logP + Double(n - i) * logQ
        }
        let cutoff = logTerm(min(k, Int((Double(n + 1) * p).rounded(.down)))) - 80
        var sum = 0.0
        for i in 0...k where logTerm(i) > cutoff { sum += exp(logTerm(i)) }
        return min(sum, 1)
    }

    // MARK: The examples on the bundled recordings

    /// `threshold × velocity` under a D1 preset: velocity decides nothing, the four velocity
    /// values tie, and the defaults' source is chosen, not the grid's first or last.
    @Test
    func aVelocityAxisUnderAThresholdPresetChangesNoDecision() throws {
        let corpus = TraceCorpus.load(paths: Self.bundled)
        let result = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.2:0.8:0.1", "velocity=impulse,recorded,lsq2,flutter"])
        let findings = try Self.findings(result)
        #expect(findings.noEffectAxes == ["velocity"])
        #expect(result.bestValues[1] == .choice("recorded"))
        #expect(findings.choice.equal.axes[1].isWhole)
        #expect(findings.choice.equal.count % 4 == 0)
        #expect(findings.choice.decidedBy == .defaults)
        #expect(result.text().contains("note: velocity changes no decision on this grid"))
        // Under a policy that reads velocity (best: D5), the same axis does change decisions.
        let projected = try Self.tune(corpus, preset: "best", ["threshold=0.2:0.8:0.1", "velocity=recorded,lsq2,impulse,flutter"])
        #expect(try Self.findings(projected).noEffectAxes.isEmpty)
    }

    /// `threshold × duration` under swipe-dismiss: the duration changes only the completion,
    /// so it is an axis without effect, and the best keeps the defaults' 1.5 s, not the grid's
    /// slowest end that the smaller mean discontinuity used to pick.
    @Test
    func aDurationAxisKeepsTheDefaultsDurationNotTheGridsEdge() throws {
        let corpus = TraceCorpus.load(paths: Self.bundled)
        let result = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.2:0.8:0.05", "duration=0.1:3:0.1"])
        let findings = try Self.findings(result)
        #expect(findings.noEffectAxes == ["duration"])
        #expect(result.bestValues[1] == .number(1.5))
        #expect(findings.edges.isEmpty)
        // The slowest duration has the smallest discontinuity among the equal points: what the
        // old tie-break (and grid order) would have chosen.
        let equal = result.scores.indices.filter { result.scores[$0].correct == result.best.correct }
        let smoothest = try #require(equal.min { result.scores[$0].meanDiscontinuity < result.scores[$1].meanDiscontinuity })
        #expect(result.grid.values(ofPoint: smoothest)[1] == .number(3))
    }

    @Test
    func aBestPointOnTheGridsEdgeIsFlaggedOnlyWhenItIs() throws {
        let corpus = TraceCorpus.load(paths: Self.bundled)
        // On the bundled set swipe-dismiss does best near 0.3: a grid starting there has it at
        // its low end; one around it does not.
        let low = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.3:0.6:0.1"])
        #expect(try Self.findings(low).edges == [TuningFindings.Edge(key: "threshold", side: "low", value: .number(0.3), isAtLimit: false)])
        #expect(low.text().contains("note: the best threshold=0.3 is on the low edge of the grid: a wider grid may do better"))
        let around = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.2:0.6:0.1"])
        #expect(try Self.findings(around).edges.isEmpty)
    }

    @Test
    func aBestPointAtTheParametersOwnLimitSaysTheGridCannotWiden() throws {
        var traces = Fixtures.swipes(12, seed: 5)
        for index in traces.indices { traces[index].metadata.intent = .finish }
        let result = try Self.tune(TraceCorpus(traces: traces), preset: "swipe-dismiss", ["threshold=0:0.2:0.1"])
        #expect(result.bestValues == [.number(0)])
        #expect(try Self.findings(result).edges == [TuningFindings.Edge(key: "threshold", side: "low", value: .number(0), isAtLimit: true)])
    }

    // MARK: The tie rule

    static func scores(_ rows: [(correct: Int, margin: Double)]) -> [PointScore] {
        rows.map {
            PointScore(
                traces: 10, correct: $0.correct, falseFinishes: 10 - $0.correct, falseCancels: 0, flipProne: 0, meanMargin: 0.2,
                minimumMargin: $0.margin, meanDiscontinuity: 0, meanCompletionTime: 0)
        }
    }

    static func choose(_ axes: [String], defaults: [PresetValue], _ rows: [(correct: Int, margin: Double)]) throws -> TieRule.Choice {
        let grid = try TuningGrid(axes: axes.map(GridAxis.init(parsing:)))
        let scores = Self.scores(rows)
        return TieRule(grid: grid, defaultValues: defaults).choose(correct: { scores[$0].correct }, minimumMargin: { scores[$0].minimumMargin })
    }

    @Test
    func theMostCorrectWinsWhateverTheMargin() throws {
        let choice = try Self.choose(["threshold=0.1:0.5:0.1"], defaults: [.number(0.3)], [(7, 0.5), (8, 0.01), (7, 0.5), (7, 0.5), (7, 0.5)])
        #expect(choice.best == 1 && choice.decidedBy == .accuracy && choice.equal.count == 1)
    }

    @Test
    func amongEqualPointsTheLargestMinimumMarginWins() throws {
        let choice = try Self.choose(["threshold=0.1:0.5:0.1"], defaults: [.number(0.3)], [(8, 0.02), (8, 0.05), (8, 0.03), (7, 0.5), (7, 0.5)])
        #expect(choice.best == 1 && choice.decidedBy == .minimumMargin)
        #expect(choice.equal.count == 3 && choice.afterMargin == 1)
    }

    @Test
    func equalMarginsGoToTheMiddleOfTheEqualRangeNotTheFirstPoint() throws {
        // Points 1…5 tie; the middle is 3 although the defaults (0.1) and grid order say 1.
        let rows: [(Int, Double)] = [(6, 0.1), (8, 0.1), (8, 0.1), (8, 0.1), (8, 0.1), (8, 0.1), (6, 0.1)]
        let choice = try Self.choose(["threshold=0.1:0.7:0.1"], defaults: [.number(0.1)], rows.map { (correct: $0.0, margin: $0.1) })
        #expect(choice.best == 3 && choice.decidedBy == .middle)
    }

    @Test
    func anEvenEqualRangeGoesToTheMiddleValueNearerTheDefaults() throws {
        // Points 1…4 tie: 2 and 3 are equally near the middle; the defaults (0.6) pick 3.
        let rows: [(Int, Double)] = [(6, 0.1), (8, 0.1), (8, 0.1), (8, 0.1), (8, 0.1), (6, 0.1), (6, 0.1)]
        let choice = try Self.choose(["threshold=0.1:0.7:0.1"], defaults: [.number(0.6)], rows.map { (correct: $0.0, margin: $0.1) })
        #expect(choice.best == 3 && choice.decidedBy == .defaults)
        let other = try Self.choose(["threshold=0.1:0.7:0.1"], defaults: [.number(0.1)], rows.map { (correct: $0.0, margin: $0.1) })
        #expect(other.best == 2 && other.decidedBy == .defaults)
    }

    @Test
    func gridOrderDecidesOnlyBetweenNamesNoRuleSeparates() throws {
        // Two named values, neither the defaults': nothing but grid order tells them apart.
        let choice = try Self.choose(["velocity=lsq2,impulse"], defaults: [.choice("recorded")], [(8, 0.1), (8, 0.1)])
        #expect(choice.best == 0 && choice.decidedBy == .gridOrder)
        let named = try Self.choose(["velocity=lsq2,impulse"], defaults: [.choice("impulse")], [(8, 0.1), (8, 0.1)])
        #expect(named.best == 1 && named.decidedBy == .defaults)
    }

    @Test
    func theEqualPointsAreDescribedAxisByAxis() throws {
        // threshold × velocity, 3 × 2: the best two thresholds with either velocity.
        let rows: [(Int, Double)] = [(6, 0.1), (6, 0.1), (8, 0.1), (8, 0.1), (8, 0.1), (8, 0.1)]
        let choice = try Self.choose(
            ["threshold=0.3:0.5:0.1", "velocity=recorded,lsq2"], defaults: [.number(0.5), .choice("recorded")],
            rows.map { (correct: $0.0, margin: $0.1) })
        #expect(choice.equal.count == 4 && choice.equal.isBox)
        #expect(choice.equal.axes[0].takes == [false, true, true] && !choice.equal.axes[0].isWhole)
        #expect(choice.equal.axes[1].isWhole)
        #expect(choice.best == 4)
    }

    // MARK: Cross-validation and the breakdown

    /// A trace's fold is its hash modulo the fold count: the same whatever the order, every
    /// fold used, and a changed sample moves only that trace.
    @Test
    func foldsComeFromEachGesturesHashNotItsPosition() {
        let traces = Fixtures.swipes(23, seed: 4)
        let subsets = TraceSubsets(traces: traces)
        #expect(subsets.foldCount == 5)
        let reversed = TraceSubsets(traces: Array(traces.reversed()))
        #expect(Array(reversed.foldOfTrace.reversed()) == subsets.foldOfTrace)
        #expect(Set(subsets.foldOfTrace) == Set(0..<5))
        for (index, trace) in traces.enumerated() {
            #expect(subsets.foldOfTrace[index] == Int(TraceSubsets.foldHash(of: trace) % 5))
        }
        var changed = traces
        changed[0].samples[1].translation.x += 1
        #expect(TraceSubsets.foldHash(of: changed[0]) != TraceSubsets.foldHash(of: traces[0]))
        #expect(TraceSubsets(traces: [traces[0]]).foldCount == 0)
        #expect(TraceSubsets(traces: Array(traces.prefix(2))).foldCount == 2)
    }

    /// The fold hash is what docs/TUNE.md defines, byte by byte, for traces of any length.
    @Test func theFoldHashIsTheDefinedOne() {
        let traces = Fixtures.swipes(5, seed: 21) + Fixtures.edgeSwipes(5, seed: 22, rate: 60)
        #expect(traces.map(TraceSubsets.foldHash(of:)) == traces.map(Self.referenceFoldHash))
    }

    /// Four at a time, the fold hashes are the same: for 0 to 9 traces (whole fours and a rest),
    /// of different lengths (the samples the four share in count go together), one empty.
    @Test(arguments: 0...9)
    func theFoldHashesOfFourAtATimeAreTheSame(count: Int) {
        var traces = Fixtures.swipes(5, seed: 31) + Fixtures.edgeSwipes(5, seed: 32, rate: 60)
        traces[2].samples.removeLast(7)
        traces[3].samples = []
        let some = Array(traces.prefix(count))
        #expect(FoldHash.of(count: some.count) { (some[$0].metadata.id, some[$0].samples) } == some.map(Self.referenceFoldHash))
    }

    /// FNV-1a from the seed over the identifier's UTF-8, then each sample's time, translation
    /// and velocity as little-endian doubles.
    static func referenceFoldHash(_ trace: Trace) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ TraceSubsets.seed
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for byte in trace.metadata.id.utf8 { add(byte) }
        for sample in trace.samples {
            for value in [sample.time, sample.translation.x, sample.translation.y, sample.velocity.x, sample.velocity.y] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { for byte in $0 { add(byte) } }
            }
        }
        return hash
    }

    /// Each fold's best point is exactly what tuning on the other folds alone finds, and its
    /// held-out score is what replaying the held-out traces gives.
    @Test
    func crossValidationTunesOnTheOtherFoldsAndScoresTheHeldOutOne() throws {
        let traces = Fixtures.swipes(30, seed: 12)
        let axes = ["threshold=0.2:0.8:0.05", "duration=0.5,1.5"]
        let result = try Self.tune(TraceCorpus(traces: traces), preset: "swipe-dismiss", axes)
        let cross = try #require(try Self.findings(result).crossValidation)
        let folds = TraceSubsets(traces: traces).foldOfTrace
        #expect(cross.traces == 30 && cross.folds.count == 5)
        for fold in cross.folds {
            let training = traces.indices.filter { folds[$0] != fold.fold }.map { traces[$0] }
            let alone = try Self.tune(TraceCorpus(traces: training), preset: "swipe-dismiss", axes)
            #expect(alone.bestValues == fold.values, "fold \(fold.fold)")
            var overrides: [String: PresetValue] = [:]
            for (axis, value) in zip(result.grid.axes, fold.values) { overrides[axis.key] = value }
            let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: overrides)
            let held = traces.indices.filter { folds[$0] == fold.fold }
            let correct = try held.filter { try Replayer(trace: traces[$0], configuration: .init(parameters: parameters)).summary.isCorrect == true }
            #expect(fold.correct == correct.count && fold.traces == held.count, "fold \(fold.fold)")
        }
        #expect(cross.defaultsAccuracy == result.defaults.accuracy)
    }

    @Test
    func theFindingsAreTheSameForAnyThreadCount() throws {
        let traces = Fixtures.swipes(25, seed: 6)
        let axes = ["threshold=0.2:0.8:0.05", "velocity=recorded,lsq2"]
        let one = try Self.findings(Self.tune(TraceCorpus(traces: traces), preset: "swipe-dismiss", axes, threads: 1))
        let three = try Self.findings(Self.tune(TraceCorpus(traces: traces), preset: "swipe-dismiss", axes, threads: 3))
        #expect(one.crossValidation == three.crossValidation)
        #expect(one.breakdown == three.breakdown)
        #expect(one.choice == three.choice)
    }

    /// A group's scores are the best point's and the defaults' on its traces, and its own best
    /// is what tuning on its traces alone finds.
    @Test
    func theBreakdownScoresEachTagAndSourceOnItsOwnTraces() throws {
        let corpus = TraceCorpus.load(paths: Self.bundled)
        let result = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.2:0.8:0.1"])
        let breakdown = try Self.findings(result).breakdown
        let device = try #require(breakdown.first { $0.kind == "tag" && $0.value == "flutter" })
        #expect(breakdown.contains { $0.kind == "source" && $0.value == "synthetic" })
        // A tag every tuned trace carries is no group.
        #expect(!breakdown.contains { $0.value == "swipe-down" })
        let members = corpus.entries.filter { $0.trace.metadata.tags.contains("flutter") }
        let alone = try Self.tune(TraceCorpus(entries: members), preset: "swipe-dismiss", ["threshold=0.2:0.8:0.1"])
        #expect(device.traces == alone.traceCount)
        #expect(device.ownValues == alone.bestValues && device.ownCorrect == alone.best.correct)
        #expect(device.defaultsCorrect == alone.defaults.correct)
        #expect(device.bestCorrect == alone.scores[result.bestPoint].correct)
    }

    @Test
    func theReportCarriesEveryFindingUnderItsDocumentedKey() throws {
        let corpus = TraceCorpus.load(paths: Self.bundled)
        let result = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.2:0.8:0.1", "velocity=recorded,lsq2"])
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(TuningReport(result))) as? [String: Any])
        for key in ["equal_points", "no_effect_axes", "edge", "accuracy_ci", "cv_accuracy", "breakdown", "notes", "best", "defaults"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let equal = try #require(object["equal_points"] as? [String: Any])
        #expect(equal["decided_by"] as? String == "defaults")
        let axes = try #require(equal["axes"] as? [[String: Any]])
        #expect(axes[1]["whole_axis"] as? Bool == true && axes[1]["values"] as? [String] == ["recorded", "lsq2"])
        let cross = try #require(object["cv_accuracy"] as? [String: Any])
        #expect(cross["folds"] as? Int == 5 && cross["seed"] as? Int == 1 && cross["stratified"] as? Bool == false)
        #expect((object["no_effect_axes"] as? [String]) == ["velocity"])
    }

    @Test
    func theTextListsTheFirstTenMisjudgedThenACountUnlessAllAreAskedFor() throws {
        let corpus = TraceCorpus.load(paths: Self.bundled)
        let result = try Self.tune(corpus, preset: "swipe-dismiss", ["threshold=0.7:0.8:0.1"])
        #expect(result.misjudged.count > 10)
        let capped = result.text().split(separator: "\n").filter { $0.hasPrefix("  recordings") || $0.hasPrefix("  /") }
        #expect(capped.count == 10)
        #expect(result.text().contains("… and \(result.misjudged.count - 10) more (--all lists every one"))
        let all = result.text(listingAll: true)
        #expect(!all.contains("more (--all"))
        for miss in result.misjudged { #expect(all.contains(miss.file)) }
    }

    @Test
    func aGridTooLargeToTallyLeavesCrossValidationOutAndSaysSo() throws {
        // 12 traces: 5 folds and some groups; with room for 100 tallies, 21 points are too many.
        let traces = Fixtures.swipes(12, seed: 3)
        let grid = try TuningGrid(axes: [GridAxis(parsing: "threshold=0:1:0.05")])
        var configuration = Tuner.Configuration()
        configuration.maximumTallies = 100
        let result = try Tuner(presetNamed: "swipe-dismiss", grid: grid, configuration: configuration).run(on: TraceCorpus(traces: traces))
        let findings = try Self.findings(result)
        #expect(findings.breakdown.isEmpty)
        #expect(findings.choice.equal.count >= 1)
        #expect(findings.crossValidation == nil)
        #expect(result.notes.contains { $0.contains("cross-validation and the breakdown are left out") })
    }
}

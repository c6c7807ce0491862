import Foundation
import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TestSupport
import TransitionEngine
@testable import PanReplay
@testable import PanTune

struct TunerTests {
    static func tune(_ traces: [Trace], preset: String = "swipe-dismiss", _ axes: [String], threads: Int = 2) throws -> TuningResult {
        let grid = try TuningGrid(axes: axes.map(GridAxis.init(parsing:)))
        let tuner = try Tuner(presetNamed: preset, grid: grid, configuration: Tuner.Configuration(threadCount: threads))
        return try tuner.run(on: TraceCorpus(traces: traces))
    }

    @Test
    func unreadableFilesAreCarriedIntoTheResult() throws {
        let folder = try TemporaryFolder("pantune")
        for trace in Fixtures.swipes(3) { try TraceFiles.write(trace, to: folder.appending("\(trace.metadata.id).pantrace")) }
        try Data([0x1f, 0x8b, 0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: folder.appending("broken.pantrace")))
        let corpus = TraceCorpus.load(paths: [folder.path, folder.appending("missing.pantrace")])
        let grid = try TuningGrid(axes: [GridAxis(parsing: "threshold=0.5")])
        let result = try Tuner(presetNamed: "swipe-dismiss", grid: grid).run(on: corpus)
        #expect(result.traceCount == 3)
        #expect(result.unreadable.count == 2)
        #expect(result.hasSkipped)
    }

    @Test
    func accuracyCountsDecisionsThatMatchTheIntent() throws {
        let traces = Fixtures.swipes(40, seed: 3)
        let result = try Self.tune(traces, ["threshold=0.3:0.6:0.1"])
        for point in 0..<result.grid.pointCount {
            let threshold = try #require(result.grid.values(ofPoint: point)[0].number)
            var correct = 0, falseFinishes = 0
            for trace in traces {
                let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: ["threshold": .number(threshold)])
                let summary = try Replayer(trace: trace, configuration: .init(parameters: parameters)).summary
                if summary.isCorrect == true { correct += 1 } else if summary.decision == .finish { falseFinishes += 1 }
            }
            #expect(result.scores[point].correct == correct)
            #expect(result.scores[point].falseFinishes == falseFinishes)
            #expect(result.scores[point].traces == traces.count)
        }
    }

    @Test
    func scoresMatchTheReplayerMetricsPointByPoint() throws {
        let traces = Fixtures.edgeSwipes(12, seed: 4)
        let result = try Self.tune(traces, preset: "best", ["threshold=0.4,0.6", "response=0.3,0.5", "velocity=recorded,lsq2"])
        for point in 0..<result.grid.pointCount {
            let values = result.grid.values(ofPoint: point)
            let parameters = try ReplayParameters(
                presetNamed: "best", overrides: ["threshold": values[0], "response": values[1], "velocity": values[2]])
            let summaries = try traces.map { try Replayer(trace: $0, configuration: .init(parameters: parameters)).summary }
            let score = result.scores[point]
            #expect(score.flipProne == summaries.filter(\.isFlipProne).count)
            #expect(score.minimumMargin == summaries.map(\.margin).min())
            let meanTime = summaries.map(\.completionTime).reduce(0, +) / Double(summaries.count)
            let meanDiscontinuity = summaries.map { abs($0.discontinuity) }.reduce(0, +) / Double(summaries.count)
            #expect(abs(score.meanCompletionTime - meanTime) < 1e-12)
            #expect(abs(score.meanDiscontinuity - meanDiscontinuity) < 1e-9)
        }
    }

    /// The defaults are scored once, with a cache that keeps nothing: the same score, to the
    /// bit, as with a cache that keeps every trace's metrics (read twice here).
    @Test
    func aScoreWithoutACompletionCacheIsTheSame() throws {
        let traces = Fixtures.edgeSwipes(25, seed: 9)
        let preset = try Preset(named: "best")
        let releases = try traces.map { try GestureTrack(trace: $0, velocity: .recorded).releaseState(preset: preset) }
        let set = ReleaseSet(releases: releases, meantFinish: traces.map { $0.metadata.intent == .finish })
        var kept = ReleaseSet.CompletionCache(traces: traces.count)
        var none = ReleaseSet.CompletionCache.none
        var tally = SubsetTally(subsets: 0)
        let first = set.score(preset, frameRate: 60, cache: &kept, subsets: nil, tally: &tally)
        let cached = set.score(preset, frameRate: 60, cache: &kept, subsets: nil, tally: &tally)
        let fresh = set.score(preset, frameRate: 60, cache: &none, subsets: nil, tally: &tally)
        #expect(none.times.isEmpty)
        #expect(kept.times.count == 4 * traces.count)
        #expect(first.meanCompletionTime > 0)
        #expect(fresh == first)
        #expect(cached == first)
    }

    @Test(arguments: [1, 2, 3, 5])
    func resultsAreBitwiseTheSameForAnyThreadCount(threads: Int) throws {
        let traces = Fixtures.edgeSwipes(30, seed: 8)
        let axes = ["threshold=0.2:0.8:0.05", "completionSpeed=0.5,1,2", "velocity=recorded,flutter"]
        let reference = try Self.tune(traces, preset: "uikit-percent", axes, threads: 1)
        let result = try Self.tune(traces, preset: "uikit-percent", axes, threads: threads)
        #expect(result.scores == reference.scores)
        #expect(result.bestPoint == reference.bestPoint)
    }

    @Test
    func tracesWithUnknownIntentAreExcludedAndCounted() throws {
        var traces = Fixtures.swipes(10, seed: 2)
        for index in [1, 4, 7] { traces[index].metadata.intent = .unknown }
        let result = try Self.tune(traces, ["threshold=0.5"])
        #expect(result.unknownIntentCount == 3)
        #expect(result.traceCount == 7)
        #expect(result.best.traces == 7)
        #expect(!result.hasSkipped)
    }

    @Test
    func onlyUnknownIntentsIsAnError() {
        var traces = Fixtures.swipes(3)
        for index in traces.indices { traces[index].metadata.intent = .unknown }
        let error = #expect(throws: ReplayError.self) { try Self.tune(traces, ["threshold=0.5"]) }
        #expect(error?.description.contains("3 with unknown intent") == true)
    }

    @Test
    func aTraceWithoutAReleaseIsSkippedAndTheRestStillTune() throws {
        var traces = Fixtures.swipes(6)
        traces[2].samples.removeLast()
        let result = try Self.tune(traces, ["threshold=0.5"])
        #expect(result.traceCount == 5)
        #expect(result.unreplayable.count == 1)
        #expect(result.hasSkipped)
    }

    @Test
    func theBestPointBeatsOrMatchesTheDefaultsOnTheGridThatContainsThem() throws {
        let result = try Self.tune(Fixtures.swipes(60, seed: 11), ["threshold=0.2:0.8:0.05"])
        #expect(result.defaultValues == [.number(0.5)])
        let defaultsPoint = try #require(result.grid.axes[0].values.firstIndex(of: .number(0.5)))
        #expect(result.scores[defaultsPoint] == result.defaults)
        #expect(result.best.correct >= result.defaults.correct)
        #expect(result.misjudged.count == result.best.traces - result.best.correct)
        #expect(result.best.correct - result.defaults.correct == result.fixedByBest - result.brokenByBest)
    }

    @Test
    func anUnknownGridKeyListsTheValidKeys() throws {
        let grid = try TuningGrid(axes: [GridAxis(parsing: "treshold=0.2:0.8:0.1")])
        let error = #expect(throws: ReplayError.self) { try Tuner(presetNamed: "swipe-dismiss", grid: grid) }
        #expect(error?.description.contains("valid keys: direction, travel, travelUnit, threshold") == true)
    }

    @Test
    func anOutOfRangeGridValueIsRejected() throws {
        let grid = try TuningGrid(axes: [GridAxis(parsing: "threshold=0.5:1.5:0.5")])
        #expect(throws: TransitionEngineError.self) { try Tuner(presetNamed: "swipe-dismiss", grid: grid) }
    }

    /// The sweep order trusts that decision-only keys change nothing but the rule, and that
    /// only mapping keys change the mapping.
    @Test(arguments: PresetName.allCases)
    func axisRolesMatchWhatEachKeyChanges(name: PresetName) throws {
        let base = Preset(name)
        let screen = Size(width: 390, height: 844)
        for parameter in PresetCatalog.entry(for: name).parameters {
            let alternatives: [PresetValue]
            switch parameter.allowed {
            case .range(let range): alternatives = [.number(range.lowerBound), .number(range.upperBound)]
            case .choices(let choices): alternatives = choices.map { .choice($0) }
            }
            let role = PresetGrid.AxisRole(key: parameter.key)
            for value in alternatives {
                let changed = try Preset(name, overrides: [parameter.key: value])
                if role != .release {
                    #expect(changed.mapping(screen: screen) == base.mapping(screen: screen), "\(name.rawValue).\(parameter.key)")
                }
                if role == .decision {
                    #expect(
                        changed.completion == base.completion && changed.scrub == base.scrub
                            && changed.transitionCurve == base.transitionCurve && changed.policy.gates == base.policy.gates,
                        "\(name.rawValue).\(parameter.key)")
                }
            }
        }
    }

    @Test
    func gesturesAlongTheOtherAxisAreExcludedAndCounted() throws {
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = .edgeBack
        let sideways = (0..<5).map { GestureSynthesizer(configuration: configuration, seed: 8).trace(at: $0) }
        let swipes = Fixtures.swipes(6, seed: 9)
        let result = try Self.tune(swipes + sideways, ["threshold=0.3,0.5"])
        #expect(result.offAxisCount == 5)
        #expect(result.traceCount == 6)
        // Under a horizontal preset the roles swap.
        let across = try Self.tune(swipes + sideways, preset: "swipe-back", ["threshold=0.3,0.5"])
        #expect(across.offAxisCount == 6)
        #expect(across.traceCount == 5)
    }

    @Test
    func recordingsThatDoNotDriveThePresetAreLeftOutWithTheirReasonInEveryFormat() throws {
        let swipes = Fixtures.swipes(6, seed: 9)
        // circle-reveal is driven by a drag left: swipes down do not drive it.
        #expect(throws: ReplayError.self) { try Self.tune(swipes, preset: "circle-reveal", ["threshold=0.3,0.5"]) }
        // Once a grid axis drives it downward, every swipe is tuned.
        let driven = try Self.tune(swipes, preset: "circle-reveal", ["direction=left,down", "threshold=0.3,0.5"])
        #expect(driven.traceCount == 6 && driven.notFitting.isEmpty)
        // A mix: the swipes fit swipe-dismiss, the edge swipes are off axis.
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = .edgeBack
        let sideways = (0..<3).map { GestureSynthesizer(configuration: configuration, seed: 8).trace(at: $0) }
        let result = try Self.tune(swipes + sideways, ["threshold=0.3,0.5"])
        #expect(result.notFitting.count == 3 && result.offAxisCount == 3)
        #expect(result.notFitting.allSatisfy { $0.reason.contains("moves mostly across the preset's axis") })
        #expect(result.text().contains("3 moving along the other axis"))
        #expect(result.text().contains("not driving swipe-dismiss"))
        #expect(result.csv().contains("# excluded, not driving swipe-dismiss: 3 moving along the other axis"))
        let json = String(decoding: try JSONEncoder().encode(TuningReport(result)), as: UTF8.self)
        #expect(json.contains("\"not_fitting\"") && json.contains("\"off_axis\":3") && json.contains("\"no_progress\":0"))
        #expect(TuningHeatMap(result).svg().contains("excluded, not driving the preset: 3 moving along the other axis"))
    }

    /// `tune --json` writes the misjudged list in pieces; joined, they are the bytes the
    /// encoder writes for the whole report, for pieces of one entry, a few, or all at once,
    /// and with findings and unreadable files around the list.
    @Test(arguments: [1, 2, 3, 1000])
    func theJSONReportInPiecesIsTheWholeReport(chunkSize: Int) throws {
        var traces = Fixtures.swipes(40, seed: 23)
        traces[3].metadata.intent = .unknown
        let result = try Self.tune(traces, ["threshold=0.05,0.95"])
        let report = TuningReport(result)
        #expect(report.misjudged.count > 3)
        var pieces: [Data] = []
        try report.writeJSON(chunkSize: chunkSize) { pieces.append($0) }
        let whole = try TuningReport.encoder().encode(report)
        #expect(pieces.reduce(Data(), +) == whole)
        #expect(pieces.count == (report.misjudged.count > chunkSize ? 2 + (report.misjudged.count + chunkSize - 1) / chunkSize : 1))
    }

    @Test
    func gridSettingsThatMakeAnOutcomeUnreachableAreReported() throws {
        let result = try Self.tune(Fixtures.swipes(6, seed: 9), ["threshold=0.5,1"])
        #expect(result.unreachable.count == 1)
        #expect(result.unreachable[0].hasPrefix("threshold=1: finish is unreachable"))
        #expect(result.text().contains("warning: threshold=1: finish is unreachable"))
    }
}

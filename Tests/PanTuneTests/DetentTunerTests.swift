import Testing
import PanTrace
import TransitionEngine
@testable import PanReplay
@testable import PanTune

/// Tuning a sheet library against the detent people meant: hits, skips, stucks and wrong
/// landings counted at every grid point, the best point by the tie rule, the defaults on their
/// own estimator, folds that cover every gesture once, and every gesture left out said.
struct DetentTunerTests {
    static let sheet = SheetLabel(detents: [100, 400, 700], start: 2)

    /// A straight vertical drag: `moved` points in `duration` s at 120 Hz, released at
    /// `velocity` pt/s (the recorded velocity of every sample).
    static func drag(_ id: String, moved: Double, velocity: Double, duration: Double = 0.2, meant: SheetLabel.Target?, sheet: SheetLabel = sheet)
        -> Trace
    {
        let count = Int(duration * 120)
        let samples = (0...count).map { i in
            PanSample(
                time: Double(i) / 120, phase: i == 0 ? .began : i == count ? .ended : .changed,
                translation: PanVector(x: 0, y: moved * Double(i) / Double(count)), velocity: PanVector(x: 0, y: velocity))
        }
        var label = sheet
        label.target = meant
        return Trace(metadata: TraceMetadata(id: id, intent: meant == nil ? .unknown : .detent, sheet: label), samples: samples)
    }

    /// Released 100 pt above detent 2 (at 600): gorhom's 0.2 s sends -1500 pt/s to 300 (detent
    /// 1) and -2500 pt/s to 100 (detent 0); 0.1 s sends both to detent 1.
    static let corpus = TraceCorpus(traces: [
        drag("slow-1", moved: -100, velocity: -1500, meant: .detent(1)),
        drag("fast-1", moved: -100, velocity: -2500, meant: .detent(1)),
        drag("fast-2", moved: -100, velocity: -2600, meant: .detent(1)),
        drag("top", moved: -550, velocity: -3000, meant: .detent(0)),
        drag("unlabelled", moved: -100, velocity: -1500, meant: nil)
    ])

    static func admitted(_ tuner: DetentTuner, _ corpus: TraceCorpus = corpus) -> DetentTuner.Admitted {
        var admitted = DetentTuner.Admitted()
        for entry in corpus.entries { tuner.admit(entry, into: &admitted) }
        return admitted
    }

    @Test func theShortestProjectionThatStopsTheSkipsWins() throws {
        let grid = try TuningGrid(parsing: ["projection=0.1,0.2"])
        let tuner = try DetentTuner(presetNamed: "gorhom", grid: grid)
        let admitted = Self.admitted(tuner)
        #expect(admitted.drags.count == 4 && admitted.unlabelled == 1)
        let tuning = try tuner.run(admitted)
        #expect(tuning.bestValues == [.number(0.1)])
        #expect(tuning.best.counts == [4, 0, 0, 0])
        // The defaults (0.2) skip the two fast ones past detent 1.
        #expect(tuning.defaults[.hit] == 2 && tuning.defaults[.skip] == 2)
        #expect(tuning.misses.isEmpty)
        #expect(tuning.byStart.map(\.start) == [2])
        #expect(tuning.crossValidation?.traces == 4)
        #expect(tuning.text().contains("hit 100.0 % · skip 0.0 % · stuck 0.0 % · wrong 0.0 %"))
    }

    @Test func aLongerProjectionSkipsAndTheMissesSaySo() throws {
        let tuner = try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["projection=0.2"]))
        let tuning = try tuner.run(Self.admitted(tuner))
        #expect(tuning.best[.skip] == 2)
        #expect(tuning.misses.map(\.file) == ["fast-1", "fast-2"])
        #expect(tuning.misses.allSatisfy { $0.landed == .detent(0) && $0.meant == .detent(1) && $0.landing == .skip })
        #expect(tuning.text().contains("fast-1: meant detent 1 from detent 2, landed detent 0 (skip) at -2500 pt/s"))
    }

    /// A drag that stops short: released at 650 with no speed, gorhom keeps detent 2.
    @Test func aDragThatStopsShortIsStuck() throws {
        let corpus = TraceCorpus(traces: [Self.drag("short", moved: -50, velocity: 0, meant: .detent(1))])
        let tuner = try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["projection=0.2"]))
        let tuning = try tuner.run(Self.admitted(tuner, corpus))
        #expect(tuning.best[.stuck] == 1 && tuning.best[.hit] == 0)
        #expect(tuning.crossValidation == nil)
    }

    @Test func aSheetTheLibraryCannotDriveIsLeftOutWithItsReason() throws {
        // PanModal has two states: a three-detent sheet is left out, a two-detent one is kept.
        let two = SheetLabel(detents: [100, 500], start: 1)
        let corpus = TraceCorpus(traces: [
            Self.drag("three", moved: -100, velocity: -1500, meant: .detent(1)),
            Self.drag("two", moved: -300, velocity: -1500, meant: .detent(0), sheet: two)
        ])
        let tuner = try DetentTuner(presetNamed: "panmodal", grid: TuningGrid(parsing: ["snapMovementSensitivity=0.7"]))
        let admitted = Self.admitted(tuner, corpus)
        #expect(admitted.drags.map(\.file) == ["two"])
        #expect(admitted.notDriven.count == 1 && admitted.notDriven[0].reason.hasPrefix("three: preset 'panmodal' cannot drive"))
    }

    @Test func nothingLabelledIsAnErrorThatSaysWhy() throws {
        let tuner = try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["projection=0.2"]))
        let corpus = TraceCorpus(traces: [Self.drag("u", moved: -100, velocity: -1500, meant: nil)])
        let error = #expect(throws: ReplayError.self) { try tuner.run(Self.admitted(tuner, corpus)) }
        #expect(error?.description.contains("1 without a detent label") == true)
    }

    @Test func aGridTheLibraryCannotTakeIsRefusedBeforeAnyGesture() throws {
        let unknown = #expect(throws: ReplayError.self) { try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["skip=0,1"])) }
        #expect(unknown?.description.contains("valid keys: projection, panDownToClose, velocity") == true, "\(String(describing: unknown))")
        #expect(throws: TransitionEngineError.self) { try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["projection=0.1,5"])) }
        let vaul = #expect(throws: ReplayError.self) { try DetentTuner(presetNamed: "vaul", grid: TuningGrid(parsing: ["velocity=lsq2"])) }
        #expect(vaul?.description.contains("mean over the whole press") == true)
    }

    /// The defaults read the library's own estimator even when the velocity axis leaves it out.
    @Test func theDefaultsReadTheLibrarysOwnEstimator() throws {
        let tuner = try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["velocity=lsq2"]))
        #expect(tuner.estimators == [.lsq2, .recorded] && tuner.defaultsEstimator == 1)
        let tuning = try tuner.run(Self.admitted(tuner))
        #expect(tuning.defaults[.hit] == 2 && tuning.defaults[.skip] == 2)
    }

    @Test func theFoldsCoverEveryGestureOnce() throws {
        let traces = (0..<40).map { i in
            Self.drag("g\(i)", moved: -100, velocity: -1000 - 50 * Double(i), meant: .detent(i % 3 == 0 ? 0 : 1))
        }
        let tuner = try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["projection=0:0.4:0.05"]), threadCount: 4)
        let tuning = try tuner.run(Self.admitted(tuner, TraceCorpus(traces: traces)))
        let cv = try #require(tuning.crossValidation)
        #expect(cv.folds.count == 5 && cv.traces == 40)
        #expect(tuning.best.total == 40)
        // One thread or four, the same sweep.
        let single = try DetentTuner(presetNamed: "gorhom", grid: TuningGrid(parsing: ["projection=0:0.4:0.05"]), threadCount: 1)
        let again = try single.run(Self.admitted(single, TraceCorpus(traces: traces)))
        #expect(again.bestValues == tuning.bestValues && again.best == tuning.best && again.crossValidation == tuning.crossValidation)
    }
}

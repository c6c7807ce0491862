import Testing
@testable import TransitionEngine

/// Each sheet library's release rule on both sides of each of its thresholds (docs/MODEL.md §9).
struct DetentRuleTests {
    /// The sheet of docs/DETENTS.md: an 800 pt screen, detents at 80, 400 and 600 pt.
    static let sheet = try! SheetLayout(detents: [80, 400, 600], screenHeight: 800)

    static func outcome(
        _ preset: DetentPresetName, _ settings: [String: PresetValue] = [:], start: Int = 2, at position: Double, velocity: Double,
        press: Double = 0.2, on sheet: SheetLayout = sheet
    ) throws -> DetentOutcome {
        try DetentPreset(named: preset.rawValue, overrides: settings)
            .decide(DetentRelease(start: start, position: position, velocity: velocity, pressDuration: press), on: sheet).outcome
    }

    @Test(arguments: [
        ([] as [Double], "1…8 detents"), ([80, 80, 600], "does not increase"), ([600, 400], "does not increase"),
        ([80, 900], "off a screen"), (Array(stride(from: 10.0, through: 90, by: 10)), "1…8 detents"), ([80, .nan], "off a screen")
    ])
    func aSheetThatIsNotOneIsRefusedWithWhy(detents: [Double], words: String) {
        #expect {
            _ = try SheetLayout(detents: detents, screenHeight: 800)
        } throws: { ($0 as? TransitionEngineError)?.description.contains(words) == true }
    }

    @Test func aStartOutsideTheDetentsIsRefused() throws {
        #expect(throws: TransitionEngineError.self) { try Self.sheet.checkIndex(3) }
        #expect(throws: TransitionEngineError.self) { try Self.sheet.checkIndex(-1) }
        try Self.sheet.checkIndex(2)
    }

    @Test func floatingPanelRemovesAtFiveAndAHalfPerSecondNotBelow() throws {
        // At 700 pt the hidden position (800) is 100 pt away: 550 pt/s is exactly 5.5 /s.
        #expect(try Self.outcome(.floatingpanel, ["removal": "on"], at: 700, velocity: 550) == .dismissed)
        #expect(try Self.outcome(.floatingpanel, ["removal": "on"], at: 700, velocity: 549.9) != .dismissed)
        #expect(try Self.outcome(.floatingpanel, at: 700, velocity: 550) == .detent(2))
    }

    @Test func floatingPanelGoesOnPastHalfTheSegmentOnly() throws {
        // From 600 up to 400: 0.499 s × v must cover more than 100 pt.
        #expect(try Self.outcome(.floatingpanel, at: 600, velocity: -200.5) == .detent(1))
        #expect(try Self.outcome(.floatingpanel, at: 600, velocity: -200.3) == .detent(2))
        #expect(try Self.outcome(.floatingpanel, ["redirectionalProgress": 0.2], at: 600, velocity: -100) == .detent(1))
    }

    @Test func floatingPanelCrossesOneDetentUnlessItProjectsMomentum() throws {
        #expect(try Self.outcome(.floatingpanel, at: 600, velocity: -5000) == .detent(1))
        #expect(try Self.outcome(.floatingpanel, ["projectMomentum": "on"], at: 600, velocity: -5000) == .detent(0))
    }

    @Test func gorhomProjectsTwoTenthsOfASecondWithNoSkipLimit() throws {
        // 600 + 0.2 v: the midpoint to 400 is 500, so v = −500 is a tie, kept by the less expanded.
        #expect(try Self.outcome(.gorhom, at: 600, velocity: -500) == .detent(2))
        #expect(try Self.outcome(.gorhom, at: 600, velocity: -500.1) == .detent(1))
        #expect(try Self.outcome(.gorhom, at: 600, velocity: -3000) == .detent(0))
        #expect(try Self.outcome(.gorhom, at: 600, velocity: 600) == .detent(2))
        // With the closed position (800) a candidate placed first, a tie at 700 closes.
        #expect(try Self.outcome(.gorhom, ["panDownToClose": "on"], at: 600, velocity: 500) == .dismissed)
        #expect(try Self.outcome(.gorhom, ["panDownToClose": "on"], at: 600, velocity: 499.9) == .detent(2))
    }

    @Test func composeFlingsAtItsVelocityThresholdAndNotBelow() throws {
        // From 600, released at 550 moving up: a fling goes to the closest anchor up (400).
        #expect(try Self.outcome(.composeAnchored, at: 550, velocity: -125) == .detent(1))
        // Below it, 50 pt of a 200 pt gap is under half: back to 600.
        #expect(try Self.outcome(.composeAnchored, at: 550, velocity: -124.9) == .detent(2))
        #expect(try Self.outcome(.composeAnchored, at: 500, velocity: -10) == .detent(1))  // exactly half goes on (>=)
        #expect(try Self.outcome(.composeAnchored, at: 500.1, velocity: -10) == .detent(2))
        // No velocity: the closest anchor, wherever the drag began.
        #expect(try Self.outcome(.composeAnchored, start: 0, at: 520, velocity: 0) == .detent(2))
        // A fling never skips: from far past 400 it still stops at 400.
        #expect(try Self.outcome(.composeAnchored, at: 420, velocity: -8000) == .detent(1))
    }

    @Test func material3SheetsUseFiftySixDpFromTheSettledAnchor() throws {
        // offset > 600 − 56 stays; at 544 it goes on.
        #expect(try Self.outcome(.m3Sheet, at: 544.1, velocity: -10) == .detent(2))
        #expect(try Self.outcome(.m3Sheet, at: 544, velocity: -10) == .detent(1))
        #expect(try Self.outcome(.m3Sheet, at: 590, velocity: -125) == .detent(1))
        #expect(try Self.outcome(.m3Sheet, at: 590, velocity: -124.9) == .detent(2))
    }

    @Test func material3TakesTheDirectionFromTheOffsetNotTheVelocity() throws {
        // From 400, released 70 pt below it while flinging up: Material 3 reads a drag down past
        // 56 dp and goes down to 600; the foundation reads the fling and goes up to 400.
        #expect(try Self.outcome(.m3Sheet, start: 1, at: 470, velocity: -2000) == .detent(2))
        #expect(try Self.outcome(.composeAnchored, start: 1, at: 470, velocity: -2000) == .detent(1))
    }

    @Test func flutterFlingsOneSnapSizeAndOtherwiseTakesTheNearest() throws {
        // Released at 450: between 400 and 600.
        #expect(try Self.outcome(.flutterSheet, at: 450, velocity: -200) == .detent(1))
        #expect(try Self.outcome(.flutterSheet, at: 450, velocity: 200) == .detent(2))
        #expect(try Self.outcome(.flutterSheet, at: 450, velocity: 6) == .detent(1))  // within tolerance: nearest
        #expect(try Self.outcome(.flutterSheet, at: 550, velocity: -6) == .detent(2))
        #expect(try Self.outcome(.flutterSheet, at: 500, velocity: 0) == .detent(1))  // a tie goes to the larger size
        #expect(try Self.outcome(.flutterSheet, at: 130, velocity: -9000) == .detent(0))
    }

    @Test func materialBottomSheetExpandsOnAnyUpwardVelocity() throws {
        #expect(try Self.outcome(.mdcBottomsheet, at: 590, velocity: -1) == .detent(1))
        #expect(try Self.outcome(.mdcBottomsheet, at: 390, velocity: -1) == .detent(0))
        // Moving down never expands, however near expanded.
        #expect(try Self.outcome(.mdcBottomsheet, at: 90, velocity: 1) == .detent(1))
    }

    @Test func materialBottomSheetComparesAPositionWithADistance() throws {
        // At rest at 300 pt (above half): true nearest is half (400), but MDC asks whether
        // 300 < |300 − 600| = 300: no, so half. At 290: 290 < 310, so expanded — 210 pt away.
        #expect(try Self.outcome(.mdcBottomsheet, at: 300, velocity: 0) == .detent(1))
        #expect(try Self.outcome(.mdcBottomsheet, at: 290, velocity: 0) == .detent(0))
    }

    @Test func materialBottomSheetHidesOnlyWhenHideable() throws {
        // From collapsed, 700 pt with a fast swipe down: hidden when hideable.
        #expect(try Self.outcome(.mdcBottomsheet, ["hideable": "on"], at: 700, velocity: 2000) == .dismissed)
        #expect(try Self.outcome(.mdcBottomsheet, at: 700, velocity: 2000) == .detent(2))
    }

    @Test func panModalFlicksAboveThreeHundredPointsPerSecondOnly() throws {
        let two = try SheetLayout(detents: [100, 500], screenHeight: 800)
        #expect(try Self.outcome(.panmodal, start: 1, at: 480, velocity: -300, on: two) == .detent(1))
        #expect(try Self.outcome(.panmodal, start: 1, at: 480, velocity: -300.1, on: two) == .detent(0))
        // Down fast from below short form: dismiss; from above it and nearer long form: short form.
        #expect(try Self.outcome(.panmodal, start: 1, at: 520, velocity: 400, on: two) == .dismissed)
        #expect(try Self.outcome(.panmodal, start: 0, at: 300, velocity: 400, on: two) == .detent(1))
        // Slow, exactly between short form and the bottom (650): the bottom is listed first.
        #expect(try Self.outcome(.panmodal, start: 1, at: 650, velocity: 0, on: two) == .dismissed)
        #expect(try Self.outcome(.panmodal, start: 1, at: 649.9, velocity: 0, on: two) == .detent(1))
    }

    @Test func panModalAndMaterialSayWhichSheetsTheyCannotDrive() {
        let four = try! SheetLayout(detents: [80, 300, 500, 700], screenHeight: 800)
        #expect(DetentPreset(.panmodal).problem(driving: four)?.contains("two detents") == true)
        #expect(DetentPreset(.mdcBottomsheet).problem(driving: four)?.contains("two or three") == true)
        #expect(DetentPreset(.gorhom).problem(driving: four) == nil)
    }

    @Test func theVelocityGatesReadAsTheirPlatformsDo() {
        #expect(DetentVelocityGate.androidClamp.velocity(estimated: 49.9, distance: 0, pressDuration: 1) == 0)
        #expect(DetentVelocityGate.androidClamp.velocity(estimated: -50, distance: 0, pressDuration: 1) == -50)
        #expect(DetentVelocityGate.androidClamp.velocity(estimated: 9000, distance: 0, pressDuration: 1) == 8000)
        #expect(DetentVelocityGate.flutterFling.velocity(estimated: 50, distance: 0, pressDuration: 1) == 0)
        #expect(DetentVelocityGate.flutterFling.velocity(estimated: -50.1, distance: 0, pressDuration: 1) == -50.1)
        #expect(DetentVelocityGate.pressMean.velocity(estimated: 9999, distance: -60, pressDuration: 0.19) == -60 / 0.19)
        #expect(DetentVelocityGate.none.velocity(estimated: 12, distance: 0, pressDuration: 1) == 12)
    }

    @Test func theMarginIsTheVelocityChangeThatFlipsTheOutcome() throws {
        let release = DetentRelease(start: 2, position: 600, velocity: 0)
        let margin = try #require(DetentPreset(.gorhom).velocityMargin(release, on: Self.sheet))
        #expect(abs(margin.change + 500) <= 0.1)
        #expect(margin.outcome == .detent(1))
        // MDC at 460 pt settles at half whatever the velocity: no margin.
        #expect(DetentPreset(.mdcBottomsheet).velocityMargin(DetentRelease(start: 2, position: 460, velocity: 0), on: Self.sheet) == nil)
    }

    @Test func anUnknownSettingNamesTheValidOnes() {
        #expect {
            _ = try DetentPreset(named: "vaul", overrides: ["velocity_threshold": 1])
        } throws: { ($0 as? TransitionEngineError)?.description.contains("velocityThreshold") == true }
        #expect(throws: TransitionEngineError.self) { _ = try DetentPreset(named: "floatingpanel", overrides: ["removal": 1]) }
        #expect(throws: TransitionEngineError.self) { _ = try DetentPreset(named: "sheet") }
    }
}

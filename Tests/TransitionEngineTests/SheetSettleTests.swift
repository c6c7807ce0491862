import Foundation
import Testing
@testable import TransitionEngine

/// Each sheet library's settle motion (docs/MODEL.md §9.5), on both sides of its thresholds.
struct SheetSettleTests {
    /// An 800 pt screen 390 pt wide, detents at 80, 400 and 600 pt.
    static let sheet = try! SheetLayout(detents: [80, 400, 600], screenHeight: 800)
    static let display = SheetDisplay(width: 390)

    static func settle(
        _ preset: DetentPresetName, _ settings: [String: PresetValue] = [:], start: Int = 2, at position: Double, velocity: Double,
        to outcome: DetentOutcome, on sheet: SheetLayout = sheet, display: SheetDisplay = display
    ) throws -> SheetSettle {
        try DetentPreset(named: preset.rawValue, overrides: settings)
            .settle(DetentRelease(start: start, position: position, velocity: velocity, pressDuration: 0.2), to: outcome, on: sheet, display: display)
    }

    static func frames(_ settle: SheetSettle) -> (interval: Double, positions: [Double])? {
        if case .frames(let interval, let positions) = settle.motion { return (interval, positions) }
        return nil
    }

    @Test func everyLibraryComesToRestExactlyOnItsTarget() throws {
        for preset in DetentPresetName.allCases where preset != .panmodal {
            for velocity in [-3000.0, -400, 0, 400, 3000] {
                let settle = try Self.settle(preset, at: 470, velocity: velocity, to: .detent(1))
                #expect(settle.position(at: settle.duration) == 400, "\(preset) at \(velocity) pt/s")
                #expect(settle.positions(rate: 60).last == 400, "\(preset) at \(velocity) pt/s")
                #expect(settle.position(at: -1) == settle.from, "\(preset)")
                #expect(settle.duration < 5, "\(preset) at \(velocity) pt/s takes \(settle.duration) s")
            }
        }
    }

    @Test func floatingPanelSpringsUnderdampedAbove300PointsPerSecondOnly() throws {
        // ζ = ln 0.991 / (−2π · 2.5 · 0.001) ≈ 0.5756 above 300 pt/s; 1 at or below.
        let fast = try Self.settle(.floatingpanel, at: 450, velocity: -301, to: .detent(1))
        let slow = try Self.settle(.floatingpanel, at: 450, velocity: -300, to: .detent(1))
        #expect(fast.summary.contains("ζ 0.58,"))
        #expect(slow.summary.contains("ζ 1,"))
        let fastFrames = try #require(Self.frames(fast))
        let slowFrames = try #require(Self.frames(slow))
        #expect(fastFrames.interval == 1.0 / 60)
        // Underdamped, the panel passes its target (upward: above 400) before it rests.
        #expect(fastFrames.positions.min()! < 399)
        #expect(slowFrames.positions.min()! >= 400 - 1.0 / 3)
    }

    @Test func floatingPanelStopsWithinOneDevicePixelAndStepsPerFrame() throws {
        let settle = try Self.settle(
            .floatingpanel, at: 450, velocity: 0, to: .detent(1), display: SheetDisplay(width: 390, refreshRate: 120, scale: 2))
        let frames = try #require(Self.frames(settle))
        #expect(frames.interval == 1.0 / 120)
        // The last frame is the panel laid out at its state; the one before is still moving
        // (else the animator would have stopped there).
        #expect(frames.positions.last == 400)
        #expect(frames.positions[frames.positions.count - 2] != 400)
        // The first implicit step, by hand: f = 1 + 2hζω, det = f + h²ω², x1 = (f·x0 + h²ω²·xt) / det.
        let h = 1.0 / 120
        let omega = 2 * Double.pi / 0.4
        let f = 1 + 2 * h * omega
        let x1 = (f * 450 + h * h * omega * omega * 400) / (f + h * h * omega * omega)
        #expect(abs(frames.positions[0] - x1) < 1e-9)
    }

    @Test func vaulMovesHalfASecondAlongItsCurveWhateverTheVelocity() throws {
        let slow = try Self.settle(.vaul, at: 500, velocity: 0, to: .detent(1))
        let fast = try Self.settle(.vaul, at: 500, velocity: 4000, to: .detent(1))
        #expect(slow.duration == 0.5 && fast.duration == 0.5)
        let curve = CubicBezier(x1: 0.32, y1: 0.72, x2: 0, y2: 1)
        #expect(abs(slow.position(at: 0.25) - (500 - 100 * TimingCurve.custom(curve).value(at: 0.5))) < 1e-9)
        #expect(slow.position(at: 0.25) == fast.position(at: 0.25))
    }

    @Test func gorhomSolvesItsOverdampedSpringAsCriticalWithHalfTheVelocity() throws {
        let settle = try Self.settle(.gorhom, at: 500, velocity: -1000, to: .detent(1))
        #expect(settle.velocity == -500)
        let frames = try #require(Self.frames(settle))
        // Reanimated's critically damped formula at ω0 = √(1000/3), v0 = −velocity, x0 = to − from.
        let omega0 = (1000.0 / 3).squareRoot()
        let t = 1.0 / 60
        let expected = 400 - exp(-omega0 * t) * (-100 + (500 + omega0 * -100) * t)
        #expect(abs(frames.positions[0] - expected) < 1e-9)
        // A true overdamped spring (ζ 4.56) with the same mass, stiffness and damping is slower.
        let overdamped = Spring(mass: 3, stiffness: 1000, damping: 500).oscillator(displacement: 100, velocity: -500)
        #expect(abs((400 + overdamped.displacement(at: 3 * t)) - frames.positions[2]) > 1)
        // It rests once within 10 pt and slower than 10 pt/s: the last frame jumps, at most 10 pt.
        let beforeLast = frames.positions[frames.positions.count - 2]
        #expect(beforeLast > 400 && beforeLast - 400 < 10)
        #expect(frames.positions.allSatisfy { $0 >= 400 })
    }

    @Test func materialSettlesForViewDragHelpersDurationOnBothSidesOfTheMinimumFlingAndTheCap() throws {
        // Density 2.625: 500 pt is 1313 px, 400 pt is 1050 px (Δ −263 px); the range is the
        // collapsed offset, 1575 px; the parent is 1024 px wide.
        let still = try Self.settle(.mdcBottomsheet, at: 500, velocity: 0, to: .detent(1))
        #expect(abs(still.duration - 0.298) < 1e-12)  // (263/1575 + 1) · 256 ms
        // 40 pt/s is 105 px/s, under the minimum fling (131 px/s): no velocity, the same time.
        let underFling = try Self.settle(.mdcBottomsheet, at: 500, velocity: -40, to: .detent(1))
        #expect(underFling.duration == still.duration)
        // 1000 pt/s: 4 · round(1000 · 453.5 / 2625) = 692 ms, capped at 600.
        #expect(try Self.settle(.mdcBottomsheet, at: 500, velocity: -1000, to: .detent(1)).duration == 0.6)
        #expect(try Self.settle(.mdcBottomsheet, at: 500, velocity: -1200, to: .detent(1)).duration == 0.576)
        #expect(try Self.settle(.mdcBottomsheet, at: 500, velocity: -5000, to: .detent(1)).duration == 0.14)
        // The quintic ease-out: (u − 1)⁵ + 1 at u = ½ is 31/32 of the way.
        let fast = try Self.settle(.mdcBottomsheet, at: 500, velocity: -5000, to: .detent(1))
        #expect(abs(fast.position(at: 0.07) - (1313 - 263 * 31.0 / 32) / 2.625) < 1e-9)
    }

    @Test func flutterSnapsInAStraightLineAtTheFlingOrSixteenHundred() throws {
        #expect(try Self.settle(.flutterSheet, at: 500, velocity: -1000, to: .detent(1)).motion == .constantSpeed(1600))
        #expect(try Self.settle(.flutterSheet, at: 500, velocity: -3000, to: .detent(1)).motion == .constantSpeed(3000))
        // A fling away from the target: the minimum speed.
        #expect(try Self.settle(.flutterSheet, at: 500, velocity: 3000, to: .detent(1)).motion == .constantSpeed(1600))
        let settle = try Self.settle(.flutterSheet, at: 500, velocity: -3000, to: .detent(1))
        #expect(abs(settle.duration - 100.0 / 3000) < 1e-12)
        #expect(abs(settle.position(at: 0.01) - 470) < 1e-9)
    }

    @Test func panModalTakesHalfASecondAndIgnoresTheFinger() throws {
        let sheet = try SheetLayout(detents: [80, 500], screenHeight: 800)
        let slow = try Self.settle(.panmodal, start: 1, at: 300, velocity: 0, to: .detent(0), on: sheet)
        let fast = try Self.settle(.panmodal, start: 1, at: 300, velocity: -3000, to: .detent(0), on: sheet)
        #expect(slow.duration == 0.5 && slow.velocity == 0)
        #expect(slow.position(at: 0.2) == fast.position(at: 0.2))
        #expect(abs(slow.position(at: 0.4999) - 80) < 0.3)
        // Damping 0.8 overshoots a little: above the long form at some point.
        #expect(slow.positions(rate: 240).min()! < 80)
    }

    @Test func material3SpringsFromTheReleaseVelocity() throws {
        let settle = try Self.settle(.m3Sheet, at: 500, velocity: -2000, to: .detent(1))
        guard case .spring(let spring, _) = settle.motion else {
            Issue.record("not a spring: \(settle.motion)")
            return
        }
        #expect(abs(spring.dampingRatio - 0.9) < 1e-12 && spring.stiffness == 700)
        let still = try Self.settle(.m3Sheet, at: 500, velocity: 0, to: .detent(1))
        #expect(settle.position(at: 0.02) < still.position(at: 0.02))
    }

    @Test func chromiumEasesAtTheScrollsEndWithoutAFlingAndRunsItsSnapCurveAfterOne() throws {
        // From detent 2 (600) dragged to 500: 15 px of touch slop leave the scroller at 515.
        let still = try Self.settle(.cssScrollSnap, at: 500, velocity: 0, to: .detent(1))
        let frames = try #require(Self.frames(still))
        // min(√115, 42) / 60 s ≈ 0.179 s of ease-in-out: ten frames at 60 Hz, then the target.
        #expect(frames.positions.count == 11)
        #expect(frames.positions.last == 400)
        #expect(still.summary.contains("ease-in-out"))
        let fling = try Self.settle(.cssScrollSnap, at: 500, velocity: -3000, to: .detent(0))
        #expect(fling.summary.contains("SnapFlingCurve"))
        #expect(Self.frames(fling)?.positions.last == 80)
        // Never past the scroller's ends.
        #expect(Self.frames(fling)?.positions.allSatisfy { (80...600).contains($0) } == true)
    }

    @Test func aDismissSettlesAtTheBottomOfTheScreen() throws {
        let settle = try Self.settle(.gorhom, at: 700, velocity: 2000, to: .dismissed)
        #expect(settle.to == 800)
    }
}

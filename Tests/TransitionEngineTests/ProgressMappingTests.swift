import Testing
import TransitionEngine

struct ProgressMappingTests {
    @Test
    func translationDividedByDistanceIsClampedToUnitRange() {
        let mapping = ProgressMapping(axis: .x, distance: 400)
        #expect(mapping.progress(for: Vector2(x: 100, y: 50)) == 0.25)
        #expect(mapping.progress(for: Vector2(x: 500, y: 0)) == 1)
        #expect(mapping.progress(for: Vector2(x: -20, y: 0)) == 0)
    }

    @Test
    func negativeSignMakesLeftwardDragsAdvance() {
        let mapping = ProgressMapping(axis: .x, sign: -1, distance: 400)
        #expect(mapping.progress(for: Vector2(x: -100, y: 0)) == 0.25)
        #expect(mapping.axisVelocity(for: Vector2(x: -800, y: 30)) == 800)
        #expect(mapping.progressVelocity(for: Vector2(x: -800, y: 30)) == 2)
    }

    @Test
    func magnitudeMappingUsesTheAbsoluteTranslation() {
        let mapping = ProgressMapping(axis: .x, sign: -1, distance: 400, usesMagnitude: true)
        #expect(mapping.progress(for: Vector2(x: -200, y: 0)) == 0.5)
        #expect(mapping.progress(for: Vector2(x: 200, y: 0)) == 0.5)
    }

    @Test
    func rubberBandFollowsTheUIScrollViewFormula() {
        // b(x) = (1 − 1/(x·c/d + 1))·d with c = 0.55 (docs/MODEL.md §2.2).
        let band = RubberBand(dimension: 300)
        for x in [0.0, 10, 100, 300, 1000] {
            let expected = (1 - 1 / (x * 0.55 / 300 + 1)) * 300
            #expect(abs(band.offset(for: x) - expected) < 1e-12)
            #expect(abs(band.offset(for: -x) + expected) < 1e-12)
        }
        #expect(band.slope(at: 0) == 0.55)
        #expect(band.offset(for: 1e12) < 300)
    }

    @Test
    func rubberBandedProgressPassesTheEndsWithDiminishingReturns() {
        let mapping = ProgressMapping(axis: .x, distance: 400, overflow: .rubberBand(coefficient: 0.55))
        let past = mapping.progress(for: Vector2(x: 600, y: 0))
        // Raw 1.5: 1 + (1 − 1/(0.5·0.55 + 1)).
        #expect(abs(past - (1 + (1 - 1 / (0.5 * 0.55 + 1)))) < 1e-12)
        #expect(past > 1 && past < 1.5)
        let before = mapping.progress(for: Vector2(x: -200, y: 0))
        #expect(before < 0 && before > -0.5)
        #expect(mapping.progress(for: Vector2(x: 200, y: 0)) == 0.5)
    }

    @Test
    func continuingFromAProgressOffsetsTheStart() {
        let mapping = ProgressMapping(axis: .y, distance: 200).continuing(from: 0.4)
        #expect(abs(mapping.progress(for: Vector2(x: 0, y: 20)) - 0.5) < 1e-12)
    }
}

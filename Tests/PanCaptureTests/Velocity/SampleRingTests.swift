import Testing

@testable import PanCapture

struct SampleRingTests {
    @Test func appendingToAFullRingDropsTheOldestAndKeepsTimeOrder() {
        var ring = SampleRing()
        for step in 0..<27 {
            ring.append(nanoseconds: Int64(step), x: Double(step), y: -Double(step))
        }
        #expect(ring.count == SampleRing.capacity)
        #expect((0..<ring.count).map { ring.time($0) } == (7..<27).map { Int64($0) })
        #expect(ring.x(0) == 7 && ring.y(19) == -26)
    }

    @Test func removingFromBothEndsAcrossTheWrapKeepsOrder() {
        var ring = SampleRing()
        for step in 0..<25 {
            ring.append(nanoseconds: Int64(step), x: 0, y: 0)
        }
        ring.removeOldest()
        ring.removeNewest()
        ring.append(nanoseconds: 100, x: 0, y: 0)
        #expect((0..<ring.count).map { ring.time($0) } == (6..<24).map { Int64($0) } + [100])
        ring.removeAll()
        #expect(ring.isEmpty)
    }
}

/// A sheet that rests at detents: where its top edge may stop, in points from the top of the
/// screen (docs/MODEL.md §9).
///
/// Detents are listed from the most expanded (smallest position) to the least; an index
/// names one (`0` is the highest). The sheet is closed when its top edge is at the bottom of
/// the screen, ``closedPosition``.
public struct SheetLayout: Sendable, Hashable {
    /// How many detents a sheet may have. One is accepted because FloatingPanel's own tests
    /// use it (every library then keeps it); the libraries' sheets have two to eight.
    public static let detentCounts = 1...8

    /// The detents' positions, strictly increasing.
    public let detents: [Double]
    /// The screen's height, points: where the top edge of a closed sheet is.
    public let screenHeight: Double

    /// A sheet on a screen `screenHeight` points tall.
    ///
    /// - Throws: ``TransitionEngineError`` when there are too few or too many detents, a
    ///   position is not finite, positions do not increase, or one lies off the screen.
    public init(detents: [Double], screenHeight: Double) throws(TransitionEngineError) {
        guard Self.detentCounts.contains(detents.count) else {
            throw .invalidSheet("a sheet has \(Self.detentCounts.lowerBound)…\(Self.detentCounts.upperBound) detents, got \(detents.count)")
        }
        guard screenHeight.isFinite, screenHeight > 0 else {
            throw .invalidSheet("the screen height must be a positive number of points, got \(screenHeight)")
        }
        for (index, position) in detents.enumerated() {
            guard position.isFinite, (0...screenHeight).contains(position) else {
                throw .invalidSheet("detent \(index) at \(position) pt is off a screen \(screenHeight) pt tall (0…\(screenHeight))")
            }
            if index > 0, position <= detents[index - 1] {
                throw .invalidSheet(
                    "detents are positions from the top of the screen, most expanded first: \(detents[index - 1]) then \(position) does not increase")
            }
        }
        self.detents = detents
        self.screenHeight = screenHeight
    }

    /// The position of a closed sheet: its top edge at the bottom of the screen.
    public var closedPosition: Double { screenHeight }

    /// The index of the last (least expanded) detent.
    public var lastIndex: Int { detents.count - 1 }

    /// Checks that `index` names a detent.
    ///
    /// - Throws: ``TransitionEngineError`` naming the valid range.
    public func checkIndex(_ index: Int, name: String = "start") throws(TransitionEngineError) {
        guard detents.indices.contains(index) else {
            throw .invalidSheet("\(name) = \(index) names no detent; the sheet's detents are 0…\(lastIndex)")
        }
    }

    /// The detent nearest `position`; of two at the same distance, the one listed first.
    public func nearest(to position: Double) -> Int {
        var best = 0
        for index in detents.indices.dropFirst() where abs(detents[index] - position) < abs(detents[best] - position) {
            best = index
        }
        return best
    }
}

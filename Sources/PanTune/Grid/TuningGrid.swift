internal import PanReplay
package import TransitionEngine

/// The parameter grid of a tuning sweep: the Cartesian product of its axes.
///
/// Points are numbered row-major: the first axis changes slowest, the last fastest, so point
/// 0 takes every axis's first value.
package struct TuningGrid: Sendable, Hashable {
    /// The axes, in the order given.
    package let axes: [GridAxis]
    /// The number of points (the product of the axis sizes).
    package let pointCount: Int

    /// Grids above this many points need an explicit confirmation (`--yes`).
    package static let confirmationLimit = 10_000_000

    /// Creates a grid.
    ///
    /// - Parameters:
    ///   - axes: at least one axis, each key once.
    ///   - isConfirmed: whether a grid above ``confirmationLimit`` points may run.
    /// - Throws: ``ReplayError`` for no axes, a key given twice, or a grid too large to run
    ///   unconfirmed (or too large to count).
    package init(axes: [GridAxis], isConfirmed: Bool = false) throws {
        guard !axes.isEmpty else { throw ReplayError.emptyGrid("give at least one --grid KEY=FROM:TO:STEP or KEY=V1,V2,…") }
        var seen: Set<String> = []
        var count = 1
        for axis in axes {
            guard seen.insert(axis.key).inserted else { throw ReplayError.duplicateAxis(axis.key) }
            let (product, overflow) = count.multipliedReportingOverflow(by: axis.values.count)
            guard !overflow else { throw ReplayError.gridTooLarge(points: Int.max, limit: Self.confirmationLimit) }
            count = product
        }
        guard isConfirmed || count <= Self.confirmationLimit else {
            throw ReplayError.gridTooLarge(points: count, limit: Self.confirmationLimit)
        }
        self.axes = axes
        self.pointCount = count
    }

    /// Parses and creates a grid, refusing it for its size before any axis is built: a
    /// request such as `threshold=0:1:1e-12` costs a division, not gigabytes.
    ///
    /// - Parameters:
    ///   - specs: `KEY=FROM:TO:STEP` or `KEY=V1,V2,…`, one per axis (``GridAxis/init(parsing:)``).
    ///   - isConfirmed: whether a grid above `maximumPoints` may run.
    ///   - maximumPoints: the most points an unconfirmed grid may have.
    /// - Throws: ``ReplayError`` for a malformed axis, or a grid too large.
    package init(parsing specs: [String], isConfirmed: Bool = false, maximumPoints: Int = TuningGrid.confirmationLimit) throws {
        var count = 1
        for spec in specs {
            let (product, overflow) = count.multipliedReportingOverflow(by: try GridAxis.valueCount(parsing: spec))
            guard !overflow else { throw ReplayError.gridTooLarge(points: Int.max, limit: maximumPoints) }
            count = product
        }
        guard isConfirmed || count <= maximumPoints else {
            throw ReplayError.gridTooLarge(points: count, limit: maximumPoints)
        }
        try self.init(axes: specs.map { try GridAxis(parsing: $0) }, isConfirmed: isConfirmed)
    }

    /// Each axis's value index at point `index`.
    package func valueIndices(ofPoint index: Int) -> [Int] {
        precondition(index >= 0 && index < pointCount, "grid point out of range")
        var remainder = index
        var indices = [Int](repeating: 0, count: axes.count)
        for axis in axes.indices.reversed() {
            let size = axes[axis].values.count
            indices[axis] = remainder % size
            remainder /= size
        }
        return indices
    }

    /// The values at point `index`, one per axis, in axis order.
    package func values(ofPoint index: Int) -> [PresetValue] {
        zip(axes, valueIndices(ofPoint: index)).map { $0.values[$1] }
    }

    /// The point with these value indices (the inverse of ``valueIndices(ofPoint:)``).
    package func point(withValueIndices indices: [Int]) -> Int {
        precondition(indices.count == axes.count, "one index per axis")
        var index = 0
        for (axis, value) in zip(axes, indices) {
            precondition(value >= 0 && value < axis.values.count, "value index out of range")
            index = index * axis.values.count + value
        }
        return index
    }
}

package import TransitionEngine

/// How the tuner picks one point among equally good ones (docs/TUNE.md, "The tie rule").
///
/// 1. The most correct decisions: the **equal points** (``EqualPoints``).
/// 2. Among them, the largest minimum margin: the release nearest its threshold is as far
///    from it as the grid allows.
/// 3. Among those, the point nearest the **middle of their range** on each numeric axis they
///    do not fill, each axis's distance counted in grid steps over the axis's length. An axis
///    they fill (every value equally good) and a named axis have no middle worth aiming at.
/// 4. Then the point nearest the **defaults' values** on every axis: by the same distance on a
///    numeric axis (to where the defaults' value falls between grid values), 0 or 1 on a named
///    axis (the defaults' name or another).
/// 5. Only then the earlier point in grid order, which can decide only between points at the
///    same distances from both the middle and the defaults.
///
/// The grid order of points never decides before step 5, unlike a first-wins scan.
package struct TieRule: Sendable {
    /// Which step of the rule picked the best point.
    package enum Step: String, Sendable, Hashable, Codable, CaseIterable {
        /// One point had the most correct decisions.
        case accuracy
        /// One of the equal points had the largest minimum margin.
        case minimumMargin = "min_margin"
        /// The middle of the remaining range.
        case middle
        /// The nearest to the defaults' values.
        case defaults
        /// Grid order, between points that no earlier step separates.
        case gridOrder = "grid_order"
    }

    /// The outcome: the best point and the sets it was chosen from.
    package struct Choice: Sendable, Hashable {
        /// The chosen point.
        package var best: Int
        /// The points with the most correct decisions.
        package var equal: EqualPoints
        /// How many of those also have the largest minimum margin.
        package var afterMargin: Int
        /// The step that decided.
        package var decidedBy: Step
    }

    /// The grid.
    let grid: TuningGrid
    /// Where the defaults' value lies on each axis, as a (possibly fractional) value index, or
    /// nil for a named value that is not on the axis.
    let defaultIndices: [Double?]

    /// A rule for `grid`, with the preset's default value of each axis.
    package init(grid: TuningGrid, defaultValues: [PresetValue]) {
        precondition(defaultValues.count == grid.axes.count, "one default per axis")
        self.grid = grid
        defaultIndices = zip(grid.axes, defaultValues).map { Self.index(of: $1, on: $0) }
    }

    /// The value index of `value` on `axis`: its own index when on the axis; for a number
    /// between two grid values, the fraction of the way between their indices; the nearest
    /// end beyond them; nil for a name that is not on the axis.
    static func index(of value: PresetValue, on axis: GridAxis) -> Double? {
        if let exact = axis.values.firstIndex(of: value) { return Double(exact) }
        guard let number = value.number else { return nil }
        let numbers = axis.values.map(\.number)
        guard numbers.allSatisfy({ $0 != nil }) else { return nil }
        let values = numbers.map { $0! }
        var nearest = 0
        for (index, candidate) in values.enumerated() where abs(candidate - number) < abs(values[nearest] - number) { nearest = index }
        // Between two neighbours on an increasing axis: interpolate the index.
        if nearest + 1 < values.count, values[nearest] < number, number < values[nearest + 1] {
            return Double(nearest) + (number - values[nearest]) / (values[nearest + 1] - values[nearest])
        }
        if nearest > 0, values[nearest - 1] < number, number < values[nearest] {
            return Double(nearest - 1) + (number - values[nearest - 1]) / (values[nearest] - values[nearest - 1])
        }
        return Double(nearest)
    }

    /// Picks the best of the grid's points scored by `correct` and `minimumMargin`
    /// (`minimumMargin` is read only for the points with the most correct decisions).
    package func choose(correct: (Int) -> Int, minimumMargin: (Int) -> Double) -> Choice {
        let count = grid.pointCount
        precondition(count > 0, "no points")
        let corrects = (0..<count).map(correct)
        var most = Int.min
        for value in corrects where value > most { most = value }
        var equalMembers: [Int] = []
        for point in 0..<count where corrects[point] == most { equalMembers.append(point) }
        let margins = equalMembers.map(minimumMargin)
        var widest = -Double.infinity
        for margin in margins where margin > widest { widest = margin }
        let finalistMembers = zip(equalMembers, margins).filter { $0.1 == widest }.map(\.0)
        let equal = EqualPoints(grid: grid, members: equalMembers)
        let finalists = EqualPoints(grid: grid, members: finalistMembers)

        // Step 3 aims at the middle of each numeric axis the finalists do not fill; an axis
        // they fill, and a named axis, have no middle worth aiming at and are left to step 4.
        let middles: [Double?] = grid.axes.indices.map { axis in
            let share = finalists.axes[axis]
            let isNamed = grid.axes[axis].values.contains { $0.number == nil }
            guard !isNamed, !share.isWhole else { return nil }
            return Double(share.lowIndex + share.highIndex) / 2
        }
        func distance(_ point: Int, to aims: [Double?]) -> Double {
            var total = 0.0
            for (axis, index) in grid.valueIndices(ofPoint: point).enumerated() {
                guard let aim = aims[axis] else { continue }
                let values = grid.axes[axis].values
                if values.contains(where: { $0.number == nil }) {
                    // Names have no order: the defaults' name or not.
                    total += Double(index) == aim ? 0 : 1
                } else {
                    total += abs(Double(index) - aim) / Double(max(1, values.count - 1))
                }
            }
            return total
        }

        var best = -1
        var bestMiddle = Double.infinity, bestDefaults = Double.infinity
        var middleTies = 0, defaultTies = 0
        for point in finalistMembers {
            let middle = distance(point, to: middles)
            let nearDefaults = distance(point, to: defaultIndices)
            if best < 0 || middle < bestMiddle - 1e-12 {
                (best, bestMiddle, bestDefaults, middleTies, defaultTies) = (point, middle, nearDefaults, 1, 1)
            } else if abs(middle - bestMiddle) <= 1e-12 {
                middleTies += 1
                if nearDefaults < bestDefaults - 1e-12 {
                    (best, bestDefaults, defaultTies) = (point, nearDefaults, 1)
                } else if abs(nearDefaults - bestDefaults) <= 1e-12 {
                    defaultTies += 1
                }
            }
        }
        let step: Step
        if equal.count == 1 {
            step = .accuracy
        } else if finalists.count == 1 {
            step = .minimumMargin
        } else if middleTies == 1 {
            step = .middle
        } else if defaultTies == 1 {
            step = .defaults
        } else {
            step = .gridOrder
        }
        return Choice(best: best, equal: equal, afterMargin: finalists.count, decidedBy: step)
    }
}

/// A set of grid points described axis by axis: how many, and which values of each axis
/// they take.
package struct EqualPoints: Sendable, Hashable {
    /// One axis's share of the set.
    package struct Axis: Sendable, Hashable {
        /// Whether the set takes each value of the axis, by value index.
        package var takes: [Bool]
        /// How many values of the axis the set takes.
        package var count: Int
        /// The smallest value index the set takes.
        package var lowIndex: Int
        /// The largest value index the set takes.
        package var highIndex: Int

        /// Whether the set takes every value of the axis.
        package var isWhole: Bool { count == takes.count }
    }

    /// Points in the set.
    package var count: Int
    /// Per grid axis.
    package var axes: [Axis]

    /// The points of `grid` for which `isMember` holds.
    init(grid: TuningGrid, isMember: (Int) -> Bool) {
        self.init(grid: grid, members: (0..<grid.pointCount).filter(isMember))
    }

    /// The points `members` of `grid`.
    init(grid: TuningGrid, members: [Int]) {
        var count = 0
        var axes = grid.axes.map { Axis(takes: [Bool](repeating: false, count: $0.values.count), count: 0, lowIndex: Int.max, highIndex: Int.min) }
        let sizes = grid.axes.map(\.values.count)
        for point in members {
            count += 1
            // Row-major: the last axis changes fastest.
            var remainder = point
            for axis in sizes.indices.reversed() {
                let index = remainder % sizes[axis]
                remainder /= sizes[axis]
                if !axes[axis].takes[index] {
                    axes[axis].takes[index] = true
                    axes[axis].count += 1
                }
                axes[axis].lowIndex = min(axes[axis].lowIndex, index)
                axes[axis].highIndex = max(axes[axis].highIndex, index)
            }
        }
        self.count = count
        self.axes = axes
    }

    /// Whether the set is every combination of the values it takes (a box in the grid).
    package var isBox: Bool { count == axes.reduce(1) { $0 * $1.count } }
}

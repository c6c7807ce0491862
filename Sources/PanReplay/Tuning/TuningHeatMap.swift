internal import Foundation
internal import TransitionEngine

/// A heat map of accuracy over the first two grid axes, as an SVG document.
///
/// Columns are the first axis's values, rows the second's (a single row for a one-axis
/// grid). With more axes, a cell shows the best accuracy over the others. Very long axes are
/// binned (at most ``maximumCells`` per side, each bin showing its best). The best point is
/// ringed, the defaults marked with a diamond where they fall on the axes (between cells
/// for a numeric default that is not a grid value); the legend says where they are when
/// they fall outside.
package struct TuningHeatMap: Sendable {
    /// The most columns or rows drawn.
    package static let maximumCells = 200

    private let result: TuningResult

    /// The heat map of `result`.
    package init(_ result: TuningResult) {
        self.result = result
    }

    /// The SVG document.
    package func svg() -> String {
        let grid = result.grid
        let xAxis = grid.axes[0]
        let yAxis: GridAxis? = grid.axes.count > 1 ? grid.axes[1] : nil
        let nx = xAxis.values.count, ny = yAxis?.values.count ?? 1
        let columns = min(nx, Self.maximumCells), rows = min(ny, Self.maximumCells)
        func column(of index: Int) -> Int { index * columns / nx }
        func row(of index: Int) -> Int { index * rows / ny }

        // Best accuracy per cell, over any further axes and any binned values.
        var cells = [Double](repeating: -1, count: columns * rows)
        var counts = [Int](repeating: 0, count: columns * rows)
        for (point, score) in result.scores.enumerated() {
            let indices = grid.valueIndices(ofPoint: point)
            let cell = row(of: indices.count > 1 ? indices[1] : 0) * columns + column(of: indices[0])
            if score.accuracy > cells[cell] {
                cells[cell] = score.accuracy
                counts[cell] = score.correct
            }
        }
        let low = cells.min() ?? 0, high = cells.max() ?? 1

        let cellWidth = max(3.0, min(56.0, 760.0 / Double(columns)))
        let cellHeight = yAxis == nil ? 56.0 : max(3.0, min(40.0, 480.0 / Double(rows)))
        let left = 90.0, top = 64.0
        let plotWidth = cellWidth * Double(columns), plotHeight = cellHeight * Double(rows)
        let width = left + plotWidth + 130, height = top + plotHeight + 96

        var svg: [String] = []
        svg.append(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Self.n(width))" height="\##(Self.n(height))" viewBox="0 0 \##(Self.n(width)) \##(Self.n(height))" font-family="system-ui, -apple-system, Helvetica, Arial, sans-serif" font-size="12">"##
        )
        svg.append(##"<rect width="100%" height="100%" fill="#ffffff"/>"##)
        let axesTitle = yAxis.map { "\(xAxis.key) × \($0.key)" } ?? xAxis.key
        let over = grid.axes.count > 2 ? " (best over " + grid.axes.dropFirst(2).map(\.key).joined(separator: ", ") + ")" : ""
        svg.append(
            ##"<text x="\##(Self.n(left))" y="24" font-size="16" font-weight="600">\##(Self.escape("\(result.preset): accuracy over \(axesTitle)\(over)"))</text>"##
        )
        svg.append(
            ##"<text x="\##(Self.n(left))" y="44" fill="#555">\##(Self.escape("\(result.traceCount) labelled traces (\(result.finishCount) finish, \(result.cancelCount) cancel), \(grid.pointCount) grid points\(Self.exclusionNote(result))"))</text>"##
        )

        let showsText = cellWidth >= 34 && cellHeight >= 18
        for r in 0..<rows {
            for c in 0..<columns {
                let value = cells[r * columns + c]
                let x = left + Double(c) * cellWidth
                let y = top + Double(rows - 1 - r) * cellHeight
                let fraction = high > low ? (value - low) / (high - low) : 1
                let color = Self.color(fraction)
                let label =
                    "\(xAxis.key)=\(Self.label(column: c, of: columns, axis: xAxis))"
                    + (yAxis.map { ", \($0.key)=\(Self.label(column: r, of: rows, axis: $0))" } ?? "")
                svg.append(
                    ##"<rect x="\##(Self.n(x))" y="\##(Self.n(y))" width="\##(Self.n(cellWidth))" height="\##(Self.n(cellHeight))" fill="\##(color)"><title>\##(Self.escape("\(label): \(TuningResult.percent(value)) (\(counts[r * columns + c])/\(result.traceCount))"))</title></rect>"##
                )
                if showsText {
                    let ink = fraction > 0.6 ? "#000000" : "#ffffff"
                    svg.append(
                        ##"<text x="\##(Self.n(x + cellWidth / 2))" y="\##(Self.n(y + cellHeight / 2 + 4))" text-anchor="middle" font-size="10" fill="\##(ink)">\##(Self.n(value * 100, digits: 0))</text>"##
                    )
                }
            }
        }

        // Axis ticks: at most about a dozen labels per axis.
        let xStep = max(1, (columns + 11) / 12)
        for c in stride(from: 0, to: columns, by: xStep) {
            let x = left + (Double(c) + 0.5) * cellWidth
            svg.append(
                ##"<text x="\##(Self.n(x))" y="\##(Self.n(top + plotHeight + 16))" text-anchor="middle" fill="#333">\##(Self.escape(Self.label(column: c, of: columns, axis: xAxis)))</text>"##
            )
        }
        svg.append(
            ##"<text x="\##(Self.n(left + plotWidth / 2))" y="\##(Self.n(top + plotHeight + 36))" text-anchor="middle" font-weight="600">\##(Self.escape(xAxis.key))</text>"##
        )
        if let yAxis {
            let yStep = max(1, (rows + 11) / 12)
            for r in stride(from: 0, to: rows, by: yStep) {
                let y = top + (Double(rows - 1 - r) + 0.5) * cellHeight + 4
                svg.append(
                    ##"<text x="\##(Self.n(left - 6))" y="\##(Self.n(y))" text-anchor="end" fill="#333">\##(Self.escape(Self.label(column: r, of: rows, axis: yAxis)))</text>"##
                )
            }
            svg.append(
                ##"<text x="18" y="\##(Self.n(top + plotHeight / 2))" text-anchor="middle" font-weight="600" transform="rotate(-90 18 \##(Self.n(top + plotHeight / 2)))">\##(Self.escape(yAxis.key))</text>"##
            )
        }

        // Markers: the best point (ring) and the defaults (diamond).
        func position(_ values: [PresetValue]) -> (x: Double, y: Double)? {
            guard let cx = Self.coordinate(values[0], axis: xAxis, cells: columns) else { return nil }
            var cy = 0.5
            if let yAxis {
                guard let value = Self.coordinate(values[1], axis: yAxis, cells: rows) else { return nil }
                cy = value
            }
            return (left + cx * cellWidth, top + (Double(rows) - cy) * cellHeight)
        }
        let radius = max(4, min(cellWidth, cellHeight) * 0.38)
        if let best = position(result.bestValues) {
            svg.append(
                ##"<circle cx="\##(Self.n(best.x))" cy="\##(Self.n(best.y))" r="\##(Self.n(radius))" fill="none" stroke="#ffffff" stroke-width="4"/>"##
            )
            svg.append(
                ##"<circle cx="\##(Self.n(best.x))" cy="\##(Self.n(best.y))" r="\##(Self.n(radius))" fill="none" stroke="#d62728" stroke-width="2"/>"##
            )
        }
        let defaultsPosition = position(result.defaultValues)
        if let mark = defaultsPosition {
            let d = radius * 0.9
            let points = [(mark.x, mark.y - d), (mark.x + d, mark.y), (mark.x, mark.y + d), (mark.x - d, mark.y)]
                .map { "\(Self.n($0.0)),\(Self.n($0.1))" }.joined(separator: " ")
            svg.append(##"<polygon points="\##(points)" fill="none" stroke="#ffffff" stroke-width="4"/>"##)
            svg.append(##"<polygon points="\##(points)" fill="none" stroke="#1f77b4" stroke-width="2"/>"##)
        }

        // Legend: the colour scale, then what the markers are.
        let legendX = left + plotWidth + 24
        let legendHeight = min(160.0, max(60, plotHeight))
        let steps = 32
        for step in 0..<steps {
            let fraction = Double(step) / Double(steps - 1)
            let y = top + legendHeight * (1 - Double(step + 1) / Double(steps))
            svg.append(
                ##"<rect x="\##(Self.n(legendX))" y="\##(Self.n(y))" width="14" height="\##(Self.n(legendHeight / Double(steps) + 0.5))" fill="\##(Self.color(fraction))"/>"##
            )
        }
        svg.append(##"<text x="\##(Self.n(legendX + 20))" y="\##(Self.n(top + 10))">\##(TuningResult.percent(high))</text>"##)
        svg.append(##"<text x="\##(Self.n(legendX + 20))" y="\##(Self.n(top + legendHeight))">\##(TuningResult.percent(low))</text>"##)
        let keys = grid.axes.map(\.key)
        func settings(_ values: [PresetValue]) -> String {
            zip(keys, values).map { "\($0)=\(TuningResult.text($1))" }.joined(separator: " ")
        }
        let footer = top + plotHeight + 60
        svg.append(##"<circle cx="\##(Self.n(left + 6))" cy="\##(Self.n(footer - 4))" r="6" fill="none" stroke="#d62728" stroke-width="2"/>"##)
        svg.append(
            ##"<text x="\##(Self.n(left + 18))" y="\##(Self.n(footer))">\##(Self.escape("best: \(settings(result.bestValues)) — \(TuningResult.percent(result.best.accuracy)), min margin \(TuningResult.fixed(result.best.minimumMargin, 3))"))</text>"##
        )
        let d = 6.0, dy = footer + 20 - 4
        svg.append(
            ##"<polygon points="\##(Self.n(left + 6)),\##(Self.n(dy - d)) \##(Self.n(left + 6 + d)),\##(Self.n(dy)) \##(Self.n(left + 6)),\##(Self.n(dy + d)) \##(Self.n(left + 6 - d)),\##(Self.n(dy))" fill="none" stroke="#1f77b4" stroke-width="2"/>"##
        )
        let outside = defaultsPosition == nil ? " (outside the grid)" : ""
        svg.append(
            ##"<text x="\##(Self.n(left + 18))" y="\##(Self.n(footer + 20))">\##(Self.escape("defaults: \(settings(result.defaultValues)) — \(TuningResult.percent(result.defaults.accuracy))\(outside)"))</text>"##
        )
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// Where `value` falls along `axis`, in cells from the start (0.5 is the first cell's
    /// centre); nil when it is not on the axis and not between two numeric values.
    static func coordinate(_ value: PresetValue, axis: GridAxis, cells: Int) -> Double? {
        let count = axis.values.count
        func centre(_ index: Double) -> Double { (index + 0.5) * Double(cells) / Double(count) }
        if let exact = axis.values.firstIndex(of: value) { return centre(Double(exact)) }
        guard let number = value.number else { return nil }
        let numbers = axis.values.map(\.number)
        for index in 0..<(count - 1) {
            guard let a = numbers[index], let b = numbers[index + 1], a != b else { continue }
            if (a < number && number < b) || (b < number && number < a) {
                return centre(Double(index) + (number - a) / (b - a))
            }
        }
        return nil
    }

    /// The label of cell `column` of `cells` along `axis` (the first value of its bin).
    private static func label(column: Int, of cells: Int, axis: GridAxis) -> String {
        let first = (column * axis.values.count + cells - 1) / cells
        return TuningResult.text(axis.values[min(first, axis.values.count - 1)])
    }

    /// Viridis (matplotlib's perceptually uniform map) at `fraction`, from nine stops.
    static func color(_ fraction: Double) -> String {
        let stops: [(Double, Double, Double)] = [
            (68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
            (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37)
        ]
        let t = min(max(fraction.isFinite ? fraction : 0, 0), 1) * Double(stops.count - 1)
        let index = min(Int(t), stops.count - 2)
        let f = t - Double(index)
        let a = stops[index], b = stops[index + 1]
        func channel(_ x: Double, _ y: Double) -> Int { Int((x + (y - x) * f).rounded()) }
        return String(format: "#%02x%02x%02x", channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2))
    }

    static func n(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// `"; excluded, not driving the preset: 3 moving along the other axis"`, or empty.
    static func exclusionNote(_ result: TuningResult) -> String {
        var note = result.fitExclusions.isEmpty ? "" : "; excluded, not driving the preset: " + result.fitExclusions.joined(separator: ", ")
        if !result.unreachable.isEmpty { note += "; \(result.unreachable.count) setting(s) make an outcome unreachable" }
        return note
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

internal import Foundation
internal import PanTrace
internal import TransitionEngine

/// A heat map of accuracy over the first two grid axes: its ``cells``, and from them an SVG
/// document (``svg()``, `pantrace tune --svg`).
///
/// The viewer's heat map (web/heatmap.mjs) is the same map by the same rules, each written
/// once on each side; one golden (web/tests/heatmap-golden/: a tune report and the cells
/// expected from it) is checked by both TuningHeatMapTests and web/tests/heatmap.test.mjs.
///
/// - Layout: columns are the first axis's values, rows the second's (one row for a one-axis
///   grid), row 0 at the bottom; ``cells`` run row by row from row 0, each left to right. An
///   axis longer than ``maximumCells`` values is binned: value `i` of `n` falls in cell
///   `⌊i·cells/n⌋`, and a bin is labelled with its first value.
/// - What a cell shows: one grid point. The cell holding the tuner's best point
///   (``TuningResult/bestPoint``, the report's `best.point`, never recomputed) shows that point
///   and is the one marked best; every other cell shows its point that ranks highest by the
///   tuner's own order (``PointScore/ranks(above:)``: more correct, then a larger minimum
///   margin, then a smaller mean discontinuity; the first in grid order on a complete tie),
///   over any further axes and binned values.
/// - Colour: viridis at `(accuracy − low) / (high − low)`, where `low` and `high` are the
///   lowest and highest accuracy among the cells (every cell the top colour when they are
///   equal). The scale spans the sweep, not [0, 1]: a sweep's points usually lie within a few
///   tens of points of accuracy of each other, and spreading them over the whole scale shows
///   where the ridge is and how sharp it is; the cells' labels and the legend (whose ends are
///   `low` and `high`) give the absolute values. Viridis also reads in grey and to the
///   colour-blind, which red to green does not.
/// - Labels: a cell's accuracy as a whole percent (`"83%"`, half up); axis values as the text
///   report writes them (``TuningResult/text(_:)``).
/// - The defaults: where the preset's defaults fall on the first two axes (``coordinate(_:axis:cells:)``),
///   between cells for a numeric default that is not a grid value; nowhere when outside, and
///   the legend says so.
///
/// In the SVG the best cell is ringed in red and the defaults marked with a blue diamond; for a
/// result with findings, cells showing a point as good as the best (the equal points,
/// docs/TUNE.md) are outlined dashed and the notes are printed under the plot.
package struct TuningHeatMap: Sendable {
    /// The most columns or rows drawn.
    package static let maximumCells = 200

    /// One cell of the map.
    package struct Cell: Sendable, Hashable {
        /// From the bottom: the second axis's value (or bin); 0 for a one-axis grid.
        package var row: Int
        /// From the left: the first axis's value (or bin).
        package var column: Int
        /// The grid point the cell shows.
        package var point: Int
        /// That point's accuracy, 0…1.
        package var accuracy: Double
        /// Whether that point is the tuner's best.
        package var isBest: Bool
        /// The fill, `#rrggbb`.
        package var colour: String
        /// The accuracy as a whole percent.
        package var label: String
    }

    /// A place on the map, in cells from its bottom-left corner (the first cell's centre is
    /// column 0.5, row 0.5).
    package struct Position: Sendable, Hashable {
        /// Along the first axis.
        package var column: Double
        /// Along the second axis (0.5 for a one-axis grid).
        package var row: Double
    }

    private let result: TuningResult
    /// The label of each column: the first axis's value, or the first of its bin.
    package let columnLabels: [String]
    /// The label of each row, from the bottom (one empty label for a one-axis grid).
    package let rowLabels: [String]
    /// The cells, row by row from row 0, each left to right.
    package let cells: [Cell]
    /// The lowest accuracy among the cells: the bottom of the colour scale.
    package let low: Double
    /// The highest accuracy among the cells: the top of the colour scale.
    package let high: Double
    /// Where the preset's defaults fall, or nil when outside the grid.
    package let defaultsPosition: Position?

    /// The heat map of `result`, with at most `maximumCells` columns and rows.
    package init(_ result: TuningResult, maximumCells: Int = TuningHeatMap.maximumCells) {
        let axes = result.grid.axes
        let columns = min(axes[0].values.count, maximumCells)
        let rows = axes.count > 1 ? min(axes[1].values.count, maximumCells) : 1
        let shown = Self.shownPoints(result, columns: columns, rows: rows)
        let accuracies = shown.map { result.scores[$0].accuracy }
        let low = accuracies.min() ?? 0, high = accuracies.max() ?? 1
        self.result = result
        self.low = low
        self.high = high
        columnLabels = Self.binLabels(axes[0], cells: columns)
        rowLabels = axes.count > 1 ? Self.binLabels(axes[1], cells: rows) : [""]
        cells = shown.enumerated().map { index, point in
            let accuracy = result.scores[point].accuracy
            return Cell(
                row: index / columns, column: index % columns, point: point, accuracy: accuracy, isBest: point == result.bestPoint,
                colour: Self.color(Self.fraction(accuracy, low: low, high: high)), label: Self.percentLabel(accuracy))
        }
        defaultsPosition = Self.position(of: result.defaultValues, axes: axes, columns: columns, rows: rows)
    }

    /// The number of columns.
    package var columnCount: Int { columnLabels.count }
    /// The number of rows.
    package var rowCount: Int { rowLabels.count }
    /// The cell that shows the tuner's best point.
    package var bestCell: Cell { cells.first(where: \.isBest)! }

    // MARK: - The cells

    /// The point each cell shows, by cell index (row · columns + column).
    private static func shownPoints(_ result: TuningResult, columns: Int, rows: Int) -> [Int] {
        let grid = result.grid
        let counts = grid.axes.prefix(2).map(\.values.count)
        var shown = [Int](repeating: -1, count: columns * rows)
        for point in result.scores.indices {
            let indices = grid.valueIndices(ofPoint: point)
            let row = indices.count > 1 ? bin(indices[1], of: counts[1], into: rows) : 0
            let cell = row * columns + bin(indices[0], of: counts[0], into: columns)
            let held = shown[cell]
            if held < 0 || (held != result.bestPoint && (point == result.bestPoint || result.scores[point].ranks(above: result.scores[held]))) {
                shown[cell] = point
            }
        }
        return shown
    }

    /// The cell (bin) of value `index` of `count` on an axis drawn in `cells` cells.
    static func bin(_ index: Int, of count: Int, into cells: Int) -> Int { index * cells / count }

    /// The labels of `axis` drawn in `cells` cells: each bin's first value.
    static func binLabels(_ axis: GridAxis, cells: Int) -> [String] {
        let count = axis.values.count
        return (0..<cells).map { cell in TuningResult.text(axis.values[min((cell * count + cells - 1) / cells, count - 1)]) }
    }

    /// Where `accuracy` falls on the colour scale from `low` to `high`, 0…1 (1 when they are equal).
    static func fraction(_ accuracy: Double, low: Double, high: Double) -> Double {
        high > low ? (accuracy - low) / (high - low) : 1
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

    /// The text colour on a cell at `fraction`: black or white, whichever contrasts more with
    /// the cell (WCAG 2.2 relative luminance), so a label has 4.5:1 or more on every colour of
    /// the scale; white turns to black in the blue-greens, near 0.43. The viewer decides the same
    /// way (web/heatmap.mjs).
    static func ink(_ fraction: Double) -> String {
        let hex = color(fraction).dropFirst()
        let channels = stride(from: 0, to: 6, by: 2).map { offset -> Double in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            let value = Double(Int(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
        // Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05).
        return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff"
    }

    /// An accuracy as a whole percent, half up: `"83%"`.
    static func percentLabel(_ accuracy: Double) -> String { "\(Int((accuracy * 100).rounded()))%" }

    /// Where `values` (one per axis) fall on the map, or nil when off it.
    static func position(of values: [PresetValue], axes: [GridAxis], columns: Int, rows: Int) -> Position? {
        guard let column = coordinate(values[0], axis: axes[0], cells: columns) else { return nil }
        guard axes.count > 1 else { return Position(column: column, row: 0.5) }
        guard let row = coordinate(values[1], axis: axes[1], cells: rows) else { return nil }
        return Position(column: column, row: row)
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

    // MARK: - The SVG

    /// Where the parts of the SVG go, in pixels.
    private struct Layout {
        let columns: Int
        let rows: Int
        let cellWidth: Double
        let cellHeight: Double
        let left = 90.0
        let top = 64.0

        /// Lines of notes under the defaults' line.
        var noteLines = 0

        init(columns: Int, rows: Int, hasRows: Bool, noteLines: Int = 0) {
            self.columns = columns
            self.rows = rows
            self.noteLines = noteLines
            cellWidth = max(3.0, min(56.0, 760.0 / Double(columns)))
            cellHeight = hasRows ? max(3.0, min(40.0, 480.0 / Double(rows))) : 56.0
        }

        var plotWidth: Double { cellWidth * Double(columns) }
        var plotHeight: Double { cellHeight * Double(rows) }
        var width: Double { left + plotWidth + 130 }
        var height: Double { top + plotHeight + 96 + 16 * Double(noteLines) }
        /// Whether a cell is large enough for its label.
        var showsText: Bool { cellWidth >= 34 && cellHeight >= 18 }
        /// The best point's ring.
        var markRadius: Double { max(4, min(cellWidth, cellHeight) * 0.38) }
        /// The first line under the plot (the best point's), whose baseline the legend's markers follow.
        var footer: Double { top + plotHeight + 60 }

        /// The top-left corner of cell (`column`, `row`).
        func corner(column: Int, row: Int) -> (x: Double, y: Double) {
            (left + Double(column) * cellWidth, top + Double(rows - 1 - row) * cellHeight)
        }

        /// The pixel point of a map position.
        func point(_ position: Position) -> (x: Double, y: Double) {
            (left + position.column * cellWidth, top + (Double(rows) - position.row) * cellHeight)
        }
    }

    /// The SVG document.
    package func svg() -> String {
        let layout = Layout(columns: columnCount, rows: rowCount, hasRows: result.grid.axes.count > 1, noteLines: result.notes.count)
        let parts = [
            headingElements(layout), cellElements(layout), axisElements(layout), markerElements(layout), legendElements(layout),
            footerElements(layout)
        ]
        return (parts.joined() + ["</svg>"]).joined(separator: "\n") + "\n"
    }

    /// The document's start, its background, and the title and subtitle over the plot.
    private func headingElements(_ layout: Layout) -> [String] {
        let grid = result.grid
        let (width, height) = (Self.n(layout.width), Self.n(layout.height))
        let keys = grid.axes.prefix(2).map(\.key).joined(separator: " × ")
        let over = grid.axes.count > 2 ? " (best over " + grid.axes.dropFirst(2).map(\.key).joined(separator: ", ") + ")" : ""
        let title = "\(result.preset): accuracy over \(keys)\(over)"
        let subtitle =
            "\(result.traceCount) labelled traces (\(result.finishCount) finish, \(result.cancelCount) cancel), "
            + "\(grid.pointCount) grid points\(Self.exclusionNote(result))"
        return [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" viewBox="0 0 \##(width) \##(height)" font-family="system-ui, -apple-system, Helvetica, Arial, sans-serif" font-size="12">"##,
            ##"<rect width="100%" height="100%" fill="#ffffff"/>"##,
            ##"<text x="\##(Self.n(layout.left))" y="24" font-size="16" font-weight="600">\##(Self.escape(title))</text>"##,
            ##"<text x="\##(Self.n(layout.left))" y="44" fill="#555">\##(Self.escape(subtitle))</text>"##
        ]
    }

    /// Each cell: a coloured rectangle with its settings and score as a tooltip, and its label
    /// when it fits.
    private func cellElements(_ layout: Layout) -> [String] {
        let axes = result.grid.axes
        var elements: [String] = []
        for cell in cells {
            let (x, y) = layout.corner(column: cell.column, row: cell.row)
            let settings = "\(axes[0].key)=\(columnLabels[cell.column])" + (axes.count > 1 ? ", \(axes[1].key)=\(rowLabels[cell.row])" : "")
            let tooltip = "\(settings): \(TuningResult.percent(cell.accuracy)) (\(result.scores[cell.point].correct)/\(result.traceCount))"
            elements.append(
                ##"<rect x="\##(Self.n(x))" y="\##(Self.n(y))" width="\##(Self.n(layout.cellWidth))" height="\##(Self.n(layout.cellHeight))" fill="\##(cell.colour)"><title>\##(Self.escape(tooltip))</title></rect>"##
            )
            // A cell as good as the best (the equal points, docs/TUNE.md) gets a dashed outline.
            if result.findings != nil && !cell.isBest && result.scores[cell.point].correct == result.best.correct {
                elements.append(
                    ##"<rect x="\##(Self.n(x + 1.5))" y="\##(Self.n(y + 1.5))" width="\##(Self.n(max(0, layout.cellWidth - 3)))" height="\##(Self.n(max(0, layout.cellHeight - 3)))" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-dasharray="3 2"/>"##
                )
            }
            if layout.showsText {
                let ink = Self.ink(Self.fraction(cell.accuracy, low: low, high: high))
                elements.append(
                    ##"<text x="\##(Self.n(x + layout.cellWidth / 2))" y="\##(Self.n(y + layout.cellHeight / 2 + 4))" text-anchor="middle" font-size="10" fill="\##(ink)">\##(cell.label)</text>"##
                )
            }
        }
        return elements
    }

    /// The ticks (at most about a dozen labels per axis) and the axes' titles.
    private func axisElements(_ layout: Layout) -> [String] {
        let axes = result.grid.axes
        let bottom = layout.top + layout.plotHeight
        var elements: [String] = []
        for column in stride(from: 0, to: layout.columns, by: max(1, (layout.columns + 11) / 12)) {
            let x = layout.left + (Double(column) + 0.5) * layout.cellWidth
            elements.append(
                ##"<text x="\##(Self.n(x))" y="\##(Self.n(bottom + 16))" text-anchor="middle" fill="#333">\##(Self.escape(columnLabels[column]))</text>"##
            )
        }
        elements.append(
            ##"<text x="\##(Self.n(layout.left + layout.plotWidth / 2))" y="\##(Self.n(bottom + 36))" text-anchor="middle" font-weight="600">\##(Self.escape(axes[0].key))</text>"##
        )
        guard axes.count > 1 else { return elements }
        for row in stride(from: 0, to: layout.rows, by: max(1, (layout.rows + 11) / 12)) {
            let y = layout.top + (Double(layout.rows - 1 - row) + 0.5) * layout.cellHeight + 4
            elements.append(
                ##"<text x="\##(Self.n(layout.left - 6))" y="\##(Self.n(y))" text-anchor="end" fill="#333">\##(Self.escape(rowLabels[row]))</text>"##
            )
        }
        let middle = Self.n(layout.top + layout.plotHeight / 2)
        elements.append(
            ##"<text x="18" y="\##(middle)" text-anchor="middle" font-weight="600" transform="rotate(-90 18 \##(middle))">\##(Self.escape(axes[1].key))</text>"##
        )
        return elements
    }

    /// The best cell's ring and the defaults' diamond, each on a white halo.
    private func markerElements(_ layout: Layout) -> [String] {
        let radius = layout.markRadius
        let best = layout.point(Position(column: Double(bestCell.column) + 0.5, row: Double(bestCell.row) + 0.5))
        var elements = [("#ffffff", 4), ("#d62728", 2)].map { stroke, width in
            ##"<circle cx="\##(Self.n(best.x))" cy="\##(Self.n(best.y))" r="\##(Self.n(radius))" fill="none" stroke="\##(stroke)" stroke-width="\##(width)"/>"##
        }
        if let defaultsPosition {
            let mark = layout.point(defaultsPosition)
            let points = Self.diamond(x: mark.x, y: mark.y, radius: radius * 0.9)
            elements.append(##"<polygon points="\##(points)" fill="none" stroke="#ffffff" stroke-width="4"/>"##)
            elements.append(##"<polygon points="\##(points)" fill="none" stroke="#1f77b4" stroke-width="2"/>"##)
        }
        return elements
    }

    /// The colour bar beside the plot, from the lowest cell's accuracy to the highest.
    private func legendElements(_ layout: Layout) -> [String] {
        let x = layout.left + layout.plotWidth + 24
        let height = min(160.0, max(60, layout.plotHeight))
        let steps = 32
        var elements = (0..<steps).map { step in
            let y = layout.top + height * (1 - Double(step + 1) / Double(steps))
            let fill = Self.color(Double(step) / Double(steps - 1))
            return ##"<rect x="\##(Self.n(x))" y="\##(Self.n(y))" width="14" height="\##(Self.n(height / Double(steps) + 0.5))" fill="\##(fill)"/>"##
        }
        elements.append(##"<text x="\##(Self.n(x + 20))" y="\##(Self.n(layout.top + 10))">\##(Self.percentLabel(high))</text>"##)
        elements.append(##"<text x="\##(Self.n(x + 20))" y="\##(Self.n(layout.top + height))">\##(Self.percentLabel(low))</text>"##)
        return elements
    }

    /// Under the plot: what the ring and the diamond mark, with their settings and accuracy.
    private func footerElements(_ layout: Layout) -> [String] {
        let keys = result.grid.axes.map(\.key)
        func settings(_ values: [PresetValue]) -> String {
            zip(keys, values).map { "\($0)=\(TuningResult.text($1))" }.joined(separator: " ")
        }
        let (x, footer) = (layout.left + 6, layout.footer)
        let best =
            "best: \(settings(result.bestValues)) — \(TuningResult.percent(result.best.accuracy)), "
            + "min margin \(TuningResult.fixed(result.best.minimumMargin, 3))"
        let outside = defaultsPosition == nil ? " (outside the grid)" : ""
        let defaults = "defaults: \(settings(result.defaultValues)) — \(TuningResult.percent(result.defaults.accuracy))\(outside)"
        return [
            ##"<circle cx="\##(Self.n(x))" cy="\##(Self.n(footer - 4))" r="6" fill="none" stroke="#d62728" stroke-width="2"/>"##,
            ##"<text x="\##(Self.n(x + 12))" y="\##(Self.n(footer))">\##(Self.escape(best))</text>"##,
            ##"<polygon points="\##(Self.diamond(x: x, y: footer + 16, radius: 6))" fill="none" stroke="#1f77b4" stroke-width="2"/>"##,
            ##"<text x="\##(Self.n(x + 12))" y="\##(Self.n(footer + 20))">\##(Self.escape(defaults))</text>"##
        ]
            + result.notes.enumerated().map { number, note in
                ##"<text x="\##(Self.n(x))" y="\##(Self.n(footer + 40 + 16 * Double(number)))" font-size="11" fill="#333">note: \##(Self.escape(note))</text>"##
            }
    }

    /// The `points` of a diamond of half-width `radius` centred on (`x`, `y`).
    private static func diamond(x: Double, y: Double, radius d: Double) -> String {
        [(x, y - d), (x + d, y), (x, y + d), (x - d, y)].map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
    }

    static func n(_ value: Double, digits: Int = 1) -> String {
        DecimalText.fixed(value, digits: digits)
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

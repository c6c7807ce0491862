import Foundation
import TestSupport
import PanTrace
import Testing

/// Sheet libraries' own test vectors, replayed through `pantrace detents` as recorded
/// gestures: the release position and velocity of each row become a two-sample trace, and the
/// built binary must choose the detent the library's test expects.
struct DetentVectorTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/detents")

    /// One row of `floatingpanel-targetState.tsv`.
    struct FloatingPanelRow: Sendable, CustomStringConvertible {
        var test: String
        var line: Int
        var detents: String
        var projectsMomentum: String
        var start: Int
        var position: Double
        var velocity: Double
        var expected: Int

        var description: String { "CoreTests.swift:\(line) (\(test))" }
        /// The rows that share a sheet, a start and a behaviour run in one command.
        var group: String { "\(test) \(detents) start \(start) projectMomentum \(projectsMomentum)" }
    }

    static func floatingPanelRows() throws -> [FloatingPanelRow] {
        let text = try String(contentsOf: fixtures.appendingPathComponent("floatingpanel-targetState.tsv"), encoding: .utf8)
        var rows: [FloatingPanelRow] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("test\t") {
            let f = line.split(separator: "\t").map(String.init)
            try #require(f.count == 8, "a row has 8 fields: \(line)")
            rows.append(
                FloatingPanelRow(
                    test: f[0], line: try #require(Int(f[1])), detents: f[2], projectsMomentum: f[3], start: try #require(Int(f[4])),
                    position: try #require(Double(f[5])), velocity: try #require(Double(f[6])), expected: try #require(Int(f[7]))))
        }
        return rows
    }

    /// A gesture that lifts at `position` with `velocity`, dragged from the detent at `startPosition`.
    static func gesture(id: String, from startPosition: Double, to position: Double, velocity: Double) -> Trace {
        let screen = ScreenGeometry(width: 375, height: 667, scale: 2)
        let moved = position - startPosition
        return Trace(
            metadata: TraceMetadata(id: id, screen: screen),
            samples: [
                PanSample(time: 0, phase: .began, translation: PanVector(x: 0, y: 0), velocity: PanVector(x: 0, y: 0)),
                PanSample(time: 0.05, phase: .changed, translation: PanVector(x: 0, y: moved), velocity: PanVector(x: 0, y: velocity)),
                PanSample(time: 0.1, phase: .ended, translation: PanVector(x: 0, y: moved), velocity: PanVector(x: 0, y: velocity))
            ])
    }

    /// Every `test_targetState_*` row of FloatingPanel's `Tests/CoreTests.swift` (265), through
    /// the CLI: files written, `pantrace detents --json` run once per sheet and start.
    @Test func floatingPanelReproducesEveryTargetStateRow() throws {
        let rows = try Self.floatingPanelRows()
        #expect(rows.count == 265)
        let folder = try TemporaryFolder("detent-vectors")
        var checked = 0
        for (group, members) in Dictionary(grouping: rows, by: \.group).sorted(by: { $0.key < $1.key }) {
            let first = members[0]
            let positions = first.detents.split(separator: ",").compactMap { Double(String($0)) }
            let dir = folder.path + "/" + group.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: ",", with: "-")
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for row in members {
                let trace = Self.gesture(id: "row-\(row.line)", from: positions[row.start], to: row.position, velocity: row.velocity)
                try TraceEncoder.write(trace, to: "\(dir)/row-\(row.line).pantrace")
            }
            let result = try BinaryTests.run([
                "detents", dir, "--detents", first.detents, "--start", "\(first.start)", "--presets", "floatingpanel",
                "--set", "projectMomentum=\(first.projectsMomentum)", "--json"
            ])
            #expect(result.status == 0, "\(group): \(result.stderr)")
            var chosen: [String: Int] = [:]
            for line in result.stdout.split(separator: "\n") {
                let object = try JSONDecoder().decode(Line.self, from: Data(line.utf8))
                chosen[object.id] = object.presets["floatingpanel"]?.index
            }
            for row in members {
                #expect(chosen["row-\(row.line)"] == row.expected, "\(row): at \(row.position) pt, \(row.velocity) pt/s from detent \(row.start)")
                checked += 1
            }
        }
        #expect(checked == 265)
    }

    /// A table of release cases: `#! preset=… detents=… screen=…` lines set the library and the
    /// sheet for the rows after them; a row is case, start, settings, moved, duration,
    /// velocity, expected.
    struct ReleaseTable {
        struct Row {
            var preset: String
            var detents: String
            var screenHeight: Double
            var fields: [String]
        }
        var rows: [Row]
    }

    static func releaseTable(_ name: String) throws -> ReleaseTable {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        var header: [String: String] = [:]
        var rows: [ReleaseTable.Row] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#!") {
                for pair in line.dropFirst(2).split(separator: " ") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2 { header[parts[0]] = parts[1] }
                }
            } else if !line.hasPrefix("#"), !line.hasPrefix("case\t") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                try #require(fields.count == 7, "\(name): a row has 7 fields: \(line)")
                rows.append(
                    ReleaseTable.Row(
                        preset: try #require(header["preset"]), detents: try #require(header["detents"]),
                        screenHeight: try #require(header["screen"].flatMap(Double.init)), fields: fields))
            }
        }
        return ReleaseTable(rows: rows)
    }

    /// Runs each row of `table` through `pantrace detents` and checks its outcome.
    static func check(_ table: ReleaseTable, name: String) throws {
        let folder = try TemporaryFolder("detent-table")
        for (number, entry) in table.rows.enumerated() {
            let row = entry.fields
            let positions = entry.detents.split(separator: ",").compactMap { Double(String($0)) }
            let screen = ScreenGeometry(width: 400, height: entry.screenHeight, scale: 2)
            let start = try #require(Int(row[1]))
            let moved = try #require(Double(row[3]))
            let duration = try #require(Double(row[4]))
            let velocity = try #require(Double(row[5]))
            let trace = Trace(
                metadata: TraceMetadata(id: "case-\(number)", screen: screen),
                samples: [
                    PanSample(time: 0, phase: .began, translation: PanVector(x: 0, y: 0), velocity: PanVector(x: 0, y: 0)),
                    PanSample(time: duration, phase: .ended, translation: PanVector(x: 0, y: moved), velocity: PanVector(x: 0, y: velocity))
                ])
            let file = "\(folder.path)/case-\(number).pantrace"
            try TraceEncoder.write(trace, to: file)
            var arguments = ["detents", file, "--detents", entry.detents, "--start", "\(start)", "--presets", entry.preset, "--json"]
            for setting in row[2].split(separator: ",") where setting != "-" { arguments += ["--set", String(setting)] }
            let result = try BinaryTests.run(arguments)
            #expect(result.status == 0, "\(name): \(row[0]): \(result.stderr)")
            let line = try JSONDecoder().decode(Line.self, from: Data(result.stdout.utf8))
            let verdict = try #require(line.presets[entry.preset])
            let got = verdict.detent == .dismissed ? "closed" : verdict.detent.description
            #expect(got == row[6], "\(name): \(row[0]) (from detent \(start) at \(positions[start]) pt, moved \(moved) pt in \(duration) s)")
        }
    }

    /// vaul's branches, one row each, both sides of its 2 and 0.4 px/ms gates (a table written
    /// from `use-snap-points.ts`: vaul ships no snap-point test).
    @Test func vaulFollowsEveryBranchOfItsSnapPointRelease() throws {
        let table = try Self.releaseTable("vaul-branches.tsv")
        #expect(table.rows.count == 15)
        try Self.check(table, name: "vaul-branches.tsv")
    }

    /// Compose foundation's `AnchoredDraggableGestureTest` settle cases, both sides of its
    /// 125 dp/s velocity threshold.
    @Test func composeAnchoredReproducesItsSettleTests() throws {
        let table = try Self.releaseTable("compose-anchored-gestures.tsv")
        #expect(table.rows.count == 4)
        try Self.check(table, name: "compose-anchored-gestures.tsv")
    }

    /// The rows of a tab-separated fixture: its comments and header left out.
    static func tableRows(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("test\t") }.map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// A pointer stream as flutter_test sends it, as a trace: `drag` (every event at time 0) or
    /// `flingFrom` (51 moves, the lift one step later), shifted by `offset` points.
    static func flutterGesture(id: String, kind: String, dy: Double, speed: Double, offset: Double) throws -> Trace {
        let screen = ScreenGeometry(width: 800, height: 600, scale: 3)
        func sample(_ time: Double, _ phase: GesturePhase, _ y: Double) -> PanSample {
            PanSample(time: time, phase: phase, translation: PanVector(x: 0, y: offset + y), velocity: PanVector(x: 0, y: 0))
        }
        var samples = [sample(0, .began, 0)]
        switch kind {
        case "drag":
            // WidgetController.dragFrom: a move of the 20 px slop, then the rest; no timestamps.
            samples += [sample(0, .changed, 20 * (dy < 0 ? -1 : 1)), sample(0, .changed, dy), sample(0, .ended, dy)]
        case "fling":
            // WidgetController.flingFrom: timeStamp += 1e6 × distance / (50 × speed), rounded to µs.
            let step = 1_000_000.0 * abs(dy) / (50 * speed)
            var time = 0.0
            for i in 0...50 {
                samples.append(sample(time.rounded() / 1e6, .changed, dy * Double(i) / 50))
                time += step
            }
            samples.append(sample(time.rounded() / 1e6, .ended, dy))
        default:
            Issue.record("unknown gesture \(kind)")
        }
        return Trace(metadata: TraceMetadata(id: id, screen: screen), samples: samples)
    }

    /// Flutter's own `DraggableScrollableSheet` snapping tests, as `drag` and `flingFrom` pointer
    /// streams through Flutter's estimator, its fling gate and `_getSnapSize`.
    @Test func flutterSheetReproducesItsSnappingTests() throws {
        let rows = try Self.tableRows("flutter-draggable-sheet.tsv")
        #expect(rows.count == 13)
        let folder = try TemporaryFolder("flutter-vectors")
        let height = 600.0
        for (number, row) in rows.enumerated() {
            try #require(row.count == 8)
            let sizes = row[2].split(separator: ",").compactMap { Double(String($0)) }
            let detents = sizes.reversed().map { height * (1 - $0) }
            let startSize = try #require(Double(row[3]))
            let expectedSize = try #require(Double(row[7]))
            let dy = try #require(Double(row[5]))
            let startPosition = height * (1 - startSize)
            let start = detents.indices.min { abs(detents[$0] - startPosition) < abs(detents[$1] - startPosition) } ?? 0
            let expected = try #require(detents.firstIndex(of: height * (1 - expectedSize)))
            let trace = try Self.flutterGesture(
                id: "line-\(row[1])", kind: row[4], dy: dy * height, speed: Double(row[6]) ?? 0,
                offset: startPosition - detents[start])
            let file = "\(folder.path)/row-\(number).pantrace"
            try TraceEncoder.write(trace, to: file)
            let result = try BinaryTests.run([
                "detents", file, "--detents", detents.map { "\($0)" }.joined(separator: ","), "--start", "\(start)",
                "--presets", "flutter-sheet", "--json"
            ])
            #expect(result.status == 0, "\(row[0]):\(row[1]): \(result.stderr)")
            let line = try JSONDecoder().decode(Line.self, from: Data(result.stdout.utf8))
            #expect(line.presets["flutter-sheet"]?.index == expected, "draggable_scrollable_sheet_test.dart:\(row[1]) \(row[0]): \(result.stdout)")
        }
    }

    /// Material Components' own `BottomSheetBehaviorTest` swipes, as Espresso's pointer streams
    /// through Android's least-squares tracker, `ViewDragHelper`'s clamp and `onViewReleased`.
    @Test func materialBottomSheetReproducesItsSwipeTests() throws {
        let rows = try Self.tableRows("mdc-bottomsheet-swipes.tsv")
        #expect(rows.count == 13)
        let folder = try TemporaryFolder("mdc-vectors")
        let density = 2.5
        for (number, row) in rows.enumerated() {
            try #require(row.count == 9)
            let detents = row[2] == "2" ? [0.0, 544] : [0.0, 400, 544]
            let names = row[2] == "2" ? ["expanded", "collapsed"] : ["expanded", "half", "collapsed"]
            let start = try #require(names.firstIndex(of: row[3]))
            let from = try #require(Double(row[6]))
            let to = try #require(Double(row[7]))
            // androidx.test.espresso.action.Swipe: 10 moves at i / 12 of the way, every duration / 10.
            let interval = (row[5] == "FAST" ? 150.0 : 1500.0) / 10 / 1000
            func sample(_ time: Double, _ phase: GesturePhase, _ y: Double) -> PanSample {
                PanSample(time: time, phase: phase, translation: PanVector(x: 0, y: (y - from) / density), velocity: PanVector(x: 0, y: 0))
            }
            var samples = [sample(0, .began, from)]
            for i in 1...10 { samples.append(sample(Double(i) * interval, .changed, from + (to - from) * Double(i) / 12)) }
            samples.append(sample(11 * interval, .ended, to))
            let trace = Trace(metadata: TraceMetadata(id: row[0], screen: ScreenGeometry(width: 400, height: 800, scale: density)), samples: samples)
            let file = "\(folder.path)/row-\(number).pantrace"
            try TraceEncoder.write(trace, to: file)
            var arguments = [
                "detents", file, "--detents", detents.map { "\($0)" }.joined(separator: ","), "--start", "\(start)",
                "--presets", "mdc-bottomsheet", "--set", "density=\(density)", "--json"
            ]
            for setting in row[4].split(separator: ",") { arguments += ["--set", String(setting)] }
            let result = try BinaryTests.run(arguments)
            #expect(result.status == 0, "\(row[0]): \(result.stderr)")
            let line = try JSONDecoder().decode(Line.self, from: Data(result.stdout.utf8))
            let verdict = try #require(line.presets["mdc-bottomsheet"])
            let got: String =
                switch verdict.detent {
                case .dismissed: "hidden"
                case .detent(let index): names[index]
                }
            #expect(got == row[8], "BottomSheetBehaviorTest.java:\(row[1]) \(row[0]): \(result.stdout)")
        }
    }

    struct Line: Decodable {
        struct Verdict: Decodable {
            /// An index or `"dismissed"`.
            var detent: SheetLabel.Target
            /// The detent's index, or nil when the sheet closes.
            var index: Int? {
                if case .detent(let index) = detent { return index }
                return nil
            }
        }
        var id: String
        var presets: [String: Verdict]
    }
}

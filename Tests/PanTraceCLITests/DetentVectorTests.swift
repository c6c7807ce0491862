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
                chosen[object.id] = object.presets["floatingpanel"]?.detent
            }
            for row in members {
                #expect(chosen["row-\(row.line)"] == row.expected, "\(row): at \(row.position) pt, \(row.velocity) pt/s from detent \(row.start)")
                checked += 1
            }
        }
        #expect(checked == 265)
    }

    /// A table of release cases for one library on one sheet: `#! preset=… detents=… screen=…`
    /// then rows of case, start, settings, moved, duration, velocity, expected.
    struct ReleaseTable {
        var preset: String
        var detents: String
        var screenHeight: Double
        var rows: [[String]]
    }

    static func releaseTable(_ name: String) throws -> ReleaseTable {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        var header: [String: String] = [:]
        var rows: [[String]] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#!") {
                for pair in line.dropFirst(2).split(separator: " ") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2 { header[parts[0]] = parts[1] }
                }
            } else if !line.hasPrefix("#"), !line.hasPrefix("case\t") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                try #require(fields.count == 7, "\(name): a row has 7 fields: \(line)")
                rows.append(fields)
            }
        }
        return ReleaseTable(
            preset: try #require(header["preset"]), detents: try #require(header["detents"]),
            screenHeight: try #require(header["screen"].flatMap(Double.init)), rows: rows)
    }

    /// Runs each row of `table` through `pantrace detents` and checks its outcome.
    static func check(_ table: ReleaseTable, name: String) throws {
        let folder = try TemporaryFolder("detent-table")
        let positions = table.detents.split(separator: ",").compactMap { Double(String($0)) }
        let screen = ScreenGeometry(width: 400, height: table.screenHeight, scale: 2)
        for (number, row) in table.rows.enumerated() {
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
            var arguments = ["detents", file, "--detents", table.detents, "--start", "\(start)", "--presets", table.preset, "--json"]
            for setting in row[2].split(separator: ",") where setting != "-" { arguments += ["--set", String(setting)] }
            let result = try BinaryTests.run(arguments)
            #expect(result.status == 0, "\(name): \(row[0]): \(result.stderr)")
            let line = try JSONDecoder().decode(Line.self, from: Data(result.stdout.utf8))
            let verdict = try #require(line.presets[table.preset])
            let got = verdict.dismissed ? "closed" : verdict.detent.map(String.init) ?? "none"
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

    struct Line: Decodable {
        struct Verdict: Decodable {
            var detent: Int?
            var dismissed: Bool
        }
        var id: String
        var presets: [String: Verdict]
    }
}

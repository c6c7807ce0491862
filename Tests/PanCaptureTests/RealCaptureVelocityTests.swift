import Foundation
import PanTrace
import TestSupport
import Testing

@testable import PanCapture

/// How far the three release-velocity estimators disagree on the shared real captures
/// (``SharedData``, `realdata/`): docs/CAPTURE.md, "Release velocity on real captures", prints
/// the table this test prints, and the test holds the counts and ratios it states.
///
/// Every gesture is recorded three times, once per estimator, exactly as `pantrace record
/// --velocity lsq2|impulse|flutter` writes it (``PointerLogImporter`` + ``GestureRecording``),
/// and its release sample read back from the `.pantrace` file. On the gesture's main axis (the
/// axis of its larger net translation) two estimators **disagree** when
/// `|a − b| > 0.25 · max(|a|, |b|)`. A release without a velocity (Android: a lift more than
/// 40 ms after the last move) counts as 0 pt/s, as it is recorded. Near zero the rule would
/// call 3 pt/s against 1 pt/s a disagreement, so a pair whose larger value is below
/// ``floor`` (50 pt/s, Android's minimum fling velocity, `VelocityGates.android`'s floor) is
/// "both at rest" and agrees.
struct RealCaptureVelocityTests {
    /// Below this (pt/s, on the main axis) both estimates count as "at rest".
    static let floor = 50.0
    /// The relative difference above which two estimates disagree.
    static let tolerance = 0.25
    /// A fling threshold (pt/s) to count the gestures that change side: Flutter's
    /// `Dismissible` minimum fling velocity (docs/MODEL.md, D3).
    static let flingThreshold = 700.0

    /// One gesture's release under the three estimators.
    struct Release {
        var file: String
        var number: Int
        /// The net translation at the release (the same under every estimator).
        var translation: PanVector
        /// The recorded release velocity, and whether the estimator reported one.
        var velocity: [VelocityStrategy: (value: PanVector, reported: Bool)]

        var isHorizontal: Bool { abs(translation.x) >= abs(translation.y) }
        /// The net translation on the main axis.
        var travel: Double { isHorizontal ? translation.x : translation.y }

        /// The release velocity on the main axis, 0 where none was reported (as recorded).
        func main(_ strategy: VelocityStrategy) -> Double {
            let v = velocity[strategy]!.value
            return isHorizontal ? v.x : v.y
        }
    }

    /// A folder of the shared captures and how `record` reads it (as `EvdevImportTests` does).
    struct Source: Sendable {
        var folder: String
        var format: PointerLogFormat
        var screen: ScreenGeometry
        var axes: GeteventAxes?
    }

    static let android = Source(
        folder: "android-emulator-getevent", format: .getevent, screen: ScreenGeometry(width: 411, height: 731, scale: 2.625),
        axes: GeteventAxes(x: 0...32767, y: 0...32767))
    static let evemu = Source(
        folder: "evemu-touchscreens/orig", format: .evemu, screen: ScreenGeometry(width: 1280, height: 800, scale: 1), axes: nil)

    /// `recorded_touch_events_contentsquare_demo.txt` is `recorded_touch_events.txt` with 8 more
    /// lines (the folder's SOURCE.md): the same 46 gestures twice.
    static let duplicateCapture = "recorded_touch_events_contentsquare_demo.txt"

    /// Every complete gesture of every log in `source`, in file-name order.
    static func releases(_ source: Source) throws -> [Release] {
        let root = try #require(SharedData.folder(SharedData.realCaptures)).appendingPathComponent(source.folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".events") }.sorted()
        var all: [Release] = []
        for name in names {
            var recorded: [VelocityStrategy: [(sample: PanSample, reported: Bool)]] = [:]
            for strategy in VelocityStrategy.allCases {
                let folder = try TemporaryFolder("realvelocity")
                let recording = GestureRecording(
                    configuration: .init(recognizer: .init(screen: source.screen, velocity: strategy), metadata: TraceMetadata(id: "")),
                    destination: RecordingDestination(folder: folder.path, stem: "real"))
                let importer = PointerLogImporter(
                    configuration: .init(format: source.format, getevent: GeteventOptions(axes: source.axes, screen: source.screen)))
                let summary = try importer.record(logAt: root.appendingPathComponent(name).path, into: recording)
                #expect(summary.warnings.isEmpty, "\(name): \(summary.warnings)")
                recorded[strategy] = try recording.gestures.filter(\.isComplete).map { gesture in
                    let samples = try TraceReader().read(contentsOf: gesture.path).trace.samples
                    return (try #require(samples.last), gesture.hasReleaseVelocity)
                }
            }
            let reference = try #require(recorded[.lsq2])
            for strategy in VelocityStrategy.allCases {
                // The recognizer does not depend on the estimator: same gestures, same translations.
                #expect(recorded[strategy]?.map(\.sample.translation) == reference.map(\.sample.translation))
            }
            for (index, release) in reference.enumerated() {
                var velocity: [VelocityStrategy: (PanVector, Bool)] = [:]
                for strategy in VelocityStrategy.allCases {
                    let (sample, reported) = recorded[strategy]![index]
                    velocity[strategy] = (sample.velocity, reported)
                }
                all.append(Release(file: name, number: index + 1, translation: release.sample.translation, velocity: velocity))
            }
        }
        return all
    }

    /// What one pair of estimators gives on a set of gestures.
    struct PairStatistics: Equatable {
        /// Gestures where at least one of the two is at or above ``floor``.
        var compared = 0
        /// Of those, the ones that disagree by more than ``tolerance``.
        var disagreements = 0
        /// Of the disagreements, those where the two point in opposite directions or one is 0.
        var oppositeOrZero = 0
        /// `max(|a|, |b|) / min(|a|, |b|)` over the compared gestures with both nonzero and the
        /// same sign, sorted.
        var ratios: [Double] = []
        /// `|b| / |a|` over the same gestures, sorted: whether one estimator reads systematically higher.
        var directional: [Double] = []
        /// Gestures on different sides of ``flingThreshold`` (by magnitude).
        var sideChanges = 0

        var median: Double { Self.median(ratios) }
        var worst: Double { ratios.last ?? .nan }
        var directionalMedian: Double { Self.median(directional) }

        static func median(_ sorted: [Double]) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
    }

    static func statistics(_ releases: [Release], _ a: VelocityStrategy, _ b: VelocityStrategy) -> PairStatistics {
        var result = PairStatistics()
        for release in releases {
            let va = release.main(a), vb = release.main(b)
            let larger = max(abs(va), abs(vb)), smaller = min(abs(va), abs(vb))
            if (abs(va) >= flingThreshold) != (abs(vb) >= flingThreshold) { result.sideChanges += 1 }
            guard larger >= floor else { continue }  // both at rest
            result.compared += 1
            let sameDirection = va * vb > 0
            if abs(va - vb) > tolerance * larger {
                result.disagreements += 1
                if !sameDirection { result.oppositeOrZero += 1 }
            }
            if sameDirection {
                result.ratios.append(larger / smaller)
                result.directional.append(abs(vb) / abs(va))
            }
        }
        result.ratios.sort()
        result.directional.sort()
        return result
    }

    static let pairs: [(VelocityStrategy, VelocityStrategy)] = [(.lsq2, .impulse), (.lsq2, .flutter), (.impulse, .flutter)]

    /// One row of docs/CAPTURE.md's table: gestures, and per pair (in ``pairs`` order)
    /// compared, disagreements, of which opposite or zero, median and worst ratio (two
    /// decimals), side changes at 700 pt/s.
    struct Row: Equatable, CustomStringConvertible {
        var group: String
        var gestures: Int
        /// Releases without a velocity: lsq2, impulse (none reported), flutter (zero reported).
        var withoutVelocity: [Int]
        var pairs: [Pair]

        struct Pair: Equatable {
            var compared: Int
            var disagreements: Int
            var oppositeOrZero: Int
            var median: String
            var worst: String
            /// The median of `|b| / |a|`.
            var secondOverFirst: String
            var sideChanges: Int
        }

        var description: String {
            zip(RealCaptureVelocityTests.pairs, pairs).map { names, pair in
                "| \(group) | \(gestures) | \(withoutVelocity.map(String.init).joined(separator: " / ")) | \(names.0.rawValue)–\(names.1.rawValue) "
                    + "| \(pair.compared) | \(pair.disagreements) (\(pair.oppositeOrZero)) | \(pair.median) | \(pair.worst) | \(pair.secondOverFirst) | \(pair.sideChanges) |"
            }.joined(separator: "\n")
        }
    }

    static func row(_ group: String, _ releases: [Release]) -> Row {
        func two(_ value: Double) -> String { value.isNaN ? "–" : String(format: "%.2f", value) }
        let withoutVelocity = [
            releases.count(where: { !$0.velocity[.lsq2]!.reported }), releases.count(where: { !$0.velocity[.impulse]!.reported }),
            releases.count(where: { $0.velocity[.flutter]!.value == .zero })
        ]
        return Row(
            group: group, gestures: releases.count, withoutVelocity: withoutVelocity,
            pairs: pairs.map { a, b in
                let s = statistics(releases, a, b)
                return Row.Pair(
                    compared: s.compared, disagreements: s.disagreements, oppositeOrZero: s.oppositeOrZero, median: two(s.median),
                    worst: two(s.worst), secondOverFirst: two(s.directionalMedian), sideChanges: s.sideChanges)
            })
    }

    /// The table in docs/CAPTURE.md. Change both together.
    static let expected: [Row] = [
        Row(
            group: "Android emulator, getevent (5 logs)", gestures: 183, withoutVelocity: [37, 34, 39],
            pairs: [
                .init(compared: 144, disagreements: 58, oppositeOrZero: 9, median: "1.24", worst: "8.72", secondOverFirst: "0.87", sideChanges: 3),
                .init(compared: 141, disagreements: 0, oppositeOrZero: 0, median: "1.00", worst: "1.00", secondOverFirst: "1.00", sideChanges: 0),
                .init(compared: 144, disagreements: 58, oppositeOrZero: 9, median: "1.24", worst: "8.72", secondOverFirst: "1.15", sideChanges: 3)
            ]),
        Row(
            group: "the same, duplicate capture left out (4 logs)", gestures: 137, withoutVelocity: [37, 34, 39],
            pairs: [
                .init(compared: 98, disagreements: 44, oppositeOrZero: 9, median: "1.25", worst: "8.72", secondOverFirst: "0.87", sideChanges: 2),
                .init(compared: 95, disagreements: 0, oppositeOrZero: 0, median: "1.00", worst: "1.00", secondOverFirst: "1.00", sideChanges: 0),
                .init(compared: 98, disagreements: 44, oppositeOrZero: 9, median: "1.25", worst: "8.72", secondOverFirst: "1.14", sideChanges: 2)
            ]),
        Row(
            group: "evemu, five Linux touchscreens (14 logs)", gestures: 18, withoutVelocity: [14, 12, 14],
            pairs: [
                .init(compared: 3, disagreements: 3, oppositeOrZero: 0, median: "1.47", worst: "3.02", secondOverFirst: "1.47", sideChanges: 0),
                .init(compared: 3, disagreements: 0, oppositeOrZero: 0, median: "1.00", worst: "1.00", secondOverFirst: "1.00", sideChanges: 0),
                .init(compared: 3, disagreements: 3, oppositeOrZero: 0, median: "1.47", worst: "3.02", secondOverFirst: "0.68", sideChanges: 0)
            ])
    ]

    @Test(.needsRealCaptures)
    func estimatorsDisagreeOnRealReleasesAsCAPTUREmdSays() throws {
        let android = try Self.releases(Self.android)
        let evemu = try Self.releases(Self.evemu)
        let rows = [
            Self.row("Android emulator, getevent (5 logs)", android),
            Self.row("the same, duplicate capture left out (4 logs)", android.filter { $0.file != Self.duplicateCapture }),
            Self.row("evemu, five Linux touchscreens (14 logs)", evemu)
        ]
        print(
            """
            Release velocity on the main axis, pt/s; disagree: |a − b| > 0.25·max(|a|,|b|), pairs both below 50 pt/s agree.
            | captures | gestures | no velocity (lsq2 / impulse / flutter 0) | pair | compared (≥ 50 pt/s) | disagree (opposite or 0) | median ratio | worst ratio | median b/a | change side of 700 pt/s |
            |---|---|---|---|---|---|---|---|---|---|
            """)
        for row in rows { print(row) }
        #expect(rows == Self.expected)

        // Where lsq2 and impulse point opposite ways, lsq2 points against the pan's net
        // direction and impulse along it: 9 releases, all in one log.
        let opposite = android.filter {
            max(abs($0.main(.lsq2)), abs($0.main(.impulse))) >= Self.floor && $0.main(.lsq2) * $0.main(.impulse) < 0
        }
        #expect(
            opposite.map { "\($0.file) #\($0.number)" }
                == [12, 24, 25, 27, 34, 45, 46, 47, 49].map { "demoapp_scenarios_replay_recordings.txt #\($0)" })
        #expect(opposite.allSatisfy { $0.main(.lsq2) * $0.travel < 0 && $0.main(.impulse) * $0.travel > 0 })
    }

    @Test(.needsRealCaptures)
    func lsq2AndFlutterGiveTheSameReleaseVelocityOnRealCaptures() throws {
        // The same unweighted parabola, in Float against Double: within 0.2 pt/s on the main
        // axis, flutter's zero where lsq2 reports none. Off it, two releases differ: two
        // samples left after a pause, where lsq2 gives the line's slope and flutter zero.
        var differing: [String] = []
        for release in try Self.releases(Self.android) + Self.releases(Self.evemu) {
            #expect(abs(release.main(.lsq2) - release.main(.flutter)) <= 0.2, "\(release.file) #\(release.number)")
            let lsq2 = release.velocity[.lsq2]!.value, flutter = release.velocity[.flutter]!.value
            if max(abs(lsq2.x - flutter.x), abs(lsq2.y - flutter.y)) > 0.2 { differing.append("\(release.file) #\(release.number)") }
        }
        #expect(differing == ["demoapp_scenarios_replay_recordings.txt #40", "demoapp_scenarios_replay_recordings.txt #51"])
    }
}

@testable import PanCapture

/// `testdata/velocity/flutter_velocitytracker.json` in the shared data folder (``SharedData``): Flutter's
/// `velocity_tracker_test.dart` (blob `75eff066`) and `velocity_tracker_data.dart`,
/// converted to JSON.
struct FlutterVelocityVectors: Decodable, Sendable {
    static let fileName = "flutter_velocitytracker.json"

    var cases: [Case]
    var syntheticLoopCases: [LoopCase]

    enum CodingKeys: String, CodingKey {
        case cases
        case syntheticLoopCases = "synthetic_loop_cases"
    }

    struct Case: Decodable, Sendable {
        var name: String
        var test: String
        var samples: [Sample]
        var queryAfterIndex: Int
        var expected: Expected
        var tolerance: Tolerance

        enum CodingKeys: String, CodingKey {
            case name, test, samples, expected, tolerance
            case queryAfterIndex = "query_after_index"
        }
    }

    struct Sample: Decodable, Sendable {
        var milliseconds: Int64
        var x: Double
        var y: Double
        var phase: Phase
        var listIndex: Int?

        enum CodingKeys: String, CodingKey {
            case milliseconds = "t_ms"
            case x, y, phase
            case listIndex = "list_index"
        }

        var nanoseconds: Int64 { milliseconds * 1_000_000 }

        var velocitySample: VelocitySample {
            let phase: VelocitySample.Phase =
                switch self.phase {
                case .down: .down
                case .move: .move
                case .up: .up
                }
            return VelocitySample(nanoseconds: nanoseconds, x: x, y: y, phase: phase)
        }
    }

    enum Phase: String, Decodable, Sendable {
        case down
        case move
        case up
    }

    struct Expected: Decodable, Sendable {
        var vx: Double
        var vy: Double
    }

    struct Tolerance: Decodable, Sendable {
        var type: String
        var fraction: Double?
        var strict: Bool?
    }

    struct LoopCase: Decodable, Sendable {
        var name: String
        var test: String
        var samples: [Sample]
        var queryAfterIndices: [Int]?
        var queryAfterIndex: Int?
        var expected: Expected
        var tolerance: Tolerance

        enum CodingKeys: String, CodingKey {
            case name, test, samples, expected, tolerance
            case queryAfterIndices = "query_after_indices"
            case queryAfterIndex = "query_after_index"
        }
    }
}

import Testing

@testable import PanCapture
import PanTrace

/// One recorded gesture of Flutter's `velocity_tracker_test.dart`, with how the test feeds it.
struct FlutterVectorCase: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    static let recordedTest = "Velocity tracker gives expected results"
    static let interruptedTest = "Interrupted velocity estimation"

    /// The gestures fed before this one on the same tracker (the recorded test never resets
    /// its tracker), in list order.
    var earlierGestures: [FlutterVelocityVectors.Case]
    var gesture: FlutterVelocityVectors.Case

    var description: String { gesture.name }
    var testDescription: String { gesture.name }

    /// The 13 `velocityEventData` gestures, each with the gestures that precede it, then the
    /// `interruptedVelocityEventData` gesture on its own tracker.
    static func all() throws -> [FlutterVectorCase] {
        guard VelocityVectorFiles.isAvailable else { return [] }
        let vectors = try FlutterVelocityVectors.load()
        var result: [FlutterVectorCase] = []
        var recorded: [FlutterVelocityVectors.Case] = []
        for gesture in vectors.cases {
            switch gesture.test {
            case recordedTest:
                result.append(FlutterVectorCase(earlierGestures: recorded, gesture: gesture))
                recorded.append(gesture)
            case interruptedTest:
                result.append(FlutterVectorCase(earlierGestures: [], gesture: gesture))
            default:
                throw VelocityVectorFiles.LookupError(
                    description: "unknown Flutter test \(gesture.test)")
            }
        }
        return result
    }

    /// Replays the events like the Dart test: Down and Move go to `addPosition`; at the Up
    /// event (whose position is never added) `getVelocity()` is read. The test's stopwatch
    /// does not advance, so no time gate applies at the query.
    ///
    /// - Returns: the velocity read at this gesture's Up.
    func replay() throws -> PanVector {
        var tracker = VelocityTracker(strategy: .flutter)
        for earlier in earlierGestures {
            for sample in earlier.samples where sample.phase != .up {
                tracker.add(x: sample.x, y: sample.y, atNanoseconds: sample.nanoseconds)
            }
        }
        for (index, sample) in gesture.samples.enumerated() {
            if sample.phase == .up {
                guard index == gesture.queryAfterIndex else {
                    throw VelocityVectorFiles.LookupError(
                        description:
                            "\(gesture.name): up at \(index), query at \(gesture.queryAfterIndex)")
                }
                guard let velocity = tracker.velocity() else {
                    throw VelocityVectorFiles.LookupError(description: "flutter returned nil")
                }
                return velocity
            }
            tracker.add(x: sample.x, y: sample.y, atNanoseconds: sample.nanoseconds)
        }
        throw VelocityVectorFiles.LookupError(description: "\(gesture.name) has no up event")
    }
}

extension FlutterVelocityVectors {
    static func load() throws -> FlutterVelocityVectors {
        try VelocityVectorFiles.decode(FlutterVelocityVectors.self, from: fileName)
    }

    /// Every case, or none when the vectors are absent (for `@Test(.needsVelocityVectors, arguments:)`).
    static func casesIfAvailable() throws -> [Case] {
        VelocityVectorFiles.isAvailable ? try load().cases : []
    }
}

/// Flutter's `_withinTolerance`: `abs((actual - expected) / expected) < 0.001`, strict.
struct FlutterTolerance {
    var fraction: Double

    func relativeError(actual: Double, expected: Double) -> Double {
        abs((actual - expected) / expected)
    }

    func accepts(actual: Double, expected: Double) -> Bool {
        relativeError(actual: actual, expected: expected) < fraction
    }
}

@testable import PanCapture

/// `testdata/velocity/android_velocitytracker.json` in the shared data folder (``SharedData``): AOSP's
/// `libs/input/tests/VelocityTracker_test.cpp` (blob `f50a3cdb`), converted to JSON.
struct AndroidVelocityVectors: Decodable, Sendable {
    static let fileName = "android_velocitytracker.json"

    var tolerances: Tolerances
    var cases: [Case]
    var axisScrollCases: [ScrollCase]

    enum CodingKeys: String, CodingKey {
        case tolerances
        case cases
        case axisScrollCases = "axis_scroll_cases"
    }

    /// The two relative rules; `exact (EXPECT_EQ)` is not listed in the file's table.
    struct Tolerances: Decodable, Sendable {
        var relativeVelocity: Rule
        var relativeQuadratic: Rule

        enum CodingKeys: String, CodingKey {
            case relativeVelocity = "relative_0.2"
            case relativeQuadratic = "relative_0.00001"
        }
    }

    struct Rule: Decodable, Sendable {
        var type: String
        var fraction: Double
    }

    struct Case: Decodable, Sendable {
        var name: String
        var group: String
        var multiPointer: Bool
        var samples: [Sample]
        var queryAfterIndex: Int
        var checks: [Check]

        enum CodingKeys: String, CodingKey {
            case name, group, samples, checks
            case multiPointer = "multi_pointer"
            case queryAfterIndex = "query_after_index"
        }
    }

    enum Phase: String, Decodable, Sendable {
        case down
        case move
        case pointerDown = "pointer_down"
        case pointerUp = "pointer_up"
        case pointerUpCanceled = "pointer_up_canceled"
        case up
        case cancel
    }

    struct Sample: Decodable, Sendable {
        var nanoseconds: Int64
        var phase: Phase
        /// Single-pointer cases only.
        var x: Double?
        var y: Double?
        var isResampled: Bool?
        /// Multi-pointer cases only.
        var actionPointerID: Int?
        var pointers: [Pointer]?

        enum CodingKeys: String, CodingKey {
            case nanoseconds = "t_ns"
            case phase, x, y, pointers
            case isResampled = "resampled"
            case actionPointerID = "action_pointer_id"
        }
    }

    struct Pointer: Decodable, Sendable {
        var id: Int
        var x: Double
        var y: Double
        var isResampled: Bool?

        enum CodingKeys: String, CodingKey {
            case id, x, y
            case isResampled = "resampled"
        }
    }

    struct Check: Decodable, Sendable {
        var strategy: String
        var axis: String
        var pointerID: Int
        /// `nil`: the test expects no velocity (`std::nullopt`).
        var expected: Double?
        var tolerance: String
        var api: String?

        enum CodingKeys: String, CodingKey {
            case strategy, axis, expected, tolerance, api
            case pointerID = "pointer_id"
        }
    }

    struct ScrollCase: Decodable, Sendable {
        var name: String
    }
}

extension AndroidVelocityVectors.Case {
    /// The pointer PanTrace tracks: the one that went down first.
    var trackedPointerID: Int {
        samples.first?.pointers?.first?.id ?? 0
    }

    /// The tracked pointer's events as PanCapture sees them.
    ///
    /// Mirrors what Android's `VelocityTracker::addMovement(const MotionEvent&)` does for
    /// that one pointer:
    /// - resampled positions are skipped (`if (event.isResampled(i, h)) continue;`);
    /// - POINTER_DOWN of another pointer re-reports the tracked pointer's position, which
    ///   Android adds like a MOVE (same-time duplicates are then replaced);
    /// - POINTER_UP of another pointer adds nothing for the tracked pointer. Its 40 ms
    ///   "stopped" check erases the history, which for the tracked pointer is equivalent to
    ///   the same check at its next sample or lift, since nothing is added in between;
    /// - a POINTER_UP with FLAG_CANCELED only clears the other pointer;
    /// - UP (or POINTER_UP of the tracked pointer) is the lift; CANCEL cancels.
    func trackedPointerSamples() -> [VelocitySample] {
        let tracked = trackedPointerID
        var result: [VelocitySample] = []
        for sample in samples {
            let position: (x: Double, y: Double, isResampled: Bool)?
            if multiPointer {
                if let pointer = sample.pointers?.first(where: { $0.id == tracked }) {
                    position = (pointer.x, pointer.y, pointer.isResampled ?? false)
                } else {
                    position = nil
                }
            } else if let x = sample.x, let y = sample.y {
                position = (x, y, sample.isResampled ?? false)
            } else {
                position = nil
            }
            guard let position else {
                continue
            }
            let phase: VelocitySample.Phase
            switch sample.phase {
            case .down:
                phase = .down
            case .move, .pointerDown:
                if position.isResampled {
                    continue
                }
                phase = .move
            case .pointerUp, .pointerUpCanceled:
                if sample.actionPointerID != tracked {
                    continue
                }
                phase = sample.phase == .pointerUp ? .up : .cancel
            case .up:
                phase = .up
            case .cancel:
                phase = .cancel
            }
            result.append(
                VelocitySample(
                    nanoseconds: sample.nanoseconds, x: position.x, y: position.y, phase: phase))
        }
        return result
    }
}

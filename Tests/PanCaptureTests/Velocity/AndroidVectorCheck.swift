import Testing

@testable import PanCapture

/// One assertion of Android's `VelocityTracker_test.cpp`, ready to replay: the tracked
/// pointer's stream, the strategy, the axis and the expected value with its tolerance.
struct AndroidVectorCheck: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    var caseName: String
    var strategyName: String
    var strategy: VelocityStrategy
    var axis: String
    var pointerID: Int
    var expected: Double?
    var toleranceName: String
    var rule: AndroidTolerance
    var api: String?
    var samples: [VelocitySample]
    var queryNanoseconds: Int64

    var description: String {
        let api = api.map { " via \($0)" } ?? ""
        return "\(caseName) \(strategyName) \(axis) pointer \(pointerID)\(api)"
    }

    var testDescription: String { description }

    /// The key of ``VelocityFeederTests/notApplicable`` this check would use.
    var skipKey: String { "\(caseName)/pointer\(pointerID)" }

    /// Every check, in file order.
    static func all() throws -> [AndroidVectorCheck] {
        guard VelocityVectorFiles.isAvailable else { return [] }
        let vectors = try AndroidVelocityVectors.load()
        var checks: [AndroidVectorCheck] = []
        for testCase in vectors.cases {
            let samples = testCase.trackedPointerSamples()
            let query = testCase.samples[testCase.queryAfterIndex].nanoseconds
            for check in testCase.checks {
                checks.append(
                    AndroidVectorCheck(
                        caseName: testCase.name,
                        strategyName: check.strategy,
                        strategy: try strategy(named: check.strategy),
                        axis: check.axis,
                        pointerID: check.pointerID,
                        expected: check.expected,
                        toleranceName: check.tolerance,
                        rule: try AndroidTolerance(named: check.tolerance, in: vectors.tolerances),
                        api: check.api,
                        samples: testCase.pointerIsTracked(check.pointerID) ? samples : [],
                        queryNanoseconds: query))
            }
        }
        return checks
    }

    /// The checks about the pointer PanTrace tracks.
    static func applicable() throws -> [AndroidVectorCheck] {
        try all().filter { !$0.samples.isEmpty }
    }

    /// The checks about pointers PanTrace does not track.
    static func untrackedPointerChecks() throws -> [AndroidVectorCheck] {
        try all().filter { $0.samples.isEmpty }
    }

    /// `LSQ2`, `IMPULSE`, or `DEFAULT` (LSQ2 for the planar axes).
    static func strategy(named name: String) throws -> VelocityStrategy {
        switch name {
        case "LSQ2": .lsq2
        case "IMPULSE": .impulse
        case "DEFAULT": .androidDefault
        default: throw VelocityVectorFiles.LookupError(description: "unknown strategy \(name)")
        }
    }

    /// Reads `getComputedVelocity(units=1000000, maxVelocity=FLT_MAX)`.
    static func computedVelocityArguments(_ api: String) throws -> (
        units: Int32, maxVelocity: Float
    ) {
        let unreadable = VelocityVectorFiles.LookupError(description: "unreadable api \(api)")
        guard api.hasPrefix("getComputedVelocity("), api.hasSuffix(")") else {
            throw unreadable
        }
        let arguments = api.dropFirst("getComputedVelocity(".count).dropLast()
        var units: Int32?
        var maxVelocity: Float?
        for argument in arguments.split(separator: ",") {
            let pair = argument.split(separator: "=").map { $0.trimmingSpaces() }
            guard pair.count == 2 else {
                throw unreadable
            }
            switch pair[0] {
            case "units":
                units = Int32(pair[1])
            case "maxVelocity":
                maxVelocity = pair[1] == "FLT_MAX" ? Float.greatestFiniteMagnitude : Float(pair[1])
            default:
                throw unreadable
            }
        }
        guard let units, let maxVelocity else {
            throw unreadable
        }
        return (units, maxVelocity)
    }
}

extension AndroidVelocityVectors {
    static func load() throws -> AndroidVelocityVectors {
        try VelocityVectorFiles.decode(AndroidVelocityVectors.self, from: fileName)
    }
}

extension AndroidVelocityVectors.Case {
    func pointerIsTracked(_ pointerID: Int) -> Bool {
        pointerID == trackedPointerID
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// Android's acceptance rule for one check, reproduced in `float` like the test.
///
/// `EXPECT_NEAR_BY_FRACTION(float actual, float target, float fraction)`: the tolerance is
/// `fabsf(target * fraction)` in float, or `1E-6` when the target is 0; gtest's
/// `EXPECT_NEAR` then compares `|actual − target|` in double, inclusive. `checkVelocity`
/// fails when exactly one of actual/expected is absent. `EXPECT_EQ` is exact.
enum AndroidTolerance: Sendable {
    case relative(fraction: Float)
    case exact

    init(named name: String, in table: AndroidVelocityVectors.Tolerances) throws {
        switch name {
        case "relative_0.2": self = .relative(fraction: Float(table.relativeVelocity.fraction))
        case "relative_0.00001":
            self = .relative(fraction: Float(table.relativeQuadratic.fraction))
        case "exact (EXPECT_EQ)": self = .exact
        default:
            throw VelocityVectorFiles.LookupError(description: "unknown tolerance \(name)")
        }
    }

    struct Verdict {
        var isPassing: Bool
        var explanation: String
    }

    func judge(actual: Double?, expected: Double?) -> Verdict {
        switch (actual, expected) {
        case (nil, nil):
            return Verdict(isPassing: true, explanation: "no velocity, as expected")
        case (let actual?, nil):
            return Verdict(isPassing: false, explanation: "expected no velocity, got \(actual)")
        case (nil, let expected?):
            return Verdict(isPassing: false, explanation: "expected \(expected), got no velocity")
        case (let actual?, let expected?):
            let actualFloat = Float(actual)
            let target = Float(expected)
            switch self {
            case .exact:
                return Verdict(
                    isPassing: actualFloat == target,
                    explanation: "actual \(actualFloat) vs expected \(target) (exact)")
            case .relative(let fraction):
                var bound = abs(target * fraction)
                if target == 0 {
                    bound = 1e-6
                }
                let difference = abs(Double(actualFloat) - Double(target))
                return Verdict(
                    isPassing: difference <= Double(bound),
                    explanation: "actual \(actualFloat) vs expected \(target): "
                        + "|diff| \(difference), bound \(bound)")
            }
        }
    }
}

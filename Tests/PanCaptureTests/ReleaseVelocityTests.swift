import Foundation
import Testing

@testable import PanCapture
import PanTrace

/// `pantrace velocity`'s library half, run on logs written from the platforms' own test
/// vectors (read from the shared data folder, ``SharedData``), through the CSV and JSONL importers.
struct ReleaseVelocityTests {
    static func velocity(ofLog text: String, name: String = "log.csv", format: PointerLogFormat = .csv, strategy: VelocityStrategy) throws
        -> PanVector?
    {
        let path = try CaptureTestFiles.log(text, name: name)
        return try ReleaseVelocity.ofFirstPointer(
            inLogAt: path, importer: PointerLogImporter(configuration: .init(format: format)), strategy: strategy)
    }

    @Test(.needsVelocityVectors, arguments: try AndroidVectorCheck.applicable().filter { $0.api == nil })
    func androidCheckPassesThroughACSVLog(_ check: AndroidVectorCheck) throws {
        let velocity = try Self.velocity(ofLog: CaptureTestFiles.csv(check.samples), strategy: check.strategy)
        let actual = velocity.map { check.axis == "X" ? $0.x : $0.y }
        let verdict = check.rule.judge(actual: actual, expected: check.expected)
        #expect(verdict.isPassing, "\(check): \(verdict.explanation)")
        // And bit for bit what the feeder gives for the same samples.
        #expect(velocity == VelocityFeeder.releases(of: check.samples, strategy: check.strategy).last?.velocity)
    }

    @Test(.needsVelocityVectors, arguments: try FlutterVelocityVectors.casesIfAvailable())
    func flutterRecordedGesturePassesThroughAJSONLLog(_ gesture: FlutterVelocityVectors.Case) throws {
        var text = ""
        for sample in gesture.samples {
            text += "{\"t_ms\":\(sample.milliseconds),\"x\":\(sample.x),\"y\":\(sample.y),\"phase\":\"\(sample.phase.rawValue)\",\"pointer\":1}\n"
        }
        let velocity = try #require(try Self.velocity(ofLog: text, name: "log.jsonl", format: .jsonl, strategy: .flutter))
        let tolerance = FlutterTolerance(fraction: gesture.tolerance.fraction ?? 0.001)
        #expect(tolerance.accepts(actual: velocity.x, expected: gesture.expected.vx), "\(gesture.name): vx \(velocity.x)")
        #expect(tolerance.accepts(actual: velocity.y, expected: gesture.expected.vy), "\(gesture.name): vy \(velocity.y)")
    }

    @Test(arguments: [(VelocityStrategy.lsq2, "40", true), (.lsq2, "40.000001", false), (.flutter, "40.999", true), (.flutter, "41", true)])
    func liftTimingDecidesBetweenNoneAndAVelocity(strategy: VelocityStrategy, lift: String, hasVelocity: Bool) throws {
        let log = "t_ms,x,y,phase\n-20,0,0,down\n-10,5,0,move\n0,10,0,move\n\(lift),10,0,up\n"
        let velocity = try Self.velocity(ofLog: log, strategy: strategy)
        #expect((velocity != nil) == hasVelocity)
    }

    @Test func onlyTheFirstPointerCounts() throws {
        let log = "t_ms,x,y,phase,pointer\n0,0,0,down,4\n1,0,0,down,9\n10,5,0,move,4\n11,900,0,move,9\n20,10,0,move,4\n21,900,0,up,9\n22,10,0,up,4\n"
        let velocity = try #require(try Self.velocity(ofLog: log, strategy: .lsq2))
        #expect(abs(velocity.x - 500) < 0.01)
    }

    @Test func aLogWhoseFirstPointerNeverLiftsIsAnError() throws {
        let error = #expect(throws: CaptureError.self) {
            try Self.velocity(ofLog: "t_ms,x,y,phase\n0,0,0,down\n10,5,0,move\n", strategy: .lsq2)
        }
        #expect(error?.description.contains("never lifts") == true)
    }

    @Test func aMoveBeforeAnyDownIsAnErrorNamingTheLine() throws {
        let error = #expect(throws: CaptureError.self) {
            try Self.velocity(ofLog: "t_ms,x,y,phase\n0,0,0,move\n", strategy: .lsq2)
        }
        #expect(error?.line == 2)
    }
}

extension FlutterVelocityVectors.Case: CustomTestStringConvertible {
    public var testDescription: String { name }
}

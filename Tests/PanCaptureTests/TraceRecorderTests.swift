import Foundation
import PanTrace
import Testing

@testable import PanCapture

struct TraceRecorderTests {
    static func handler(_ recorder: TraceRecorder, _ state: TraceRecorder.State, _ t: Double, _ x: Double) throws -> RecordedGesture? {
        try recorder.record(
            state: state, translation: PanVector(x: x, y: 0), velocity: PanVector(x: 800, y: 0), location: PanVector(x: 10 + x, y: 300),
            touches: 1, timestamp: t)
    }

    @Test func statesFromAPanHandlerBecomeOneFilePerGesture() throws {
        let folder = try CaptureTestFiles.folder()
        let recorder = TraceRecorder(
            destination: RecordingDestination(folder: folder, stem: "ios"),
            metadata: TraceMetadata(id: "", source: "ios", edge: .left, intent: .finish))
        #expect(try Self.handler(recorder, .possible, 100.0, 0) == nil)
        #expect(try Self.handler(recorder, .began, 100.5, 12) == nil)
        #expect(try Self.handler(recorder, .changed, 100.508, 20) == nil)
        let gesture = try #require(try Self.handler(recorder, .ended, 100.516, 28))
        #expect(gesture.path == "\(folder)/ios-1.pantrace")
        let file = try CaptureTestFiles.read(gesture.path)
        #expect(file.isComplete)
        #expect(file.trace.metadata.velocityOrigin == "recorded")
        #expect(file.trace.metadata.id == "ios-1")
        #expect(file.trace.samples.map(\.phase) == [.began, .changed, .ended])
        #expect(file.trace.samples.map(\.time) == [0, 0.008, 0.016])
        #expect(file.trace.samples.last?.touches == 1)
        #expect(file.trace.samples.last?.velocity == PanVector(x: 800, y: 0))
    }

    @Test func failedAndStrayChangesWriteNothing() throws {
        let folder = try CaptureTestFiles.folder()
        let recorder = TraceRecorder(destination: RecordingDestination(folder: folder, stem: "ios"), metadata: TraceMetadata(id: ""))
        _ = try Self.handler(recorder, .changed, 1, 5)
        _ = try Self.handler(recorder, .failed, 2, 5)
        _ = try Self.handler(recorder, .ended, 3, 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aRelaunchedAppNumbersOnPastExistingFiles() throws {
        let folder = try CaptureTestFiles.folder()
        for _ in 0..<2 {
            let recorder = TraceRecorder(destination: RecordingDestination(folder: folder, stem: "ios"), metadata: TraceMetadata(id: ""))
            _ = try Self.handler(recorder, .began, 1, 12)
            _ = try Self.handler(recorder, .cancelled, 1.1, 12)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["ios-1.pantrace", "ios-2.pantrace"])
    }

    @Test func aValueGoingBackInTimeIsAnErrorAndKeepsWhatWasWritten() throws {
        let folder = try CaptureTestFiles.folder()
        let recorder = TraceRecorder(destination: RecordingDestination(folder: folder, stem: "ios"), metadata: TraceMetadata(id: ""))
        _ = try Self.handler(recorder, .began, 5, 12)
        _ = try Self.handler(recorder, .changed, 5.1, 20)
        #expect(throws: CaptureError.self) { try Self.handler(recorder, .changed, 4, 30) }
        let file = try CaptureTestFiles.read("\(folder)/ios-1.pantrace")
        #expect(!file.isComplete)
        #expect(file.trace.samples.count == 2)
        #expect(!recorder.isRecordingGesture)
    }

    @Test func stateRawValuesAreUIKits() {
        #expect([TraceRecorder.State.possible, .began, .changed, .ended, .cancelled, .failed].map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    }
}

import Foundation
import PanTrace
import Testing

@testable import PanCapture

struct GestureRecordingTests {
    static func recording(in folder: String, _ recognizer: PanRecognizer.Configuration = .init()) -> GestureRecording {
        GestureRecording(
            configuration: .init(recognizer: recognizer, metadata: TraceMetadata(id: "", source: "test", intent: .finish)),
            destination: RecordingDestination(folder: folder, stem: "g"))
    }

    static func swipe(from start: Int64, pointer: Int = 0, dx: Double = 10) -> [PointerEvent] {
        var events = [PointerEvent(nanoseconds: start, x: 0, y: 0, phase: .down, pointer: pointer)]
        for k in 1...10 {
            events.append(PointerEvent(nanoseconds: start + Int64(k) * 8_000_000, x: Double(k) * dx, y: 0, phase: .move, pointer: pointer))
        }
        events.append(PointerEvent(nanoseconds: start + 88_000_000, x: 100, y: 0, phase: .up, pointer: pointer))
        return events
    }

    @Test func writesOneCompleteNumberedFilePerGesture() throws {
        let folder = try CaptureTestFiles.folder()
        let recording = Self.recording(in: folder)
        var outcomes: [GestureRecording.Outcome] = []
        for event in Self.swipe(from: 0) + Self.swipe(from: 500_000_000) { outcomes.append(try recording.handle(event)) }
        #expect(recording.gestures.map(\.path) == ["\(folder)/g-1.pantrace", "\(folder)/g-2.pantrace"])
        #expect(outcomes.contains { if case .began(let path, _) = $0 { path == "\(folder)/g-2.pantrace" } else { false } })
        let file = try CaptureTestFiles.read("\(folder)/g-2.pantrace")
        // Every sample the file holds was reported as it was recorded, in order: one recognizer
        // serves the file and whoever watches it.
        let reported = outcomes.compactMap { outcome -> PanSample? in
            switch outcome {
            case .began(_, let sample), .changed(let sample), .finished(_, let sample): sample
            default: nil
            }
        }
        let first = try CaptureTestFiles.read("\(folder)/g-1.pantrace")
        #expect(reported.map(\.time) == (first.trace.samples + file.trace.samples).map(\.time))
        #expect(file.isComplete)
        #expect(file.trace.metadata.id == "g-2")
        #expect(file.trace.metadata.velocityOrigin == "lsq2")
        #expect(file.trace.metadata.source == "test")
        #expect(file.trace.metadata.intent == .finish)
        // Down at 0 and the first move (10 pt) is within the slop; the pan begins at 20 pt.
        #expect(file.trace.samples.map(\.phase) == [.began] + Array(repeating: .changed, count: 8) + [.ended])
        #expect(file.trace.samples.first?.translation == PanVector(x: 20, y: 0))
        #expect(file.trace.samples.last?.translation == PanVector(x: 100, y: 0))
        #expect(recording.gestures.allSatisfy { $0.isComplete })
    }

    @Test func aSampleWithTheSameTimestampReplacesThePreviousOneAsAndroidDoes() throws {
        let folder = try CaptureTestFiles.folder()
        let recording = Self.recording(in: folder)
        let events = [
            PointerEvent(nanoseconds: 0, x: 0, y: 0, phase: .down),
            PointerEvent(nanoseconds: 8_000_000, x: 20, y: 0, phase: .move),
            PointerEvent(nanoseconds: 16_000_000, x: 30, y: 0, phase: .move),
            PointerEvent(nanoseconds: 16_000_000, x: 33, y: 0, phase: .move),
            PointerEvent(nanoseconds: 24_000_000, x: 40, y: 0, phase: .move),
            PointerEvent(nanoseconds: 24_000_000, x: 40, y: 0, phase: .up)
        ]
        for event in events { _ = try recording.handle(event) }
        let samples = try CaptureTestFiles.read("\(folder)/g-1.pantrace").trace.samples
        #expect(samples.map(\.translation.x) == [20, 33, 40, 40])
        #expect(samples.map(\.phase) == [.began, .changed, .changed, .ended])
    }

    @Test func aReleaseWithoutVelocityIsRecordedAsZeroAndSaidInMetadata() throws {
        let folder = try CaptureTestFiles.folder()
        let recording = Self.recording(in: folder)
        var events = Self.swipe(from: 0)
        events[events.count - 1].nanoseconds = 80_000_000 + 40_000_001
        for event in events { _ = try recording.handle(event) }
        let file = try CaptureTestFiles.read("\(folder)/g-1.pantrace")
        #expect(file.trace.samples.last?.velocity == .zero)
        #expect(file.trace.metadata.extra["releaseVelocity"] == .string("none"))
        #expect(recording.gestures.first?.hasReleaseVelocity == false)
    }

    @Test func interruptLeavesEverySampleReadableWithoutAnEndMark() throws {
        let folder = try CaptureTestFiles.folder()
        let recording = Self.recording(in: folder)
        for event in Self.swipe(from: 0).prefix(7) { _ = try recording.handle(event) }
        let gesture = try #require(try recording.interrupt())
        #expect(!gesture.isComplete)
        let file = try CaptureTestFiles.read(gesture.path)
        #expect(!file.isComplete)
        #expect(file.trace.samples.count == 5)
        #expect(gesture.sampleCount == 5)
        #expect(try recording.interrupt() == nil)
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let folder = try CaptureTestFiles.folder()
        let existing = "\(folder)/g-1.pantrace"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let recording = Self.recording(in: folder)
        let error = #expect(throws: CaptureError.self) {
            for event in Self.swipe(from: 0) { _ = try recording.handle(event) }
        }
        #expect(error?.description.contains("already exists") == true)
        #expect(CaptureTestFiles.bytes(existing) == Data("keep me".utf8))
    }

    @Test func failuresAndExtraPointersAreCounted() throws {
        let folder = try CaptureTestFiles.folder()
        let recording = Self.recording(in: folder, .init(edge: .left))
        let events = [
            PointerEvent(nanoseconds: 0, x: 200, y: 0, phase: .down), PointerEvent(nanoseconds: 1, x: 200, y: 0, phase: .up),
            PointerEvent(nanoseconds: 2, x: 5, y: 0, phase: .down), PointerEvent(nanoseconds: 3, x: 5, y: 0, phase: .up),
            PointerEvent(nanoseconds: 4, x: 5, y: 0, phase: .down), PointerEvent(nanoseconds: 5, x: 50, y: 0, phase: .down, pointer: 1),
            PointerEvent(nanoseconds: 6, x: 5, y: 0, phase: .cancel), PointerEvent(nanoseconds: 7, x: 50, y: 0, phase: .up, pointer: 1)
        ]
        for event in events { _ = try recording.handle(event) }
        #expect(recording.failures == [.outsideEdgeZone: 1, .liftedWithinSlop: 1, .cancelledWithinSlop: 1])
        #expect(recording.ignoredPointers == 1)
        #expect(recording.gestures.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func theSameEventsGiveByteIdenticalFiles() throws {
        let a = try CaptureTestFiles.folder(), b = try CaptureTestFiles.folder()
        for folder in [a, b] {
            let recording = Self.recording(in: folder)
            for event in Self.swipe(from: 0) { _ = try recording.handle(event) }
        }
        #expect(CaptureTestFiles.bytes("\(a)/g-1.pantrace") == CaptureTestFiles.bytes("\(b)/g-1.pantrace"))
    }
}

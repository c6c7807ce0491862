import Foundation
import PanTrace
import Synchronization
import Testing

@testable import PanCapture

/// A long log reports how far the import has read, for a progress bar.
struct ImportProgressTests {
    /// `gestures` swipes of 20 samples each, 10 ms apart: 22 lines a gesture with its header.
    static func swipes(_ gestures: Int) -> String {
        var text = "t_ms,x,y,phase\n"
        var t = 0
        for _ in 0..<gestures {
            for i in 0..<20 {
                text += "\(t),\(100 + i * 12),400,\(i == 0 ? "down" : "move")\n"
                t += 10
            }
            text += "\(t),\(100 + 20 * 12),400,up\n"
            t += 200
        }
        return text
    }

    @Test func offsetsRiseEveryIntervalOfLinesAndEndAtTheLogsSize() throws {
        let text = Self.swipes(2_000)  // 42,001 lines
        let path = try CaptureTestFiles.log(text)
        let seen = Mutex<[Int]>([])
        var configuration = PointerLogImporter.Configuration(format: .csv)
        configuration.progress = { offset in seen.withLock { $0.append(offset) } }
        let recording = GestureRecording(
            configuration: .init(recognizer: .init(), metadata: .init(id: "")),
            destination: RecordingDestination(folder: try CaptureTestFiles.folder(), stem: "s", skipsExistingNames: true))
        _ = try PointerLogImporter(configuration: configuration).record(logAt: path, into: recording)
        let offsets = seen.withLock { $0 }
        let lines = text.split(separator: "\n").count
        #expect(offsets.count == lines / PointerLogImporter.Configuration.progressInterval + 1)
        #expect(offsets == offsets.sorted())
        #expect(offsets.last == text.utf8.count, "the last call is at the end of the log")
    }

    @Test func withoutAProgressHandlerNothingIsCalled() throws {
        let path = try CaptureTestFiles.log(Self.swipes(3))
        let recording = GestureRecording(
            configuration: .init(recognizer: .init(), metadata: .init(id: "")),
            destination: RecordingDestination(folder: try CaptureTestFiles.folder(), stem: "s", skipsExistingNames: true))
        let summary = try PointerLogImporter(configuration: .init(format: .csv)).record(logAt: path, into: recording)
        #expect(summary.lines == 64)
    }
}

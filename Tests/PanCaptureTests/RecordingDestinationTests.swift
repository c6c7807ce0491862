import Foundation
import Testing

@testable import PanCapture

struct RecordingDestinationTests {
    @Test(arguments: [
        ("swipe", "swipe"), ("../../etc/passwd", "etc-passwd"), (".hidden", "hidden"), ("-rf", "rf"),
        ("a b/c", "a-b-c"), ("été", "t"), ("", "gesture"), ("...", "gesture"), ("ok_1.2-x", "ok_1.2-x")
    ])
    func namesAreSanitized(name: String, expected: String) {
        #expect(RecordingDestination.sanitized(name) == expected)
    }

    @Test func sanitizedNamesAreAtMost100Characters() {
        #expect(RecordingDestination.sanitized(String(repeating: "a", count: 300)).count == 100)
    }

    @Test(arguments: [
        ("out", "log.csv", "out-2.pantrace"),
        ("runs/swipe.pantrace", "log.csv", "runs/swipe-2.pantrace"),
        ("runs/", "/tmp/my log.csv", "runs/my-log-2.pantrace"),
        ("/abs/x y", "log.csv", "/abs/x-y-2.pantrace")
    ])
    func outputNamesAStemOrAFolder(output: String, log: String, expected: String) {
        #expect(RecordingDestination(output: output, logPath: log).path(forGesture: 2) == expected)
    }

    @Test func anExistingFolderIsAFolderEvenWithoutASlash() throws {
        let folder = try CaptureTestFiles.folder()
        #expect(RecordingDestination(output: folder, logPath: "a/b/touch.jsonl").path(forGesture: 1) == "\(folder)/touch-1.pantrace")
    }
}

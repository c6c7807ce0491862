import TestSupport
import Foundation
import PanTrace

/// Real temporary files for the capture tests.
enum CaptureTestFiles {
    /// A new empty folder under the system's temporary directory.
    static func folder() throws -> String {
        try TemporaryFolder.path("pancapture")
    }

    /// Writes `text` to `name` in a new folder and returns its path.
    static func log(_ text: String, name: String = "log.csv", in folder: String? = nil) throws -> String {
        let path = "\(try folder ?? Self.folder())/\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func read(_ path: String) throws -> TraceFile { try TraceReader().read(contentsOf: path) }
}

extension CaptureTestFiles {
    /// Nanoseconds as exact decimal milliseconds (`235089067.457000`).
    static func milliseconds(_ nanoseconds: Int64) -> String {
        let (whole, fraction) = nanoseconds.magnitude.quotientAndRemainder(dividingBy: 1_000_000)
        let digits = String(fraction)
        return (nanoseconds < 0 ? "-" : "") + "\(whole).\(String(repeating: "0", count: 6 - digits.count))\(digits)"
    }

    /// A `t_ms,x,y,phase` log of one pointer's samples, positions printed to round-trip exactly.
    static func csv(_ samples: [VelocitySample]) -> String {
        var text = "t_ms,x,y,phase\n"
        for sample in samples {
            text += "\(milliseconds(sample.nanoseconds)),\(sample.x),\(sample.y),\(sample.phase.rawValue)\n"
        }
        return text
    }
}

import PanCapture

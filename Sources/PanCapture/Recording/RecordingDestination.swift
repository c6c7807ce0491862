internal import Foundation
public import PanTrace

/// Where a recording session writes its gestures: `FOLDER/STEM-1.pantrace`,
/// `FOLDER/STEM-2.pantrace`, …
///
/// The stem is sanitized (``sanitized(_:)``); the folder is used as given. Files are created
/// exclusively, so an existing file is never overwritten: by default that is an error, and
/// with ``skipsExistingNames`` the next free number is taken instead (an app that records
/// into the same folder on every launch).
public struct RecordingDestination: Hashable, Sendable {
    /// The folder the files go into.
    public var folder: String
    /// The file-name stem, already sanitized.
    public private(set) var stem: String
    /// Whether an existing file makes the recorder take the next number rather than fail.
    public var skipsExistingNames: Bool

    /// Creates a destination; `stem` is sanitized.
    public init(folder: String, stem: String, skipsExistingNames: Bool = false) {
        self.folder = folder.isEmpty ? "." : folder
        self.stem = Self.sanitized(stem)
        self.skipsExistingNames = skipsExistingNames
    }

    /// The destination `pantrace record -o OUTPUT` writes to for the log at `logPath`.
    ///
    /// An `output` that is an existing folder or ends in `/` names the folder, and the stem
    /// is the log's file name without its extension. Anything else is a file stem: its folder
    /// part is the folder and a trailing `.pantrace` is dropped (`-o swipe.pantrace` writes
    /// `swipe-1.pantrace`, `swipe-2.pantrace`, …).
    public init(output: String, logPath: String) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
        if output.hasSuffix("/") || (exists && isDirectory.boolValue) {
            var name = Self.lastComponent(of: logPath)
            if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
            self.init(folder: output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output, stem: name)
        } else {
            var name = Self.lastComponent(of: output)
            if name.hasSuffix(".pantrace") { name.removeLast(".pantrace".count) }
            let folder = output.contains("/") ? String(output[..<output.lastIndex(of: "/")!]) : "."
            self.init(folder: folder.isEmpty ? "/" : folder, stem: name)
        }
    }

    /// The file gesture `number` (1-based) goes to.
    public func path(forGesture number: Int) -> String {
        let name = "\(stem)-\(number).pantrace"
        return folder == "." ? name : folder.hasSuffix("/") ? folder + name : "\(folder)/\(name)"
    }

    /// `name` reduced to a safe file-name stem: letters, digits, `.`, `_` and `-` kept, every
    /// other run of characters replaced by one `-`, no leading or trailing `.` or `-` (no
    /// hidden files, no options), at most 100 characters; `gesture` if nothing is left.
    public static func sanitized(_ name: String) -> String {
        var out = ""
        var lastWasDash = false
        for scalar in name.unicodeScalars {
            let isSafe =
                scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_"
                    || scalar == "-")
            if isSafe {
                out.unicodeScalars.append(scalar)
                lastWasDash = scalar == "-"
            } else if !lastWasDash {
                out.append("-")
                lastWasDash = true
            }
        }
        while let first = out.first, first == "." || first == "-" { out.removeFirst() }
        while let last = out.last, last == "." || last == "-" { out.removeLast() }
        if out.count > 100 { out = String(out.prefix(100)) }
        return out.isEmpty ? "gesture" : out
    }

    static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/") { return String(trimmed[trimmed.index(after: slash)...]) }
        return String(trimmed)
    }

    /// Creates the file of gesture `number` (then advances `number`) with `metadata` whose id
    /// is the file's stem. With ``skipsExistingNames``, numbers whose file exists are passed
    /// over; the exclusive create still guarantees nothing is overwritten, and the bound
    /// stops a full folder from turning into endless attempts.
    /// Writes a finished trace as the next free `STEM-N.pantrace` (its metadata's id set to
    /// `STEM-N`), whole or not at all; returns the path.
    public func writeNext(_ trace: Trace) throws(CaptureError) -> String {
        var number = 1
        while true {
            let current = number
            number += 1
            let path = path(forGesture: current)
            if skipsExistingNames, current < 100_000, FileManager.default.fileExists(atPath: path) { continue }
            var named = trace
            named.metadata.id = "\(stem)-\(current)"
            do {
                try TraceEncoder.write(named, to: path)
                return path
            } catch {
                throw CaptureError(.recording(error))
            }
        }
    }

    func createNextFile(
        number: inout Int, metadata: TraceMetadata, grid: SampleGrid, configuration: TraceWriter.Configuration
    ) throws(CaptureError) -> GestureFile {
        while true {
            let current = number
            number += 1
            let path = path(forGesture: current)
            if skipsExistingNames, current < 100_000, FileManager.default.fileExists(atPath: path) { continue }
            var metadata = metadata
            metadata.id = "\(stem)-\(current)"
            do {
                return try GestureFile(path: path, metadata: metadata, grid: grid, configuration: configuration)
            } catch {
                throw CaptureError(.recording(error))
            }
        }
    }
}

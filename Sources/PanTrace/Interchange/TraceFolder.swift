internal import Foundation

/// The trace files under a folder, by one set of rules for every command and for `serve`.
///
/// Walks the whole tree; lists files whose extension names one of `formats`; skips hidden
/// names at any depth (a writer's `.NAME.partial-PID` among them), folders, and anything a
/// symlink takes outside the folder; sorts by path; stops after `limit` files and says so.
/// Nothing is opened: whether a file is regular and readable is the reader's business
/// (``TraceReader/read(contentsOf:)`` refuses FIFOs and devices).
public enum TraceFolder {
    /// What a walk found.
    public struct Listing: Sendable, Equatable {
        /// Paths relative to the folder, sorted.
        public var files: [String]
        /// Problems, one line each (a folder that cannot be listed, the limit reached).
        public var problems: [String]
    }

    /// The most files one walk lists.
    public static let defaultLimit = 100_000

    /// Lists the trace files under `folder`.
    public static func list(_ folder: String, formats: Set<InterchangeFormat>, limit: Int = defaultLimit) -> Listing {
        var listing = Listing(files: [], problems: [])
        let manager = FileManager.default
        let names: [String]
        do {
            names = try manager.subpathsOfDirectory(atPath: folder)
        } catch {
            listing.problems.append("\(folder): cannot list the folder: \(error.localizedDescription)")
            return listing
        }
        let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names.sorted() {
            guard !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            guard let format = try? InterchangeFormat(path: name), formats.contains(format) else { continue }  // not a trace file: not a problem
            let path = base + name
            var isFolder: ObjCBool = false
            // A dangling symlink stays listed: reading it reports the problem, nothing vanishes.
            if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { continue }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard resolved.hasPrefix(root + "/") else { continue }
            guard listing.files.count < limit else {
                listing.problems.append("\(folder): more than \(limit) trace files; the rest are left out")
                break
            }
            listing.files.append(name)
        }
        return listing
    }
}

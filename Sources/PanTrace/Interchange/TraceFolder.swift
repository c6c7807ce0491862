/// The trace files under a folder, by one set of rules for every command and for `serve`.
///
/// Walks the whole tree; lists files whose extension names one of `formats` (and, when asked
/// with `corpora`, corpus files, `.pantraces`, docs/FORMAT.md §11); skips hidden
/// names at any depth (a writer's `.NAME.partial-PID` among them, and nothing under a hidden
/// folder is read), folders, and anything a symlink takes outside the folder; sorts by path.
/// More than `limit` files is not cut short quietly: the walk stops, lists none, and says so
/// (``Listing/limitReached``), and the caller reports it as an error naming its flag. A corpus
/// file counts as one file, however many gestures it holds.
///
/// The walk reads each folder once with `readdir`, taking every entry's kind from the entry
/// itself; only symlinks are resolved, one `realpath` each, against the folder's own path,
/// resolved once. A symlink to a file inside the folder is listed under its own name; one to a
/// folder is not followed; a dangling one stays listed, so that reading it reports the problem
/// and nothing vanishes. A folder named through a symlink is walked. Nothing is opened: whether
/// a file is regular and readable is the reader's business (``TraceReader/read(contentsOf:)``
/// refuses FIFOs and devices).
public enum TraceFolder {
    /// What a walk found.
    public struct Listing: Sendable, Equatable {
        /// Paths relative to the folder, sorted.
        public var files: [String]
        /// Problems, one line each (a folder that cannot be listed, the limit reached).
        public var problems: [String]
        /// The folder holds more than the limit's trace files: ``files`` is empty and
        /// ``problems`` says so.
        public var limitReached = false

        /// Creates a listing.
        public init(files: [String], problems: [String], limitReached: Bool = false) {
            self.files = files
            self.problems = problems
            self.limitReached = limitReached
        }
    }

    /// The most files one walk lists unless a caller says otherwise (the CLI's `--max-files`).
    public static let defaultLimit = 100_000

    /// Lists the trace files under `folder`; with `corpora`, the corpus files (`.pantraces`,
    /// any case) too, in the same sorted list (``GestureCorpus/isCorpus(path:)`` tells them apart).
    public static func list(_ folder: String, formats: Set<InterchangeFormat>, corpora: Bool = false, limit: Int = defaultLimit) -> Listing {
        var listing = Listing(files: [], problems: [])
        guard let root = DirectoryEntries.resolve(folder), root.isFolder else {
            listing.problems.append("\(folder): cannot list the folder: not a folder, or it cannot be reached")
            return listing
        }
        let inside = root.path == "/" ? "/" : root.path + "/"
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        // Folders still to read, as paths relative to `folder` ("" for the folder itself).
        var pending = [""]
        var found: [String] = []
        walk: while let relative = pending.popLast() {
            let entries: [DirectoryEntries.Entry]
            switch DirectoryEntries.list(relative.isEmpty ? root.path : root.path + "/" + relative) {
            case .success(let list): entries = list
            case .failure(let error):
                let named = relative.isEmpty ? folder : base + relative
                listing.problems.append("\(named): cannot list the folder: \(error.text)")
                continue
            }
            for entry in entries where !entry.name.hasPrefix(".") {
                let name = relative.isEmpty ? entry.name : relative + "/" + entry.name
                if entry.kind == .folder {
                    pending.append(name)
                    continue
                }
                // Not a trace file: not a problem.
                if corpora && GestureCorpus.isCorpus(path: entry.name) {
                    // listed
                } else {
                    guard let format = try? InterchangeFormat(path: entry.name), formats.contains(format) else { continue }
                }
                if entry.kind == .symlink, let target = DirectoryEntries.resolve(root.path + "/" + name) {
                    // A dangling symlink (no target) stays listed: reading it reports the problem.
                    guard !target.isFolder, target.path.hasPrefix(inside) else { continue }
                }
                guard found.count < limit else {
                    listing.problems.append("\(folder): more than \(limit) trace files")
                    listing.limitReached = true
                    break walk
                }
                found.append(name)
            }
        }
        if !listing.limitReached { listing.files = found.sorted() }
        return listing
    }
}

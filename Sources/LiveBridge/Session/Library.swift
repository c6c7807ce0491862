internal import Foundation
internal import PanTrace

/// The recordings under the recordings folder, by their path relative to it.
///
/// Ids on the wire are relative paths, and a requested id is only ever looked up in this
/// list, never joined to the folder, so a client cannot name a file outside it.
struct Library {
    let folder: String
    private(set) var recordings: [RecordingInfo] = []
    /// Files that could not be read, with why (reported once at start).
    private(set) var problems: [String] = []

    init(folder: String) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
    }

    /// Reads every `.pantrace` file under the folder (not following symlinks out of it).
    mutating func rescan() {
        var found: [RecordingInfo] = []
        var problems: [String] = []
        let reader = TraceReader()
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var paths: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".pantrace") { paths.append(relative) }
        }
        for relative in paths.sorted() {
            let path = folder + "/" + relative
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard resolved.hasPrefix(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path + "/") else { continue }
            do {
                let file = try reader.read(contentsOf: path)
                let m = file.trace.metadata
                found.append(RecordingInfo(
                    id: relative, name: m.id, intent: m.intent, source: m.source, samples: file.trace.samples.count,
                    duration_s: file.trace.duration, tags: m.tags, screen: m.screen, edge: m.edge, complete: file.isComplete))
            } catch {
                problems.append("\(error)")
            }
        }
        recordings = found
        self.problems = problems
    }

    func contains(_ id: String) -> Bool { recordings.contains { $0.id == id } }

    /// The trace of a listed recording.
    func trace(_ id: String) throws(PanTraceError) -> Trace {
        try TraceReader().read(contentsOf: folder + "/" + id).trace
    }
}

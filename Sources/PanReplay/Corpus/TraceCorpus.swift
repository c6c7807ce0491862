package import PanTrace
internal import Foundation

/// The recordings a sweep runs on: every trace that could be read, with the file it came
/// from, and every file that could not (reported and skipped, never fatal).
package struct TraceCorpus: Sendable {
    /// A trace and where it came from.
    package struct Entry: Sendable, Hashable {
        /// The file (or, for traces made in memory, the trace's identifier).
        package var file: String
        /// The trace.
        package var trace: Trace

        /// Creates an entry.
        package init(file: String, trace: Trace) {
            self.file = file
            self.trace = trace
        }
    }

    /// A file that was skipped and why.
    package struct Failure: Sendable, Hashable, Codable {
        /// The path.
        package var file: String
        /// One line: what went wrong.
        package var reason: String

        /// Creates a failure record.
        package init(file: String, reason: String) {
            self.file = file
            self.reason = reason
        }
    }

    /// The traces, in the order found (folders are listed in sorted path order).
    package var entries: [Entry]
    /// The files that could not be read.
    package var failures: [Failure]
    /// A folder that held more trace files than the limit: loading stopped there, and the
    /// caller reports it as an error (the CLI's `--max-files`).
    package var folderOverLimit: String?

    /// A corpus of traces made in memory (e.g. by `GestureSynthesizer`), named by identifier.
    package init(traces: [Trace]) {
        self.entries = traces.map { Entry(file: $0.metadata.id, trace: $0) }
        self.failures = []
    }

    /// Creates a corpus from entries and failures.
    package init(entries: [Entry], failures: [Failure] = []) {
        self.entries = entries
        self.failures = failures
    }

    /// Reads every trace under `paths`.
    ///
    /// A folder is searched recursively for `.pantrace`, `.jsonl` and `.csv` files and corpus
    /// files, `.pantraces`, each standing for its gestures (hidden names and other files, such
    /// as a README, are passed over); a file is read whatever its name. A file that is missing, unreadable or damaged is recorded in ``failures`` and the
    /// rest are still read.
    ///
    /// - Parameters:
    ///   - paths: files and folders, as given on the command line.
    ///   - reader: how strict to be with damaged `.pantrace` files.
    ///   - maximumFiles: the most trace files one folder may hold; past it loading stops and
    ///     ``folderOverLimit`` names the folder.
    package static func load(paths: [String], reader: TraceReader = TraceReader(), maximumFiles: Int = TraceFolder.defaultLimit) -> TraceCorpus {
        var corpus = TraceCorpus(entries: [])
        corpus.folderOverLimit = forEach(paths: paths, reader: reader, maximumFiles: maximumFiles) { item in
            switch item {
            case .entry(let entry): corpus.entries.append(entry)
            case .failure(let failure): corpus.failures.append(failure)
            }
        }
        return corpus
    }

    /// A trace read, or a file that could not be.
    package enum Item {
        case entry(Entry)
        case failure(Failure)
    }

    /// Reads every trace under `paths` as ``load(paths:reader:maximumFiles:)`` does, handing
    /// each trace or failure to `body` in order and keeping none. Returns the folder that held
    /// more than `maximumFiles` trace files (reading stopped there), or nil.
    package static func forEach(
        paths: [String], reader: TraceReader = TraceReader(), maximumFiles: Int = TraceFolder.defaultLimit,
        _ body: (Item) -> Void
    ) -> String? {
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                body(.failure(Failure(file: path, reason: "\(path): no such file or folder")))
                continue
            }
            var files = [path]
            if isFolder.boolValue {
                // A corpus file inside stands for its gestures, as when named (one file for the limit).
                let listing = TraceFolder.list(path, formats: [.pantrace, .jsonl, .csv], corpora: true, limit: maximumFiles)
                if listing.limitReached { return path }
                for problem in listing.problems { body(.failure(Failure(file: path, reason: problem))) }
                let base = path.hasSuffix("/") ? path : path + "/"
                files = listing.files.map { base + $0 }
            }
            for file in files {
                // A corpus file (.pantraces) stands for each of its gestures, `corpus.pantraces#name`.
                TraceFiles.readEach(file, reader: reader) { label, outcome in
                    switch outcome {
                    case .success(let contents): body(.entry(Entry(file: label, trace: contents.trace)))
                    case .failure(let error): body(.failure(Failure(file: label, reason: error.description)))
                    }
                }
            }
        }
        return nil
    }
}

internal import Foundation

/// A folder of `.pantrace` files into a corpus file and back, byte for byte
/// (docs/FORMAT.md §11).
public enum CorpusFolder {
    /// What a conversion did.
    public struct Report: Sendable {
        /// Gestures written (into the corpus, or out as files).
        public var gestures = 0
        /// Of those, how many were packed (re-encoded on the way out) and kept verbatim.
        public var packed = 0, verbatim = 0, live = 0
        /// Problems, one line each: files or gestures left out, damage found. Anything here
        /// means the conversion did less than asked.
        public var problems: [PanTraceError] = []
        /// Files or gestures written as they are although they do not read cleanly (kept so
        /// that nothing is lost), each with the reason.
        public var warnings: [PanTraceError] = []

        mutating func count(_ storage: CorpusGesture.Storage) {
            gestures += 1
            switch storage {
            case .packed: packed += 1
            case .verbatim: verbatim += 1
            case .live: live += 1
            }
        }
    }

    /// Puts every `.pantrace` file under `folder` (hidden names skipped, sorted by path)
    /// into a new corpus at `corpus`, each named by its path in the folder without
    /// `.pantrace`. The corpus is named only once written whole. A file that cannot be read
    /// is a problem and left out; one that reads with a warning is kept verbatim and warned about.
    /// A corpus file (`.pantraces`) in the folder is not nested into the new corpus (its
    /// gestures would come back out as files, not as that corpus): it is a problem naming it,
    /// left out.
    /// - Throws: ``PanTraceError`` when the corpus cannot be created or written.
    public static func pack(folder: String, into corpus: String, reader: TraceReader = TraceReader()) throws(PanTraceError) -> Report {
        var report = Report()
        let listing = TraceFolder.list(folder, formats: [.pantrace], corpora: true)
        report.problems += listing.problems.map { PanTraceError(.io($0)) }
        let writer = try CorpusWriter(creatingFileAt: corpus, publication: .atFinish)
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        for relative in listing.files {
            let path = base + relative
            if GestureCorpus.isCorpus(path: relative) {
                report.problems.append(
                    PanTraceError(
                        .unsupportedFormat(
                            "left out: a corpus inside the folder is not nested into the new one (convert it into a folder of its own first)"),
                        file: path))
                continue
            }
            guard relative.hasSuffix(".pantrace") else {
                report.problems.append(
                    PanTraceError(.unsupportedFormat("left out: a corpus keeps files whose names end in .pantrace (lower case)"), file: path))
                continue
            }
            let name = String(relative.dropLast(".pantrace".count))
            do throws(PanTraceError) {
                let bytes = try FileDescriptor.readAll(path, limit: reader.configuration.maximumFileBytes)
                let storage = try writer.add(fileBytes: bytes, name: name)
                if storage == .verbatim {
                    // Kept as it is; say so when it is not a clean file.
                    do throws(PanTraceError) {
                        let contents = try reader.decode(bytes, name: CorpusFormat.baseName(name))
                        report.warnings += contents.warnings.map { $0.in(file: path) }
                    } catch {
                        report.warnings.append(error.in(file: path))
                    }
                }
                report.count(storage)
            } catch {
                report.problems.append(error.file == nil ? error.in(file: path) : error)
            }
        }
        do {
            try writer.finish()
        } catch {
            throw error.in(file: corpus)
        }
        return report
    }

    /// Writes every gesture of `corpus` as a `.pantrace` file under `folder` (created, with
    /// the subfolders names need; a file that exists is never replaced): verbatim and live
    /// gestures as the bytes the corpus holds, packed ones encoded as the archive writer does.
    /// A gesture that cannot be written is a problem and left out; the rest are still written.
    /// - Throws: ``PanTraceError`` when the corpus cannot be read at all or the folder made.
    public static func unpack(corpus: String, into folder: String, reader: TraceReader = TraceReader()) throws(PanTraceError) -> Report {
        var report = Report()
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw PanTraceError(.io("cannot create the folder: \(error.localizedDescription)"), file: folder)
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let encoder = TraceEncoder()
        let bytes = try FileDescriptor.readAll(corpus, limit: reader.configuration.maximumFileBytes)
        var samples: [PanSample] = []
        let problems = try CorpusReader(reader: reader).decode(bytes, file: corpus, samples: &samples) { gesture, outcome, samples in
            let path = base + gesture.name + ".pantrace"
            do throws(PanTraceError) {
                let output: [UInt8]
                if let range = gesture.fileRange {
                    output = Array(bytes[range])
                    if case .failure(let error) = outcome { report.warnings.append(error) }
                    if case .success(let file) = outcome { report.warnings += file.warnings }
                } else {
                    var file = try outcome.get()
                    file.trace.samples = samples
                    output = try encoder.encode(file.trace, name: CorpusFormat.baseName(gesture.name))
                }
                if gesture.name.contains("/") {
                    let parent = String(path[..<path.lastIndex(of: "/")!])
                    do {
                        try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
                    } catch {
                        throw PanTraceError(.io("cannot create the folder: \(error.localizedDescription)"), file: parent)
                    }
                }
                try FileDescriptor.writeNew(path, output)
                report.count(gesture.storage)
            } catch {
                report.problems.append(error)
            }
        }
        report.problems += problems
        return report
    }
}

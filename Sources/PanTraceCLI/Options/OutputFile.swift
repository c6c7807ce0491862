internal import Foundation
internal import PanTrace

/// How every command writes a report file it was named (`tune --csv F`, `--svg F`): never
/// over an existing file unless `--force` asked for it, as `gzip` refuses to overwrite
/// without `-f`.
enum OutputFile {
    /// Fails when `path` exists and `replacing` is false: called before the work, so a sweep
    /// is not run only to be refused at the end.
    static func checkWritable(_ path: String, flag: String, replacing: Bool) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        if isFolder.boolValue { throw CLIFailure("\(flag) \(path): is a folder, not a file") }
        if !replacing { throw CLIFailure("\(flag) \(path): the file exists; add --force to replace it") }
    }

    /// Writes `text` to `path`, whole or not at all. Without `replacing`, the file gets its name
    /// with `link(2)`, which fails if the name exists (so one that appeared meanwhile is not
    /// replaced either); with it, a temporary file beside it is renamed over it.
    static func write(_ text: String, to path: String, flag: String, replacing: Bool) throws {
        if replacing {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CLIFailure("\(flag) \(path): cannot write: \(error.localizedDescription)")
            }
            return
        }
        do throws(PanTraceError) {
            try FileDescriptor.writeNew(path, Array(text.utf8))
        } catch {
            guard error.isAlreadyExists else { throw CLIFailure("\(flag) \(error)") }
            throw CLIFailure("\(flag) \(path): the file exists; add --force to replace it")
        }
    }
}

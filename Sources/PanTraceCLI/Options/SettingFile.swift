internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// `--setting FILE`: a setting file as `tune --save-setting` writes it (docs/TUNE.md, "A setting
/// file"), read where it enters, with one line naming the file and the problem.
enum SettingFile {
    /// The largest setting file read: a preset's parameters take well under 2 KiB.
    static let byteLimit = 64 * 1024

    /// The setting in `path`, with `assignments` (`--set KEY=VALUE`, as `replay` takes them)
    /// over it.
    ///
    /// - Throws: ``CLIFailure`` naming the file: it cannot be read, is larger than
    ///   ``byteLimit``, is not JSON, or names an unknown preset, key or velocity source, or a
    ///   value out of range.
    static func read(_ path: String, assignments: [String] = []) throws -> ReplayParameters {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= byteLimit else {
                throw CLIFailure("--setting \(path): \(size) bytes; a setting file is at most \(byteLimit) (write one with tune --save-setting)")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure("--setting \(path): cannot read: \(error.localizedDescription)")
        }
        let setting: ReplayParameters
        do {
            setting = try JSONDecoder().decode(ReplayParameters.self, from: data)
        } catch {
            throw CLIFailure("--setting \(path): not a setting: \(DecodingProblem.describe(error))")
        }
        guard !assignments.isEmpty else { return setting }
        var values = setting.values
        for text in assignments {
            let (key, value) = try ReplayParameters.assignment(parsing: text)
            values[key] = value
        }
        return try ReplayParameters(presetNamed: setting.preset.name.rawValue, overrides: values)
    }
}

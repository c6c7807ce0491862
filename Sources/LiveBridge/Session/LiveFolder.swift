internal import Foundation

/// The `live/` folder of the recordings folder, where the record pad writes.
enum LiveFolder {
    /// The most recordings `live/` may hold before live sources begin no more gestures: a tenth
    /// of what the library lists (`serve --max-files`), at most 10,000, so the folder's growth
    /// alone never takes the library past its limit (past it, a listing shows none).
    static func budget(maximumRecordings: Int) -> Int { max(1, min(10_000, maximumRecordings / 10)) }

    /// Whether library id `file` is named as the server names a device's unsaved gesture, and
    /// only so: `live/unsaved-<platform>-<source>-<14 digits>-<n>.pantrace`, directly in
    /// `live/` (not in a folder named like one). `keep` and `drop` touch no other file.
    static func isUnsavedDeviceName(_ file: String, platforms: [String]) -> Bool {
        guard file.hasPrefix("live/unsaved-"), file.hasSuffix(".pantrace") else { return false }
        let stem = file.dropFirst("live/unsaved-".count).dropLast(".pantrace".count)
        guard !stem.contains("/") else { return false }
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, platforms.contains(String(parts[0])), parts[2].utf8.count == 14 else { return false }
        return parts.dropFirst().allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    }

    /// Why the live folder cannot be used, in one line.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates `live` when missing; refuses one that is a symbolic link or resolves outside
    /// `root` (a save would write wherever it points), or that is not a folder.
    static func prepare(_ live: String, inside root: String) throws(Problem) {
        let manager = FileManager.default
        if let type = try? manager.attributesOfItem(atPath: live)[.type] as? FileAttributeType {
            guard type != .typeSymbolicLink else {
                throw Problem(
                    description: "\(live) is a symbolic link; live recordings are only written to a real folder inside the recordings folder")
            }
            guard type == .typeDirectory else { throw Problem(description: "\(live) exists and is not a folder") }
        } else {
            do {
                try manager.createDirectory(atPath: live, withIntermediateDirectories: false)
            } catch {
                throw Problem(description: "cannot create \(live): \(error.localizedDescription)")
            }
        }
        let resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: live).resolvingSymlinksInPath().path
        guard resolved == resolvedRoot + "/live" else {
            throw Problem(description: "\(live) resolves to \(resolved), outside the recordings folder; live recordings are not written there")
        }
    }
}

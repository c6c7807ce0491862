import Foundation
import PanTrace
import Testing
import TransitionEngine

/// The maps of the house stay true: every target under `Sources/` is in `Sources/README.md`'s
/// table, every part of the bridge it names has its file, and every viewer module is in
/// `web/README.md`.
struct SourceMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
    }

    @Test func everyTargetIsOnTheMap() throws {
        let map = try Self.text("Sources/README.md")
        let targets = try Self.entries("Sources").filter { !$0.contains(".") }
        #expect(targets.count >= 10)
        let missing = targets.filter { !map.contains("| `\($0)`") && !map.contains(", `\($0)` |") }
        #expect(missing.isEmpty, "targets missing from Sources/README.md: \(missing)")
    }

    @Test func everyFolderOfATargetIsOnTheMap() throws {
        let map = try Self.text("Sources/README.md")
        var missing: [String] = []
        for target in try Self.entries("Sources").filter({ !$0.contains(".") }) {
            var isFolder: ObjCBool = false
            for folder in try Self.entries("Sources/" + target)
            where FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/\(target)/\(folder)").path, isDirectory: &isFolder)
                && isFolder.boolValue
            {
                // Named as `Folder/` in the target's row, or as `Target/Folder` anywhere.
                if !map.contains("`\(folder)/") && !map.contains("\(target)/\(folder)") { missing.append("\(target)/\(folder)") }
            }
        }
        #expect(missing.isEmpty, "folders missing from Sources/README.md: \(missing)")
    }

    @Test func everyFileTheMapNamesExists() throws {
        let map = try Self.text("Sources/README.md")
        // Paths the bridge's table names, as `Session/…swift`.
        let named = map.split(separator: "`").map(String.init).filter { $0.hasPrefix("Session/") && $0.hasSuffix(".swift") && !$0.contains("*") }
        #expect(named.count >= 8)
        for path in named {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/LiveBridge/" + path).path), "\(path)")
        }
    }

    @Test func everyViewerModuleIsOnItsMap() throws {
        let map = try Self.text("web/README.md")
        let modules = try Self.entries("web").filter { $0.hasSuffix(".mjs") }
        let missing = modules.filter { !map.contains("`\($0)`") }
        #expect(missing.isEmpty, "modules missing from web/README.md: \(missing)")
    }

    /// One spelling at every edge: the viewer's list of velocity sources is the model's, and
    /// every preset's expected estimator (the engine names it by its spelling) is one of them.
    @Test func velocitySourcesAreSpelledOnceEverywhere() throws {
        let protocolModule = try Self.text("web/protocol.mjs")
        let listed = "export const VELOCITY_SOURCES = [" + VelocitySource.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + "];"
        #expect(protocolModule.contains(listed), "web/protocol.mjs must list \(VelocitySource.choices)")
        for name in PresetName.allCases {
            #expect(VelocitySource(rawValue: name.velocityEstimator) != nil, "\(name.rawValue): \(name.velocityEstimator)")
        }
    }
}

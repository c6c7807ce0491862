import Foundation
import Testing

/// Data that lives outside the repository and is never copied into it: other projects' own
/// test vectors (`testdata/`) and real touch captures (`realdata/`).
///
/// One variable says where: **`PANTRACE_SHARED`**, the path of the folder holding them; when
/// unset, `../shared` beside the clone. When the folder is absent the tests that need it are
/// skipped, each with a line saying what was skipped and how to provide it (README, "Tests").
enum SharedData {
    static let variable = "PANTRACE_SHARED"

    /// The folder: `$PANTRACE_SHARED`, else `../shared` next to the repository.
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // This file is <repo>/Tests/PanCaptureTests/SharedData.swift.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    /// `relative` under the folder, if it is there.
    static func folder(_ relative: String) -> URL? {
        let url = root.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : nil
    }

    static let velocityVectors = "testdata/velocity"
    static let realCaptures = "realdata"

    /// A trait that skips a test when `relative` is missing, saying how to provide it.
    static func needs(_ relative: String) -> ConditionTrait {
        .enabled(
            if: folder(relative) != nil,
            "\(root.appendingPathComponent(relative).path) is absent: set \(variable) to the folder holding \(relative)/ to run this test")
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test when the platforms' velocity vectors are absent.
    static var needsVelocityVectors: Self { SharedData.needs(SharedData.velocityVectors) }
    /// Skips a test when the real touch captures are absent.
    static var needsRealCaptures: Self { SharedData.needs(SharedData.realCaptures) }
}

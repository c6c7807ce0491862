import Foundation
import Synchronization

/// A new, empty folder under the system's temporary directory, removed with everything in it
/// when the last reference to it goes (the end of the test that made it).
///
/// The one way Swift tests make folders: `let folder = try TemporaryFolder("library")`, then
/// `folder.path`, or ``withTemporaryFolder(_:_:)`` for a scope of its own.
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Creates the folder; `prefix` names what it is for, to tell leftovers apart.
    public init(_ prefix: String = "pantrace") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `path/relative`.
    public func appending(_ relative: String) -> String { path + "/" + relative }

    deinit {
        try? FileManager.default.removeItem(atPath: path)  // cleanup: a test's leftovers only
    }
}

/// Runs `body` with a new temporary folder and removes the folder afterwards, whatever `body` does.
public func withTemporaryFolder<Result>(_ prefix: String = "pantrace", _ body: (String) throws -> Result) throws -> Result {
    let folder = try TemporaryFolder(prefix)
    return try withExtendedLifetime(folder) { try body(folder.path) }
}

extension TemporaryFolder {
    /// Folders handed out as plain paths by fixture helpers, removed when the test process
    /// ends (a helper that returns a path cannot scope the folder to its caller).
    private static let kept = KeptFolders()

    /// A new folder whose path is handed out; it is removed when the test process ends.
    public static func path(_ prefix: String = "pantrace") throws -> String {
        let folder = try TemporaryFolder(prefix)
        kept.append(folder)
        return folder.path
    }
}

/// The folders ``TemporaryFolder/path(_:)`` keeps until the process ends.
private final class KeptFolders: @unchecked Sendable {
    /// `@unchecked Sendable`: `folders` is only touched under `lock`.
    private let lock = NSLock()
    private var folders: [TemporaryFolder] = []

    init() {
        atexit { KeptFoldersCleanup.run() }
    }

    func append(_ folder: TemporaryFolder) {
        lock.lock()
        folders.append(folder)
        lock.unlock()
        KeptFoldersCleanup.paths.withLock { $0.append(folder.path) }
    }
}

/// Removes kept folders at exit (an `atexit` handler cannot capture context).
private enum KeptFoldersCleanup {
    static let paths = Mutex<[String]>([])

    static func run() {
        for path in paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }  // cleanup at exit
    }
}

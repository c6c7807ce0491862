public import Foundation

/// Paths inside this repository, found from this file's own path.
public enum Repository {
    /// The repository's root.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// The bundled recordings (`recordings/` at the root).
    public static let recordings = root + "/recordings"
    /// The bundled recordings in the order a folder lists them: not `live/`, where `make serve`
    /// records on this machine.
    public static let bundled = [recordings + "/real", recordings + "/synthetic"]
}

/// A program outside the test process (a compiler, a player), run to the end.
public enum ExternalTool {
    /// `swiftc`: `$SWIFTC`, else the first on `PATH`, else beside `/usr/bin`; nil when none.
    public static let swiftCompiler: String? = find("swiftc", variable: "SWIFTC", fallback: "/usr/bin/swiftc")

    /// The first executable `name` on `PATH` (or the one `$variable` names); nil when none.
    public static func find(_ name: String, variable: String? = nil, fallback: String? = nil) -> String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates = variable.flatMap { environment[$0] }.map { [$0] } ?? []
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
        if let fallback { candidates.append(fallback) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` and `input` on its standard input; its exit status and
    /// its standard output followed by its standard error.
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe(), feed = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = feed
        try process.run()
        // Write the input from another thread so that a full output pipe cannot block it.
        let writer = Thread {
            feed.fileHandleForWriting.write(input ?? Data())
            try? feed.fileHandleForWriting.close()  // cleanup: the reader sees the end either way
        }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out + err, as: UTF8.self))
    }
}

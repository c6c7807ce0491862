import Foundation
import TestSupport

/// A real `pantrace serve` (the binary built beside the tests) on 127.0.0.1, with a recordings
/// folder and a token of the test's own. Its output is drained continuously (a full pipe would
/// stop it) and kept.
final class ServeProcess: Sendable {
    let port: Int
    let token: String
    let recordings: String
    private let process: Process
    private let output: Locked<String>
    /// Broadcast after each chunk of output: what `waitUntilPrinted` waits on.
    private let printedMore: NSCondition

    static var binary: URL {
        var url = Bundle.main.bundleURL
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("pantrace")
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the server and waits (at most 30 s) until it listens.
    init(recordings: String, state: String, token: String, port: Int = 0) throws {
        try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "\(port)", "--recordings", recordings, "--web", Self.root.appendingPathComponent("web").path,
            "--token", token
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let output = Locked("")
        let printedMore = NSCondition()
        let listening = DispatchSemaphore(value: 0)
        let signalled = Locked(false)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                listening.signal()
                return
            }
            let text = String(decoding: data, as: UTF8.self)
            let ready = output.withLock { all -> Bool in
                all += text
                return all.contains("open http")
            }
            printedMore.lock()
            printedMore.broadcast()
            printedMore.unlock()
            if ready,
                signalled.withLock({ old in
                    defer { old = true }; return !old
                })
            {
                listening.signal()
            }
        }
        try process.run()
        guard listening.wait(timeout: .now() + 30) == .success else {
            process.terminate()
            throw ServeError("pantrace serve did not start within 30 s: \(output.withLock { $0 })")
        }
        let text = output.withLock { $0 }
        guard let match = text.firstMatch(of: /open http:\/\/127\.0\.0\.1:(\d+)\//), let found = Int(match.1) else {
            process.terminate()
            throw ServeError("pantrace serve did not start: \(text)")
        }
        self.port = found
        self.token = token
        self.recordings = recordings
        self.process = process
        self.output = output
        self.printedMore = printedMore
    }

    var url: URL { URL(string: "ws://127.0.0.1:\(port)/live")! }

    /// Everything it printed so far.
    var printed: String { output.withLock { $0 } }

    /// Waits until the server has printed `text`, woken by each chunk it writes (at most
    /// `timeout` seconds): for what the server does after a socket closes, which nothing
    /// acknowledges to the client.
    func waitUntilPrinted(_ text: String, timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        printedMore.lock()
        defer { printedMore.unlock() }
        while !printed.contains(text) {
            if !printedMore.wait(until: deadline) { return printed.contains(text) }
        }
        return true
    }

    /// SIGTERM, and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// SIGSTOP: the process stops; its sockets stay open and unanswered.
    func pause() { kill(process.processIdentifier, SIGSTOP) }

    /// SIGCONT.
    func resume() { kill(process.processIdentifier, SIGCONT) }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            process.waitUntilExit()
        }
    }
}

struct ServeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

internal import ArgumentParser

/// `pantrace serve`: the live viewer (the libwebsockets bridge is not built yet).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the live viewer over HTTP and WebSocket (not built yet).")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Recordings folder.")
    var recordings = "recordings"

    @Option(help: "Folder of the web viewer.")
    var web = "web"

    func run() throws {
        StandardError.line(
            "pantrace serve: not built yet: the live bridge (libwebsockets) is a later milestone. "
                + "It will serve \(web)/ and stream replays of \(recordings)/ on http://\(host):\(port)/.")
        throw ExitCode(2)
    }
}

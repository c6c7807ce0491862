internal import Foundation

/// Maps request paths to files under the web folder, and nothing else.
///
/// The path is percent-decoded, must not contain `..` or hidden components, and the file it
/// names is resolved with every symlink followed: the result must be a regular file inside the
/// (resolved) web folder. libwebsockets' own file mount follows symlinks out of its origin
/// (lws 4.1.6 `lib/roles/http/server/server.c`, `lws_http_serve()`: its `S_IFLNK` test runs `fstat()` on the opened file, so it never fires), so files are resolved here and only then handed to lws.
struct StaticFiles: Sendable {
    /// The web folder with symlinks resolved.
    let root: String

    enum Resolution: Equatable {
        case file(path: String, mimeType: String)
        case notFound
        case forbidden
        case unsupportedType
        /// A FIFO, socket or device: serving it would block the service thread.
        case notRegularFile(path: String)
    }

    /// MIME types by extension; `.mjs` is listed because lws 4.1.6 does not know it.
    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "svg": "image/svg+xml", "json": "application/json", "png": "image/png",
        "ico": "image/x-icon", "txt": "text/plain; charset=utf-8", "woff2": "font/woff2", "map": "application/json",
        "webmanifest": "application/manifest+json"
    ]

    init(root: String) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
    }

    func resolve(_ requestPath: String) -> Resolution {
        let pathOnly = requestPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard let decoded = pathOnly.removingPercentEncoding, !decoded.contains("\0"), decoded.hasPrefix("/") else { return .notFound }
        var components = decoded.split(separator: "/").map(String.init)
        if components.contains(where: { $0 == ".." || $0.hasPrefix(".") }) { return .notFound }
        if decoded.hasSuffix("/") || components.isEmpty { components.append("index.html") }
        let candidate = ([root] + components).joined(separator: "/")
        let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) else { return .notFound }
        guard resolved == root || resolved.hasPrefix(root + "/") else { return .forbidden }
        if isDirectory.boolValue { return .notFound }
        // Only regular files reach lws, which opens and reads them on the service thread: a
        // FIFO there would stall every client. (Checked on the resolved path, so a symlink
        // to a FIFO is caught too.)
        guard (try? FileManager.default.attributesOfItem(atPath: resolved)[.type] as? FileAttributeType) == .typeRegular else {
            return .notRegularFile(path: resolved)
        }
        let ext = (components.last! as NSString).pathExtension.lowercased()
        guard let mime = Self.mimeTypes[ext] else { return .unsupportedType }
        return .file(path: resolved, mimeType: mime)
    }
}

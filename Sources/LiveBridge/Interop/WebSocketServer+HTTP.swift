internal import CLibWebSockets
internal import PanTrace

// HTTP: the viewer's files and status answers, each written whole from a buffer of our own.
extension WebSocketServer {
    /// The largest file served from the web folder (the viewer's files are tens of kB).
    static let maximumWebFileBytes = 4 << 20
    /// Room for the status line and headers, lws's security headers included.
    private static let headerSpace = 2048

    /// Answers one HTTP request.
    ///
    /// Files are read here, non-blocking and only when regular (``FileDescriptor/readAll``),
    /// and sent from our own buffer, not with `lws_serve_http_file`: lws 4.1.6 builds that
    /// answer in the buffer that still holds a pipelined second request (`pt->serv_buf`, see
    /// `lws_buflist_aware_read`), so the second request was lost or answered with a stray 403.
    /// Answering from our own buffer lets lws parse what follows, and a FIFO or device
    /// swapped in under a file's name can never block the service thread.
    func serveHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        guard policy.isAllowedHost(header(wsi, WSI_TOKEN_HOST)) else { return respond(wsi, status: 403) }
        switch configuration.files.resolve(path) {
        case .file(let file, let mimeType):
            do {
                return respond(wsi, status: 200, mimeType: mimeType, body: try FileDescriptor.readAll(file, limit: Self.maximumWebFileBytes))
            } catch {
                configuration.log("not serving \(LogText.escaped(path, limit: 120)): \(error)", kind: "not-serving")
                return respond(wsi, status: 404)
            }
        case .notFound: return respond(wsi, status: 404)
        case .forbidden: return respond(wsi, status: 403)
        case .unsupportedType: return respond(wsi, status: 415)
        case .notRegularFile(let file):
            configuration.log("not serving \(LogText.escaped(file, limit: 120)): not a regular file", kind: "not-serving")
            return respond(wsi, status: 404)
        }
    }

    /// Writes a complete response (headers and body in one `lws_write`) and ends the
    /// transaction, so lws goes on to any request pipelined behind this one.
    /// - Returns: the callback's return value: 0, or -1 to close the connection.
    func respond(_ wsi: OpaquePointer, status: UInt32, mimeType: String = "text/plain; charset=utf-8", body: [UInt8]? = nil) -> Int32 {
        let content = body ?? Array("\(status)\n".utf8)
        let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        let headroom = OutboundMessage.headroom
        var buffer = [UInt8](repeating: 0, count: headroom + Self.headerSpace + content.count)
        let type = Array(mimeType.utf8), cacheName = Array("cache-control:".utf8), cacheValue = Array("no-store".utf8)
        let written: Int32 = buffer.withUnsafeMutableBufferPointer { raw in
            let start = raw.baseAddress! + headroom
            let end = start + Self.headerSpace
            var p: UnsafeMutablePointer<UInt8>? = start
            guard lws_add_http_header_status(wsi, status, &p, end) == 0,
                lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, type, Int32(type.count), &p, end) == 0,
                lws_add_http_header_content_length(wsi, UInt64(content.count), &p, end) == 0,
                lws_add_http_header_by_name(wsi, cacheName, cacheValue, Int32(cacheValue.count), &p, end) == 0,
                lws_finalize_http_header(wsi, &p, end) == 0, let bodyStart = p
            else { return -1 }
            var length = bodyStart - start
            if !isHead, !content.isEmpty {
                content.withUnsafeBufferPointer { bodyStart.update(from: $0.baseAddress!, count: content.count) }
                length += content.count
            }
            return lws_write(wsi, start, length, LWS_WRITE_HTTP_FINAL)
        }
        guard written >= 0 else { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }
}

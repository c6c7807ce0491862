#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The one seam between the codec and the file system: an owned POSIX file descriptor.
///
/// Each instance owns one descriptor and closes it once (``close()`` is idempotent and
/// `deinit` calls it). `write(2)` is used directly, with no user-space buffer, so a chunk
/// that was written survives the process being killed the next instant.
final class FileDescriptor {
    private var fd: Int32
    let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    /// Creates `path` for appending; fails if it exists, so no recording is ever overwritten.
    static func createExclusive(_ path: String) throws(PanTraceError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let err = errno
            if err == EEXIST { throw PanTraceError(.alreadyExists, file: path) }
            throw PanTraceError(.io("cannot create: \(String(cString: strerror(err)))"), file: path)
        }
        return FileDescriptor(fd: fd, path: path)
    }

    /// Writes all of `bytes`, retrying short writes and EINTR.
    func writeAll(_ bytes: [UInt8]) throws(PanTraceError) {
        var written = 0
        let result: Int32 = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = posixWrite(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return 0
        }
        if result != 0 {
            throw PanTraceError(.io("write failed: \(String(cString: strerror(result)))"), file: path)
        }
    }

    /// Asks the kernel to put the file on stable storage (survives power loss, not just a crash).
    func synchronize() throws(PanTraceError) {
        if fsync(fd) != 0 {
            throw PanTraceError(.io("fsync failed: \(String(cString: strerror(errno)))"), file: path)
        }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        if fd >= 0 {
            _ = posixClose(fd)
            fd = -1
        }
    }

    /// Reads a whole file, refusing files larger than `limit` bytes.
    static func readAll(_ path: String, limit: Int) throws(PanTraceError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PanTraceError(.io("cannot open: \(String(cString: strerror(errno)))"), file: path)
        }
        defer { _ = posixClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw PanTraceError(.io("cannot stat: \(String(cString: strerror(errno)))"), file: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw PanTraceError(.io("is a directory"), file: path)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PanTraceError(.io("read failed: \(String(cString: strerror(errno)))"), file: path)
            }
            if n == 0 { break }
            if bytes.count + n > limit {
                throw PanTraceError(.io("larger than the \(limit)-byte file limit"), file: path)
            }
            bytes.append(contentsOf: buffer[..<n])
        }
        return bytes
    }
}

// File-scope forwarders: inside FileDescriptor, `close` and `write` would name its own methods.
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

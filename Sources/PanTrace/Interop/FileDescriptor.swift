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
///
/// A new file is created *unpublished*: on Linux an unnamed `O_TMPFILE` in the destination
/// folder, elsewhere a hidden `.NAME.partial-PID` beside it. ``publish()`` gives it its name
/// atomically with `link(2)`, which never replaces an existing file. A writer publishes
/// only once the file holds something worth keeping, so a process killed at any instant, or
/// a disk that fills, never leaves an empty or header-only recording under a real name.
package final class FileDescriptor {
    private var fd: Int32
    let path: String
    /// The hidden name of an unpublished file where `O_TMPFILE` is not available.
    private var partialPath: String?
    private(set) var isPublished: Bool

    private init(fd: Int32, path: String, partialPath: String? = nil, isPublished: Bool) {
        self.fd = fd
        self.path = path
        self.partialPath = partialPath
        self.isPublished = isPublished
    }

    deinit { close() }

    /// Creates an unnamed file that ``publish()`` will name `path`; fails at once if `path`
    /// exists, so no recording is ever overwritten.
    static func createUnpublished(_ path: String) throws(PanTraceError) -> FileDescriptor {
        var info = stat()
        if lstat(path, &info) == 0 { throw PanTraceError(.alreadyExists, file: path) }
        let folder = Self.folder(of: path)
        let fd = open(folder, Self.temporaryFileFlag | O_WRONLY | O_CLOEXEC, 0o644)
        if fd >= 0 { return FileDescriptor(fd: fd, path: path, isPublished: false) }
        let err = errno
        // Filesystems without O_TMPFILE answer EOPNOTSUPP (or EISDIR/EINVAL on old kernels).
        guard err == EOPNOTSUPP || err == EISDIR || err == EINVAL else {
            throw PanTraceError(.io("cannot create: \(Self.describe(err))"), file: path)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let partial = folder + "/." + name + ".partial-\(getpid())"
        let partialFD = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard partialFD >= 0 else { throw PanTraceError(.io("cannot create: \(Self.describe(errno))"), file: path) }
        return FileDescriptor(fd: partialFD, path: path, partialPath: partial, isPublished: false)
    }

    /// Gives an unpublished file its name, atomically; a file of that name appearing
    /// meanwhile is never replaced (``PanTraceError`` `alreadyExists`).
    func publish() throws(PanTraceError) {
        guard !isPublished else { return }
        let status: Int32
        if let partialPath {
            status = link(partialPath, path)
        } else {
            status = linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW)
        }
        guard status == 0 else {
            let err = errno
            if err == EEXIST { throw PanTraceError(.alreadyExists, file: path) }
            throw PanTraceError(.io("cannot name the file: \(Self.describe(err))"), file: path)
        }
        if let partialPath {
            _ = unlink(partialPath)  // the file lives on under its real name
            self.partialPath = nil
        }
        isPublished = true
    }

    /// Writes `bytes` as a new file at `path`, whole or not at all: a full disk or a crash
    /// leaves no file, and an existing file is never replaced.
    package static func writeNew(_ path: String, _ bytes: [UInt8]) throws(PanTraceError) {
        let file = try createUnpublished(path)
        defer { file.close() }
        try file.writeAll(bytes)
        try file.publish()
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
            throw PanTraceError(.io("write failed: \(Self.describe(result))"), file: path)
        }
    }

    /// Asks the kernel to put the file on stable storage (survives power loss, not just a crash).
    func synchronize() throws(PanTraceError) {
        if fsync(fd) != 0 {
            throw PanTraceError(.io("fsync failed: \(Self.describe(errno))"), file: path)
        }
    }

    /// Closes the descriptor; later calls do nothing. An unpublished file is gone with it.
    func close() {
        if fd >= 0 {
            _ = posixClose(fd)
            fd = -1
        }
        if let partialPath {
            _ = unlink(partialPath)  // never published: nothing under a real name refers to it
            self.partialPath = nil
        }
    }

    /// Reads a whole regular file, refusing anything else and files larger than `limit` bytes.
    ///
    /// The file is opened non-blocking and checked with `fstat` before a byte is read, so a
    /// FIFO, socket or device named like a recording is refused at once instead of blocking
    /// the reader, and an oversized file is refused from its size, without reading it.
    package static func readAll(_ path: String, limit: Int) throws(PanTraceError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path)
        defer { _ = posixClose(fd) }
        if size > limit {
            throw PanTraceError(.io("\(size) bytes, larger than the \(limit)-byte file limit"), file: path)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PanTraceError(.io("read failed: \(describe(errno))"), file: path)
            }
            if n == 0 { break }
            // The file may grow while it is read (a recording in progress): the limit holds.
            if bytes.count + n > limit {
                throw PanTraceError(.io("larger than the \(limit)-byte file limit"), file: path)
            }
            bytes.append(contentsOf: buffer[..<n])
        }
        return bytes
    }

    /// Opens the regular file at `path` for reading, non-blocking, and returns its descriptor
    /// (the caller closes it) and size. A FIFO, socket, device or folder is refused at once,
    /// before a byte is read.
    static func openRegularFile(_ path: String) throws(PanTraceError) -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            throw PanTraceError(.io("cannot open: \(describe(errno))"), file: path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let problem = describe(errno)
            _ = posixClose(fd)
            throw PanTraceError(.io("cannot stat: \(problem)"), file: path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (fd, Int(info.st_size))
        case S_IFDIR:
            _ = posixClose(fd)
            throw PanTraceError(.io("is a directory"), file: path)
        default:
            _ = posixClose(fd)
            throw PanTraceError(.io("not a regular file (a FIFO, socket or device); only regular files are read"), file: path)
        }
    }

    /// Reads `count` bytes of the open file `fd` from `offset` on, with `pread(2)`; fewer when
    /// the file ends sooner (it may shrink while read). `path` names the file in errors.
    static func readRange(_ fd: Int32, count: Int, at offset: Int, path: String?) throws(PanTraceError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PanTraceError(.io("read failed at byte \(offset + filled): \(describe(errno))"), file: path)
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Closes a descriptor ``openRegularFile(_:)`` opened.
    static func close(descriptor: Int32) { _ = posixClose(descriptor) }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func describe(_ err: Int32) -> String { String(cString: strerror(err)) }

    /// `O_TMPFILE`: Glibc defines it as `__O_TMPFILE | O_DIRECTORY`, a macro Swift does not
    /// import; 0o20000000 is its value on every Linux architecture Swift runs on.
    private static var temporaryFileFlag: Int32 {
        #if os(Linux)
            return 0o20000000 | O_DIRECTORY
        #else
            return O_DIRECTORY | O_EXCL  // no O_TMPFILE: open fails (EISDIR) and the hidden name is used
        #endif
    }
}

// File-scope forwarders: inside FileDescriptor, `close` and `write` would name its own methods.
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A file, pipe or standard input read as it arrives: each ``read(into:upTo:)`` is one
/// `read(2)`, so a line written into a pipe is handed on as soon as it is there, not when a
/// buffer fills (Foundation's `FileHandle.read(upToCount:)` waits for the whole count).
///
/// For the importers of `PanCapture` (`pantrace record --from -`). Owns its descriptor and
/// closes it once; standard input is never closed.
package final class InputStream {
    private var fd: Int32
    private let ownsDescriptor: Bool
    /// The path as given (`-` for standard input).
    package let path: String

    /// Opens `path` for reading; `-` is standard input. Directories are refused; regular
    /// files, pipes, FIFOs and character devices are read.
    package init(path: String) throws(PanTraceError) {
        self.path = path
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard opened >= 0 else {
            let err = errno
            throw PanTraceError(.io(err == ENOENT ? "no such file" : "cannot open: \(String(cString: strerror(err)))"), file: path)
        }
        var info = stat()
        if fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            _ = closeDescriptor(opened)
            throw PanTraceError(.io("is a directory"), file: path)
        }
        fd = opened
        ownsDescriptor = true
    }

    deinit { close() }

    /// Appends what one `read(2)` returns, at most `count` bytes; returns how many (0 at the
    /// end of the input). Retries `EINTR`. Reads go through one scratch buffer allocated once,
    /// so a line arriving on its own costs its own length, not the buffer's.
    package func read(into buffer: inout [UInt8], upTo count: Int) throws(PanTraceError) -> Int {
        precondition(count > 0, "read at least one byte")
        let wanted = min(count, scratch.count)
        while true {
            let n = scratch.withUnsafeMutableBytes { raw in readDescriptor(fd, raw.baseAddress!, wanted) }
            if n >= 0 {
                buffer.append(contentsOf: scratch[..<n])
                return n
            }
            if errno == EINTR { continue }
            throw PanTraceError(.io("read failed: \(String(cString: strerror(errno)))"), file: path)
        }
    }

    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    /// Closes the descriptor (not standard input); later calls do nothing.
    package func close() {
        if ownsDescriptor, fd >= 0 { _ = closeDescriptor(fd) }
        fd = -1
    }
}

// File-scope forwarders: inside InputStream, `read` and `close` would name its own methods.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The few POSIX calls ``RememberedToken`` needs: a file only its owner may read, checked by
/// its owner and mode before a byte of it is trusted.
enum TokenFile {
    /// What was found at a token file's path.
    enum Reading: Equatable {
        case missing
        case text(String)
        /// Present but not to be trusted or not readable; says why.
        case refused(String)
    }

    /// Reads `path` if it is a regular file of this user that no one else may read or write.
    static func read(_ path: String) -> Reading {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            if err == ENOENT { return .missing }
            if err == ELOOP { return .refused("it is a symbolic link") }
            return .refused(describe(err))
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .refused(describe(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .refused("not a regular file") }
        guard info.st_uid == getuid() else { return .refused("owned by another user (uid \(info.st_uid))") }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else { return .refused("others may read or write it (mode 0\(String(mode, radix: 8)))") }
        // A token line and a path (PATH_MAX is 4096 bytes on Linux).
        guard info.st_size <= 8192 else { return .refused("larger than 8 KiB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return .refused(describe(errno)) }
        return .text(String(decoding: bytes[..<count], as: UTF8.self))
    }

    /// Writes `text` to `path` with mode 0600, replacing what was there atomically (a new file
    /// created exclusively beside it, then renamed), after making `folder` with mode 0700 and
    /// checking it can be trusted (``untrustedFolder(_:)``).
    /// - Returns: why it could not, or nil.
    static func write(_ text: String, to path: String, folder: String) -> String? {
        if let problem = makeFolder(folder) { return problem }
        if let problem = untrustedFolder(folder) { return problem }
        let temporary = path + ".new-\(getpid())"
        _ = unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot create \(temporary): \(describe(errno))" }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let writeError = errno
        _ = fchmod(fd, 0o600)  // whatever the umask
        _ = close(fd)
        guard written == bytes.count else {
            _ = unlink(temporary)
            return "cannot write \(temporary): \(describe(writeError))"
        }
        guard rename(temporary, path) == 0 else {
            let err = errno
            _ = unlink(temporary)
            return "cannot rename to \(path): \(describe(err))"
        }
        return nil
    }

    /// Makes `folder` and its parents; the last one with mode 0700 (the XDG state folder's own rule).
    private static func makeFolder(_ folder: String) -> String? {
        var path = ""
        let parts = folder.split(separator: "/", omittingEmptySubsequences: true)
        for (index, part) in parts.enumerated() {
            path += "/" + part
            let isLast = index == parts.count - 1
            if mkdir(path, isLast ? 0o700 : 0o755) != 0 && errno != EEXIST {
                return "cannot create \(path): \(describe(errno))"
            }
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        return nil
    }

    /// Why the state folder `folder` cannot hold a token, or nil when it can; nil too when it
    /// does not exist (yet).
    ///
    /// Whoever may write to a folder may delete or replace the files in it, and whoever may
    /// write to a folder above it may rename it away: the token file's own owner and mode check
    /// (``read(_:)``) means nothing in a folder another user controls. So, as OpenSSH checks
    /// the folders above `authorized_keys` (`safe_path()` in its `misc.c`, `StrictModes`):
    /// the folder itself must be this user's and writable by no one else; every folder above
    /// it (after resolving symbolic links) must be this user's or root's and writable by no
    /// one else, unless it has the sticky bit (`/tmp`), where others cannot remove or rename
    /// what is not theirs.
    static func untrustedFolder(_ folder: String) -> String? {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            guard errno == ENOENT else { return "cannot read \(folder): \(describe(errno))" }
            // Not made yet: it would be made inside the nearest folder that exists, which must not
            // be a symbolic link (that would put it somewhere else). Once made, it is checked
            // again, the folders above it included.
            var existing = folder
            repeat {
                let parent = existing.lastIndex(of: "/").map { $0 == existing.startIndex ? "/" : String(existing[..<$0]) } ?? "."
                guard parent != existing else { return nil }
                existing = parent
            } while lstat(existing, &info) != 0 && errno == ENOENT
            return info.st_mode & S_IFMT == S_IFLNK ? "\(existing) is a symbolic link" : nil
        }
        guard info.st_mode & S_IFMT != S_IFLNK else { return "\(folder) is a symbolic link" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        guard info.st_uid == getuid() else { return "\(folder) is owned by another user (uid \(info.st_uid))" }
        let mode = info.st_mode & 0o7777
        guard mode & 0o022 == 0 else { return "others may write to \(folder) (mode 0\(String(mode, radix: 8)))" }
        guard let real = canonicalPath(folder) else { return "cannot resolve \(folder)" }
        var above = real
        while let slash = above.lastIndex(of: "/"), above != "/" {
            above = slash == above.startIndex ? "/" : String(above[..<slash])
            guard stat(above, &info) == 0 else { return "cannot read \(above): \(describe(errno))" }
            let mode = info.st_mode & 0o7777
            if info.st_uid != getuid() && info.st_uid != 0 {
                return "\(above), above \(folder), is owned by another user (uid \(info.st_uid))"
            }
            if mode & 0o022 != 0 && mode & S_ISVTX == 0 {
                return "others may write to \(above), above \(folder) (mode 0\(String(mode, radix: 8)))"
            }
        }
        return nil
    }

    /// The canonical absolute path of an existing folder, or nil.
    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func describe(_ err: Int32) -> String { String(cString: strerror(err)) }
}

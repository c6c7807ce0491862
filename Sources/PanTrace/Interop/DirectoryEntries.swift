#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The seam between ``TraceFolder`` and the file system: one folder's entries as `readdir(3)`
/// gives them, with their kind from the entry's `d_type` (an `lstat` only where the file
/// system leaves it unknown), and `realpath(3)` for the few entries that are symlinks.
enum DirectoryEntries {
    enum Kind {
        case file
        case folder
        case symlink
        /// A FIFO, socket or device: listed like a file, and refused by the reader.
        case other
    }

    struct Entry {
        var name: String
        var kind: Kind
    }

    /// The entries of `path` except `.` and `..`, in the order the file system gives them.
    /// - Returns: the entries, or the `strerror` text of why the folder cannot be read.
    static func list(_ path: String) -> Result<[Entry], DirectoryError> {
        guard let directory = opendir(path) else { return .failure(DirectoryError(errno)) }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(DirectoryError(errno)) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let kind: Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = Self.kind(lstatOf: path + "/" + name)
            default: kind = .other
            }
            entries.append(Entry(name: name, kind: kind))
        }
        return .success(entries)
    }

    /// The kind from `lstat(2)`, for file systems whose entries carry no type.
    private static func kind(lstatOf path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }  // vanished: the reader says so
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    /// Where a symlink leads, every link followed, and whether that is a folder; nil when it
    /// leads nowhere (dangling, a loop).
    static func resolve(_ path: String) -> (path: String, isFolder: Bool)? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let text = String(cString: resolved)
        var info = stat()
        let isFolder = stat(text, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        return (text, isFolder)
    }

    struct DirectoryError: Error {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var text: String { String(cString: strerror(code)) }
    }
}

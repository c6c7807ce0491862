#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Size, modification time and inode of a file, symlinks followed, from one `stat(2)` and
/// without opening it: how ``Library`` tells a changed recording from one it has read.
struct FileStamp: Equatable {
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var inode: UInt64

    /// The stamp of `path`, or nil when it is gone (or cannot be reached).
    init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}

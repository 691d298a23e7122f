import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Opens input files without ever blocking on them: only regular files are
/// read. `open` itself blocks on a FIFO until a writer appears (and on some
/// devices for ever), so the file is opened with `O_NONBLOCK` and checked
/// with `fstat` before any read; reads stop at a size limit.
enum RegularFile {
    /// Largest input read into memory (a photo or scan is far smaller; a
    /// larger file is refused before its bytes are read).
    static let maximumBytes = 1 << 30

    enum Failure: Error, Equatable {
        /// `open`/`read` failed with this errno.
        case system(Int32)
        /// A FIFO, socket, device or folder: described for the user.
        case notRegular(String)
        case tooLarge(Int)
    }

    /// The kind of a non-regular file, for error details.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        default: "not a regular file"
        }
    }

    /// An open descriptor of the regular file at `path` (blocking mode
    /// restored), or why not. The caller closes it.
    static func open(_ path: String) -> Result<(fd: Int32, size: Int), Failure> {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(.system(errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            return .failure(.system(e))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return .failure(.notRegular(kind(st.st_mode)))
        }
        let size = Int(st.st_size)
        guard size <= maximumBytes else {
            close(fd)
            return .failure(.tooLarge(size))
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return .success((fd, size))
    }
}

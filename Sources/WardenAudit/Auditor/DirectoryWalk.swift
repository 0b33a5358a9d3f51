#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a tree and their bytes, through the C library: `opendir`/`readdir` with each entry's type, and one
/// `read` into the buffer the lexer gets. Foundation's `FileManager` enumerator built and rewrote a path string per
/// entry (a quarter of auditing Home Assistant's 2,400 entries went to listing them) and `contents(atPath:)` copied
/// each file twice.
enum DirectoryWalk {
    /// The paths under `base`, relative to it and unsorted. A directory for which `descend(name)` is false is not
    /// entered; `keep(name, relativePath)` chooses among the other entries that are not directories (files, and
    /// symbolic links, which are listed but never followed into a directory). `.` and `..` are never listed.
    static func files(
        under base: String, descend: (String) -> Bool, keep: (_ name: String, _ relativePath: String) -> Bool
    ) -> [String] {
        var paths: [String] = []
        // Depth-first with an explicit stack: a deep tree does not deepen the call stack.
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? base : base + "/" + relative
            guard let handle = opendir(directory) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = entryName(entry)
                if name == "." || name == ".." { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if isDirectory(entry, at: directory + "/" + name) {
                    if descend(name) { pending.append(path) }
                } else if keep(name, path) {
                    paths.append(path)
                }
            }
        }
        return paths
    }

    /// What reading one file of the tree gave.
    enum Read: Sendable, Equatable {
        case bytes([UInt8])
        /// Not read, and why (printed in the report's skipped list).
        case skipped(String)
    }

    /// The real path of `path` (links resolved), or nil when it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The bytes of the regular file at `path`, read only when its real path lies inside `root` (a real path) and
    /// at most `maximumBytes` of them.
    ///
    /// An audit runs on trees it does not trust (a pull request in CI): a committed link may lead to `/dev/zero`, a
    /// FIFO, or a file elsewhere on the machine. So the link is resolved first and a target outside the tree is never
    /// opened; the target is opened without following a link (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`:
    /// opening a FIFO with no writer would wait for ever); anything but a regular file is skipped before a byte is
    /// read; and reading stops one byte past the cap.
    static func contents(of path: String, root: String, maximumBytes: Int) -> Read {
        guard let real = realPath(path) else { return .skipped("unreadable") }
        guard real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return .skipped("a link leading outside the audited tree")
        }
        let descriptor = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .skipped("unreadable") }
        defer { close(descriptor) }
        // What was opened, asked of the descriptor: a directory of the path swapped for a link between `realpath` and
        // `open` (someone writing into the tree during the audit) would have led the open elsewhere.
        if let opened = openedPath(descriptor), !opened.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            return .skipped("a link leading outside the audited tree")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .skipped("unreadable") }
        guard Int(status.st_mode) & Int(S_IFMT) == Int(S_IFREG) else { return .skipped("not a regular file") }
        // The size stat gives is a hint (a file may grow while it is read): read until end of file or the cap.
        let limit = maximumBytes + 1
        var bytes = [UInt8](repeating: 0, count: min(max(Int(status.st_size), 0) + 1, limit))
        var count = 0
        while count < limit {
            if count == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit - count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return .skipped("unreadable")
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else { return .skipped("larger than \(maximumBytes >> 20) MiB") }
        bytes.removeSubrange(count...)
        return .bytes(bytes)
    }

    /// The path the open file `fd` has now (Linux: `/proc/self/fd`; Apple platforms: `F_GETPATH`), nil when the
    /// system cannot say.
    static func openedPath(_ fd: Int32) -> String? {
        #if canImport(Darwin)
            var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
            guard fcntl(fd, F_GETPATH, &buffer) == 0 else { return nil }
            return String(cString: buffer)
        #else
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: &entry.pointee.d_name) { name in
            name.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                String(cString: $0)
            }
        }
    }

    /// Whether the entry is a directory, by the type `readdir` reports, or by `lstat` on a file system that reports
    /// none (a symbolic link to a directory is not one).
    private static func isDirectory(_ entry: UnsafeMutablePointer<dirent>, at path: String) -> Bool {
        let type = entry.pointee.d_type
        if type == UInt8(DT_DIR) { return true }
        if type != UInt8(DT_UNKNOWN) { return false }
        var status = stat()
        return lstat(path, &status) == 0 && Int(status.st_mode) & Int(S_IFMT) == Int(S_IFDIR)
    }
}

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

    /// The bytes of the file at `path`, or nil when it cannot be opened or read (a directory, a dangling link, no
    /// permission).
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_mode) & Int(S_IFMT) != Int(S_IFDIR) else { return nil }
        var bytes: [UInt8] = []
        // The size stat gives is a hint (a file may grow or shrink while it is read): read until end of file.
        var capacity = max(Int(status.st_size), 0) + 1
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: capacity)) }
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { break }
            count += got
            capacity = bytes.count
        }
        bytes.removeSubrange(count...)
        return bytes
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

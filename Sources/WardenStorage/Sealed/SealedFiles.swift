import Foundation
import WardenCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sealed store's file system calls: atomic replacement, this user's regular files only, never a link followed.
package struct SealedFiles: Sendable {
    package let directory: String
    package let protection: any FileProtection
    package let fileClass: DataProtectionClass

    /// A name the store accepts: one path component of 1 to 255 UTF-8 bytes, no `/`, NUL or control character, not
    /// starting with `.` (the store's own temporary files do).
    package static func check(name: String) throws(StorageError) {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= 255 else {
            throw StorageError(.invalidName, "a sealed file's name is 1 to 255 bytes")
        }
        guard !name.hasPrefix("."), !name.contains("/"),
            !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw StorageError(
                .invalidName,
                "a sealed file's name is one path component, not starting with '.', without control characters")
        }
    }

    /// Creates the directory (0700, the file class set on it so files made in it inherit it) or checks the one there:
    /// a directory of this user, not a link.
    package func prepare() throws(StorageError) {
        var made = mkdir(directory, 0o700) == 0
        if !made, errno == ENOENT {
            // Application Support does not exist in a new container: make the parents, then the store's own.
            try? FileManager.default.createDirectory(
                atPath: (directory as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            made = mkdir(directory, 0o700) == 0
        }
        if made {
            _ = protection.protect(directory, fileClass)
            return
        }
        let created = errno
        guard created == EEXIST else {
            throw StorageError(.backendFailure, "cannot create the sealed store's directory (errno \(created))")
        }
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StorageError(.notARegularFile, "the sealed store's directory is not a directory (a link or a file)")
        }
        guard info.st_uid == geteuid() else {
            throw StorageError(.notARegularFile, "the sealed store's directory belongs to another user")
        }
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    /// Writes `bytes` as `name`, whole or not at all: a private temporary file (created exclusively, never through a
    /// link, mode 0600, given the file class before any byte), synced, then renamed over the old one.
    package func write(_ bytes: [UInt8], name: String) throws(StorageError) {
        guard let random = try? SecureRandom().bytes(count: 8) else {
            throw StorageError(.backendFailure, "the system random source failed")
        }
        // `.w-<16 hex>.tmp`: short whatever the name (a 255-byte name plus a suffix would be too long for the file
        // system), and never a name the store accepts (they cannot start with a dot).
        let temporary = path(".w-\(random.map { String(format: "%02x", $0) }.joined()).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StorageError(.backendFailure, "cannot create a file in the sealed store (errno \(errno))")
        }
        var keep = false
        defer { if !keep { unlink(temporary) } }
        // The class before any byte; a system that refuses it gets no file rather than a less protected one.
        guard protection.protect(temporary, fileClass) else {
            close(fd)
            throw StorageError(.backendFailure, "the system refused the file's data protection class")
        }
        let ok = Self.writeAll(fd, bytes)
        let synced = fsync(fd) == 0
        close(fd)
        guard ok, synced else { throw StorageError(.backendFailure, "writing the sealed file failed (errno \(errno))") }
        guard rename(temporary, path(name)) == 0 else {
            throw StorageError(.backendFailure, "replacing the sealed file failed (errno \(errno))")
        }
        protection.moved(temporary, to: path(name))
        keep = true
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Writes all of `bytes` to `fd`, across short writes and interruptions; false on an error.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        return bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = Foundation.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
    }

    /// The bytes of `name`, or nil when there is no such file. At most `maximumBytes + 1` bytes are read, so the
    /// caller sees "too large" without the rest ever entering memory.
    package func read(name: String, maximumBytes: Int) throws(StorageError) -> [UInt8]? {
        let target = path(name)
        guard protection.permitsOpening(target) else {
            throw StorageError(.locked, "'\(name)' is protected until the device is unlocked")
        }
        let fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP:
                throw StorageError(.notARegularFile, "'\(name)' is a symbolic link; the store never follows one")
            case EPERM, EACCES: throw StorageError(.locked, "'\(name)' cannot be opened now (protected while locked)")
            case let code: throw StorageError(.backendFailure, "cannot open '\(name)' (errno \(code))")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            throw StorageError(.notARegularFile, "'\(name)' is not a regular file of this user")
        }
        guard Int(info.st_size) <= maximumBytes else {
            throw StorageError(.itemTooLarge, "'\(name)' is over the store's \(maximumBytes)-byte limit")
        }
        var output = [UInt8](repeating: 0, count: min(Int(info.st_size), maximumBytes) + 1)
        var total = 0
        while total < output.count {
            let count = output.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(.backendFailure, "reading '\(name)' failed (errno \(errno))")
            }
            if count == 0 { break }
            total += count
        }
        guard total <= maximumBytes else {
            throw StorageError(.itemTooLarge, "'\(name)' is over the store's \(maximumBytes)-byte limit")
        }
        return Array(output.prefix(total))
    }

    /// Removes `name` (a link is removed, never its target); no file is not an error.
    package func remove(name: String) throws(StorageError) {
        guard unlink(path(name)) == 0 || errno == ENOENT else {
            throw StorageError(.backendFailure, "cannot remove '\(name)' (errno \(errno))")
        }
    }

    /// The names of the files in the directory the store could have written, and its leftover temporary files.
    package func list() throws(StorageError) -> (names: [String], temporary: [String]) {
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return ([], []) }
            throw StorageError(.backendFailure, "cannot list the sealed store (errno \(errno))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        var temporary: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                temporary.append(name)
            } else if (try? Self.check(name: name)) != nil {
                names.append(name)
            }
        }
        return (names.sorted(), temporary)
    }

    /// The class the system reports for `name`.
    package func protectionClass(name: String) -> DataProtectionClass? { protection.protectionClass(of: path(name)) }
}

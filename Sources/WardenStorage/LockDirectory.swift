import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directory ``FileGrantLock`` keeps its leases in: created private (0700) when missing, and trusted when it
/// exists only as this user's own directory that no one else can write — a planted link, or a directory another
/// user can write to, would let them plant or swap lease files.
enum LockDirectory {
    /// Creates `directory` (0700) or checks the one that is there, and gives it the data protection class `class`
    /// (lease files created in it inherit it).
    static func prepare(_ directory: URL, protection: any FileProtection, class: DataProtectionClass)
        throws(StorageError)
    {
        let path = directory.path
        var status = stat()
        if lstat(path, &status) != 0 {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.serviceUnavailable, "cannot create the grant lock directory")
            }
            guard lstat(path, &status) == 0 else {
                throw StorageError(.serviceUnavailable, "cannot read the grant lock directory")
            }
        }
        if let distrust = distrust(status) {
            throw StorageError(.serviceUnavailable, "the grant lock directory cannot be trusted: \(distrust)")
        }
        // Best effort: a directory an older version created keeps its class until the app runs unlocked.
        _ = protection.protect(path, `class`)
    }

    /// Why a directory with `status` must not hold leases, or nil.
    static func distrust(_ status: stat) -> String? {
        let type = Int(status.st_mode) & Int(S_IFMT)
        if type == Int(S_IFLNK) { return "it is a symbolic link" }
        guard type == Int(S_IFDIR) else { return "it is not a directory" }
        guard status.st_uid == geteuid() else { return "it belongs to another user" }
        guard Int(status.st_mode) & 0o022 == 0 else { return "others can write to it" }
        return nil
    }
}

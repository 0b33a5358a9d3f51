import Foundation
import WardenCore

/// Credentials in plain files — **insecure**, only behind an explicit opt-in (like `gh auth login
/// --insecure-storage`) for machines without a Secret Service.
///
/// Files are mode 0600 inside a 0700 directory and replaced atomically (write to a temporary file, then
/// rename); every time the store is opened it logs a warning. Anyone who can read your home directory can read
/// these tokens.
public actor PlaintextFileStore: CredentialStore {
    /// The directory holding the credential files (mode 0700): one hex-named subdirectory per service, one hex-named
    /// file per account.
    public let directory: URL
    /// A ``FileGrantLock`` in `.locks` of the directory: every process that opens the same directory shares it.
    public nonisolated let grantLock: any GrantLock
    private let log = WardenLogger(category: "storage")

    /// Opens (and creates) the store. The name says what it is.
    public static func insecure(directory: URL) throws(StorageError) -> PlaintextFileStore {
        try PlaintextFileStore(directory: directory)
    }

    private init(directory: URL) throws(StorageError) {
        self.directory = directory
        grantLock = FileGrantLock(directory: directory.appendingPathComponent(".locks"))
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        } catch {
            throw StorageError(.serviceUnavailable, "cannot create the credential directory")
        }
        log.warning("using INSECURE plaintext credential storage in \(directory.path); prefer the Secret Service")
    }

    private func file(_ service: String, _ account: String) -> URL {
        directory.appendingPathComponent(Self.fileName(service)).appendingPathComponent(Self.fileName(account))
    }

    /// Names are hex-encoded so that no service or account can escape the directory.
    public static func fileName(_ name: String) -> String { name.utf8.map { String(format: "%02x", $0) }.joined() }

    static func name(fromFile file: String) -> String? {
        var bytes: [UInt8] = []
        var index = file.startIndex
        while index < file.endIndex {
            let next = file.index(index, offsetBy: 2, limitedBy: file.endIndex) ?? file.endIndex
            guard let byte = UInt8(file[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    public func save(_ data: Data, service: String, account: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service, account: account)
        try CredentialStoreLimits.check(item: data)
        let target = file(service, account)
        do {
            let folder = target.deletingLastPathComponent()
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = folder.appendingPathComponent(".tmp-\(UUID().uuidString)")
            guard
                FileManager.default.createFile(
                    atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
            else {
                throw StorageError(.backendFailure, "cannot write the credential file")
            }
            if rename(temporary.path, target.path) != 0 {
                try? FileManager.default.removeItem(at: temporary)
                throw StorageError(.backendFailure, "cannot replace the credential file")
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.backendFailure, "cannot write the credential file")
        }
    }

    public func load(service: String, account: String) throws(StorageError) -> Data? {
        try CredentialStoreLimits.check(service: service, account: account)
        return FileManager.default.contents(atPath: file(service, account).path)
    }

    public func delete(service: String, account: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service, account: account)
        try? FileManager.default.removeItem(at: file(service, account))
    }

    public func deleteAll(service: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(Self.fileName(service)))
    }

    public func accounts(service: String) throws(StorageError) -> [String] {
        try CredentialStoreLimits.check(service: service)
        let folder = directory.appendingPathComponent(Self.fileName(service))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { !$0.hasPrefix(".") }.compactMap(Self.name(fromFile:)).sorted()
    }
}

import Foundation

/// Reinstall hygiene: a non-secret marker that says "this install has run before". When it is missing, every
/// item of the app's service is purged **before anything is read**, then the marker is written — so a
/// reinstalled app never inherits the previous install's tokens (Keychain items survive app deletion on iOS).
///
/// The marker lives in UserDefaults on Apple platforms (deleted with the app) and in a file under
/// `$XDG_STATE_HOME/warden/` (default `~/.local/state/warden/`) on Linux.
///
/// ```swift
/// let sentinel = InstallSentinel(appID: "com.example.app")
/// try await sentinel.purgeIfFirstLaunch(store: store, services: ["com.example.app.tokens"])
/// ```
public struct InstallSentinel: Sendable {
    public let appID: String
    let marker: any SentinelMarker

    /// The platform default marker.
    public init(appID: String) {
        self.appID = appID
        #if canImport(Darwin)
            marker = UserDefaultsMarker(key: "dev.warden.installed." + appID)
        #else
            let base =
                ProcessInfo.processInfo.environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (NSHomeDirectory() + "/.local/state")
            marker = FileMarker(
                url: URL(fileURLWithPath: base).appendingPathComponent("warden").appendingPathComponent(
                    appID + ".installed"))
        #endif
    }

    /// A sentinel with a marker file at `url` (tests, custom layouts).
    public init(appID: String, markerFile url: URL) {
        self.appID = appID
        marker = FileMarker(url: url)
    }

    /// Purges `services` when this is the first launch of this install; returns whether it purged.
    @discardableResult
    public func purgeIfFirstLaunch(store: any CredentialStore, services: [String]) async throws(StorageError) -> Bool {
        guard !marker.exists() else { return false }
        for service in services { try await store.deleteAll(service: service) }
        try marker.write()
        return true
    }
}

protocol SentinelMarker: Sendable {
    func exists() -> Bool
    func write() throws(StorageError)
}

struct FileMarker: SentinelMarker {
    let url: URL

    func exists() -> Bool { FileManager.default.fileExists(atPath: url.path) }

    func write() throws(StorageError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("warden install marker (not a secret)\n".utf8).write(to: url, options: .atomic)
        } catch {
            throw StorageError(.backendFailure, "cannot write the install marker")
        }
    }
}

#if canImport(Darwin)
    struct UserDefaultsMarker: SentinelMarker {
        let key: String
        func exists() -> Bool { UserDefaults.standard.bool(forKey: key) }
        func write() throws(StorageError) { UserDefaults.standard.set(true, forKey: key) }
    }
#endif

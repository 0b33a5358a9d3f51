import Foundation

/// Reinstall hygiene: a non-secret marker that says "this install has run before". When it is missing, every
/// item of the app's services is purged **before anything is read**, then the marker is written — so a
/// reinstalled app never inherits the previous install's tokens (Keychain items survive app deletion on iOS).
///
/// A purge is irreversible, so the check only purges when it can trust a *missing* marker:
/// - The marker is a file, never `UserDefaults`: `UserDefaults` reads empty during app prewarming and before the
///   first unlock, and is a different store in an app extension, which would purge live tokens. A file's
///   existence is readable in every protection state. On Apple platforms it lives in the app's Application Support
///   folder, or in the app-group container when `appGroup` is given (shared by the app and its extensions, deleted
///   with the last of them); on Linux under `$XDG_STATE_HOME/warden/` (default `~/.local/state/warden/`).
/// - During prewarming (`ActivePrewarm=1` in the environment, Apple's "About the app launch sequence") nothing is
///   purged or written: ``Result/deferred(_:)``.
/// - The store must answer first: a locked keychain or keyring (``StorageError/Code/locked``,
///   ``StorageError/Code/interactionNotAllowed``) defers instead of purging.
///
/// ```swift
/// let sentinel = InstallSentinel(appID: "com.example.app", appGroup: "group.com.example.app")
/// try await sentinel.purgeIfFirstLaunch(store: store, services: ["com.example.app.tokens"])
/// ```
public struct InstallSentinel: Sendable {
    /// What one check did.
    public enum Result: Sendable, Equatable {
        /// First launch of this install: the services were purged and the marker written.
        case purged
        /// The marker was there: nothing was touched.
        case alreadyInstalled
        /// The check could not trust a missing marker right now (prewarming, protected data unavailable); call it
        /// again on the next real launch. Nothing was purged.
        case deferred(String)
    }

    public let appID: String
    let marker: FileMarker
    let environment: @Sendable () -> [String: String]

    /// The platform default marker; `appGroup` puts it in that app-group container (Apple platforms).
    public init(appID: String, appGroup: String? = nil) {
        self.init(appID: appID, markerFile: Self.defaultMarker(appID: appID, appGroup: appGroup))
    }

    /// A sentinel with a marker file at `url` (tests, custom layouts).
    public init(appID: String, markerFile url: URL) {
        self.init(appID: appID, markerFile: url, environment: { ProcessInfo.processInfo.environment })
    }

    init(appID: String, markerFile url: URL, environment: @escaping @Sendable () -> [String: String]) {
        self.appID = appID
        marker = FileMarker(url: url)
        self.environment = environment
    }

    static func defaultMarker(appID: String, appGroup: String?) -> URL {
        let name = "dev.warden.installed." + appID
        #if WARDEN_APPLE
            if let appGroup,
                let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
            {
                return container.appendingPathComponent("Library/Application Support/Warden/\(name)")
            }
            let support =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
            return support.appendingPathComponent("Warden/\(name)")
        #else
            let base =
                ProcessInfo.processInfo.environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (NSHomeDirectory() + "/.local/state")
            return URL(fileURLWithPath: base).appendingPathComponent("warden/\(appID).installed")
        #endif
    }

    /// Purges `services` when this is the first launch of this install.
    @discardableResult
    public func purgeIfFirstLaunch(store: any CredentialStore, services: [String]) async throws(StorageError)
        -> Result
    {
        guard !marker.exists() else { return .alreadyInstalled }
        if environment()["ActivePrewarm"] == "1" {
            return .deferred("the app is being prewarmed; protected data may be unavailable")
        }
        // The store must be readable before a missing marker is trusted.
        for service in services {
            do { _ = try await store.accounts(service: service) } catch {
                if error.failureKind == .transient {
                    return .deferred("the credential store is not readable right now (\(error.code))")
                }
                throw error
            }
        }
        for service in services { try await store.deleteAll(service: service) }
        try marker.write()
        return .purged
    }
}

struct FileMarker: Sendable {
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

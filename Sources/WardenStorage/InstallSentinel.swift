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
/// - The store must answer first: a locked keychain or keyring (``StorageErrorDomain/Code/locked``,
///   ``StorageErrorDomain/Code/interactionNotAllowed``) defers instead of purging.
/// - With an `appGroup` whose container the system does not give (a missing App Groups entitlement, an extension
///   built without it), the check defers: the marker's place is unknown, so its absence proves nothing. It never
///   falls back to the process's own container, where an extension — or the app after an update that adopted the
///   group — would find no marker and purge live tokens.
/// - An app extension never purges: it cannot see where an earlier version of the app kept the marker (the app's own
///   container), so a missing marker there proves nothing; it defers to the app's first launch.
/// - A marker found where an earlier version kept it (the app's own container, before the app adopted the group)
///   means "installed": it is moved to the new place, nothing is purged (``Result/migrated``).
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
        /// The marker was where an earlier layout kept it: it was moved to its place now, nothing was purged.
        case migrated
        /// The check could not trust a missing marker right now (prewarming, protected data unavailable); call it
        /// again on the next real launch. Nothing was purged.
        case deferred(String)
    }

    public let appID: String
    /// Nil when the marker's place is unavailable right now (the app-group container).
    let marker: FileMarker?
    /// Where earlier layouts kept the marker.
    let previousMarkers: [FileMarker]
    let environment: @Sendable () -> [String: String]
    /// Whether this process is an app extension (a widget, a share or notification extension), which never purges.
    let isAppExtension: Bool

    /// The platform default marker; `appGroup` puts it in that app-group container (Apple platforms), and a marker
    /// in the app's own container (where it lived without a group) is migrated there.
    public init(appID: String, appGroup: String? = nil) {
        let location = Self.defaultLocation(appID: appID, appGroup: appGroup)
        self.init(
            appID: appID, marker: location.marker, previousMarkers: location.previous,
            environment: { ProcessInfo.processInfo.environment }, isAppExtension: Self.runsInAppExtension)
    }

    /// Whether the main bundle is an app extension (`.appex`).
    static var runsInAppExtension: Bool { Bundle.main.bundleURL.pathExtension == "appex" }

    /// A sentinel with a marker file at `url` (tests, custom layouts); a marker found at one of `previousMarkerFiles`
    /// instead is moved to `url`.
    public init(appID: String, markerFile url: URL, previousMarkerFiles: [URL] = []) {
        self.init(
            appID: appID, marker: url, previousMarkers: previousMarkerFiles,
            environment: { ProcessInfo.processInfo.environment }, isAppExtension: Self.runsInAppExtension)
    }

    init(appID: String, markerFile url: URL, environment: @escaping @Sendable () -> [String: String]) {
        self.init(appID: appID, marker: url, previousMarkers: [], environment: environment)
    }

    init(
        appID: String, marker: URL?, previousMarkers: [URL], environment: @escaping @Sendable () -> [String: String],
        isAppExtension: Bool = false
    ) {
        self.isAppExtension = isAppExtension
        self.appID = appID
        self.marker = marker.map(FileMarker.init)
        self.previousMarkers = previousMarkers.filter { $0 != marker }.map(FileMarker.init)
        self.environment = environment
    }

    /// Where the marker lives on Apple platforms: in the group container when `appGroup` is given — nil when the
    /// system gives no container for it, never the app's own container instead — else in Application Support;
    /// `previous` is the app's own marker, which a group marker migrates.
    static func appleLocation(appID: String, appGroup: String?, groupContainer: URL?, applicationSupport: URL)
        -> (marker: URL?, previous: [URL])
    {
        let name = "dev.warden.installed." + appID
        let own = applicationSupport.appendingPathComponent("Warden/\(name)")
        guard appGroup != nil else { return (own, []) }
        return (groupContainer?.appendingPathComponent("Library/Application Support/Warden/\(name)"), [own])
    }

    static func defaultLocation(appID: String, appGroup: String?) -> (marker: URL?, previous: [URL]) {
        #if WARDEN_APPLE
            let support =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
            return appleLocation(
                appID: appID, appGroup: appGroup,
                groupContainer: appGroup.flatMap {
                    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0)
                }, applicationSupport: support)
        #else
            let base =
                ProcessInfo.processInfo.environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (NSHomeDirectory() + "/.local/state")
            return (URL(fileURLWithPath: base).appendingPathComponent("warden/\(appID).installed"), [])
        #endif
    }

    /// Purges `services` when this is the first launch of this install.
    @discardableResult
    public func purgeIfFirstLaunch(store: any CredentialStore, services: [String]) async throws(StorageError)
        -> Result
    {
        guard let marker else {
            return .deferred("the app group container is unavailable; the install marker cannot be checked")
        }
        guard !marker.exists() else { return .alreadyInstalled }
        let prewarming = environment()["ActivePrewarm"] == "1"
        if let previous = previousMarkers.first(where: { $0.exists() }) {
            // Installed before: move the marker (later, if it cannot be written now), never purge.
            guard !prewarming, (try? marker.write()) != nil else { return .alreadyInstalled }
            previous.remove()
            return .migrated
        }
        if prewarming {
            return .deferred("the app is being prewarmed; protected data may be unavailable")
        }
        if isAppExtension {
            return .deferred("an app extension never purges; the app's first launch does")
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

    func remove() { try? FileManager.default.removeItem(at: url) }

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

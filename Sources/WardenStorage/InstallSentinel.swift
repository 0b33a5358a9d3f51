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
/// - **A group marker must name this install.** An app group outlives the app when another app of the team shares it:
///   reinstalling one of two apps keeps the group container, and a marker there alone would let the new install
///   inherit the old one's tokens. So with `appGroup` the marker carries an install ID that is also written in the
///   app's *own* container (deleted with the app): a group marker whose ID the own container does not have is a
///   previous install's, and the app purges. (A marker written by a version before the ID existed is given one, once,
///   without a purge: it cannot be told apart from an update.)
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
        /// The marker was missing, but the app says an earlier version ran in this install (an update that adopted
        /// the sentinel, ``purgeIfFirstLaunch(store:services:earlierVersionRan:)``): the marker was written, nothing
        /// was purged.
        case adopted
        /// The check could not trust a missing marker right now (prewarming, protected data unavailable); call it
        /// again on the next real launch. Nothing was purged.
        case deferred(String)
    }

    /// The app's identifier: it names the default marker file (`dev.warden.installed.<appID>` on Apple platforms,
    /// `<appID>.installed` on Linux).
    public let appID: String
    /// Nil when the marker's place is unavailable right now (the app-group container).
    let marker: FileMarker?
    /// Where earlier layouts kept the marker.
    let previousMarkers: [FileMarker]
    /// With a group marker: the app's own record of its install ID, in its own container (nil without a group).
    let installRecord: FileMarker?
    let environment: @Sendable () -> [String: String]
    /// Whether this process is an app extension (a widget, a share or notification extension), which never purges.
    let isAppExtension: Bool
    /// Evidence that an earlier version of the app ran in this install, for an app that adopts the sentinel in an
    /// update (a migration from another SDK, or Warden without a sentinel before): every check asks it — the restore
    /// at each launch as well as the migration — once the marker is missing and the store has answered. Give something
    /// the earlier version left in the app's own container, which a reinstall deletes: a file it always wrote is best
    /// (`UserDefaults` reads empty during prewarming, which never purges, and before the first unlock, when the store
    /// check has already deferred). True writes the marker without purging (``Result/adopted``).
    public var earlierVersionRan: (@Sendable () -> Bool)?

    /// The platform default marker; `appGroup` puts it in that app-group container (Apple platforms), and a marker
    /// in the app's own container (where it lived without a group) is migrated there.
    public init(appID: String, appGroup: String? = nil) {
        let location = Self.defaultLocation(appID: appID, appGroup: appGroup)
        self.init(
            appID: appID, marker: location.marker, previousMarkers: location.previous,
            environment: { ProcessInfo.processInfo.environment }, isAppExtension: Self.runsInAppExtension,
            installRecord: location.installRecord)
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
        isAppExtension: Bool = false, installRecord: URL? = nil
    ) {
        self.installRecord = installRecord.map(FileMarker.init)
        self.isAppExtension = isAppExtension
        self.appID = appID
        self.marker = marker.map(FileMarker.init)
        self.previousMarkers = previousMarkers.filter { $0 != marker }.map(FileMarker.init)
        self.environment = environment
    }

    /// Where the marker lives on Apple platforms: in the group container when `appGroup` is given — nil when the
    /// system gives no container for it, never the app's own container instead — else in Application Support;
    /// `previous` is the app's own marker, which a group marker migrates.
    /// `installRecord`: with a group, the app's own record of the install ID the group marker must name.
    static func appleLocation(appID: String, appGroup: String?, groupContainer: URL?, applicationSupport: URL)
        -> (marker: URL?, previous: [URL], installRecord: URL?)
    {
        let name = "dev.warden.installed." + appID
        let own = applicationSupport.appendingPathComponent("Warden/\(name)")
        guard appGroup != nil else { return (own, [], nil) }
        return (
            groupContainer?.appendingPathComponent("Library/Application Support/Warden/\(name)"), [own],
            applicationSupport.appendingPathComponent("Warden/dev.warden.install-id." + appID)
        )
    }

    static func defaultLocation(appID: String, appGroup: String?) -> (
        marker: URL?, previous: [URL], installRecord: URL?
    ) {
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
            return (URL(fileURLWithPath: base).appendingPathComponent("warden/\(appID).installed"), [], nil)
        #endif
    }

    /// Purges `services` when this is the first launch of this install.
    ///
    /// - Parameter earlierVersionRan: for an app that adopts the sentinel in an update (and a migration from another
    ///   SDK, ``Result/adopted``): evidence that an earlier version ran in this install — something it left in the
    ///   app's own container, which a reinstall deletes. Asked only when the marker is missing and nothing else
    ///   decides; true writes the marker without purging. A group marker naming another install still purges.
    @discardableResult
    public func purgeIfFirstLaunch(
        store: any CredentialStore, services: [String], earlierVersionRan: (@Sendable () -> Bool)? = nil
    ) async throws(StorageError) -> Result {
        try await purgeIfFirstLaunch(
            store: store, services: services, earlierVersionRan: earlierVersionRan, alsoPurge: nil)
    }

    /// The check, with `alsoPurge` run after the services are purged and before the marker is written (a migration's
    /// old-SDK items): a kill between the two leaves no marker, so the next launch purges again instead of importing a
    /// previous install's item.
    package func purgeIfFirstLaunch(
        store: any CredentialStore, services: [String], earlierVersionRan: (@Sendable () -> Bool)?,
        alsoPurge: (() async throws(StorageError) -> Void)?
    ) async throws(StorageError) -> Result {
        let earlierVersionRan = earlierVersionRan ?? self.earlierVersionRan
        guard let marker else {
            return .deferred("the app group container is unavailable; the install marker cannot be checked")
        }
        let prewarming = environment()["ActivePrewarm"] == "1"
        if marker.exists() {
            guard let installRecord, !isAppExtension else { return .alreadyInstalled }
            switch try groupMarkerNamesThisInstall(marker, installRecord, prewarming: prewarming) {
            case .some(let result): return result
            case .none: break  // a previous install's marker: purge below
            }
        } else if let previous = previousMarkers.first(where: { $0.exists() }) {
            // Installed before: move the marker (later, if it cannot be written now), never purge.
            guard !prewarming, (try? writeMarker(marker)) != nil else { return .alreadyInstalled }
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
        if !marker.exists(), let earlierVersionRan, earlierVersionRan() {
            try writeMarker(marker)
            return .adopted
        }
        for service in services { try await store.deleteAll(service: service) }
        try await alsoPurge?()
        try writeMarker(marker)
        return .purged
    }

    /// Writes the marker; with a group, a new install ID first in the app's own container, then in the marker.
    private func writeMarker(_ marker: FileMarker) throws(StorageError) {
        guard let installRecord else { return try marker.write() }
        let id = UUID().uuidString
        try installRecord.write(id)
        try marker.write(id)
    }

    /// Whether an existing group marker is this install's: `.alreadyInstalled` when it names the install ID of the
    /// app's own container, a result without purging when that cannot be decided or the marker predates IDs, nil when
    /// it names an install this container never had (the app was reinstalled while the group lived on).
    private func groupMarkerNamesThisInstall(_ marker: FileMarker, _ installRecord: FileMarker, prewarming: Bool)
        throws(StorageError) -> Result?
    {
        guard let content = marker.read() else {
            return .deferred("the install marker is not readable right now")
        }
        guard let groupID = FileMarker.installID(in: content) else {
            // Written before markers named their install: give it an ID now, never purge on it.
            if !prewarming { try? writeMarker(marker) }
            return .migrated
        }
        guard installRecord.exists() else { return nil }
        guard let ownContent = installRecord.read() else {
            return .deferred("the install record is not readable right now")
        }
        if FileMarker.installID(in: ownContent) != groupID, !prewarming {
            try? marker.write(FileMarker.installID(in: ownContent) ?? groupID)
        }
        return .alreadyInstalled
    }
}

struct FileMarker: Sendable {
    let url: URL

    func exists() -> Bool { FileManager.default.fileExists(atPath: url.path) }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes the marker, naming `installID` on its second line when given.
    func write(_ installID: String? = nil) throws(StorageError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = "warden install marker (not a secret)\n" + (installID.map { "install \($0)\n" } ?? "")
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw StorageError(.backendFailure, "cannot write the install marker")
        }
    }

    /// The marker's text, or nil when it cannot be read now.
    func read() -> String? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return String(decoding: data.prefix(4096), as: UTF8.self)
    }

    /// The install ID a marker's text names (`install <id>`), nil for a marker written before IDs.
    static func installID(in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("install ") }.map { String($0.dropFirst("install ".count)) }
    }
}

import Foundation
import WardenCore
import WardenStorage

/// Apple's data protection of files as a device applies it, executable on Linux: which class a file ends up with, and
/// whether it can be opened in each lock state. Each rule has its source.
///
/// - D1. A new file or directory takes the class of the directory it is created in (Apple DTS,
///   developer.apple.com/forums/thread/706258: "Files written to a directory default to that directory's data
///   protection").
/// - D2. The app container's own class is the default: `complete` with the Data Protection capability
///   (`com.apple.developer.default-data-protection` = `NSFileProtectionComplete`; Apple DTS,
///   developer.apple.com/forums/thread/24483: "The entitlement sets the default value for your container, and hence for
///   anything created within your container"), else `completeUntilFirstUserAuthentication` (Apple Platform Security,
///   "Data Protection classes": the default class of third-party app data). An app group container is created with
///   the same default.
/// - D3. A `complete` file cannot be opened while the device is locked or before its first unlock (Apple,
///   `FileProtectionType.complete`: "cannot be read from or written to while the device is locked or booting"; device
///   log at developer.apple.com/forums/thread/131051: `NSFileReadNoPermissionError`, POSIX `EPERM`).
/// - D4. A `completeUntilFirstUserAuthentication` file opens after the first unlock, locked or not (Apple,
///   `.completeUntilFirstUserAuthentication`: "After the user unlocks the device for the first time, your app can
///   access the file and continue to access it even if the user subsequently locks the device").
/// - D5. A `completeUnlessOpen` file can be created while locked, but once closed not opened again until unlocked
///   (Apple, `.completeUnlessOpen`).
/// - D6. `none` always opens.
/// - D7. A file keeps its class when it is renamed within the volume (Apple Platform Security, "Data Protection
///   overview": the per-file key, wrapped by its class key, "is stored in the file's metadata" — a rename moves the
///   name, not the file; `rename(2)` keeps the inode). Warden's sealed store sets the class on a temporary file and
///   renames it into place.
///
/// Use it where Warden sets a class (`FileGrantLock.protection`): it records each class set, and answers for any path
/// under ``container``. D1 is applied when asked, not when a file is created: set a directory's class before files
/// are created in it (as Warden does), and a file's own class for one that already existed.
///
/// Thread-safety: behind a lock.
public final class DataProtectionModel: @unchecked Sendable {  // Locked-guarded
    /// The container's root (an app group container): its class is ``containerDefault`` (D2).
    public let container: String
    /// The class of the container (D2): `complete` for an app with the Data Protection capability.
    public let containerDefault: DataProtection
    private let explicit = Locked<[String: DataProtection]>([:])
    private let state = Locked(DeviceLockState.unlocked)

    /// The classes, as Foundation names them.
    public enum DataProtection: String, Sendable, CaseIterable {
        /// `FileProtectionType.complete`, `.completeUnlessOpen`, `.completeUntilFirstUserAuthentication` and
        /// `.none`, with the rules D3 to D6.
        case complete, completeUnlessOpen, completeUntilFirstUserAuthentication, none
    }

    /// - Parameters:
    ///   - container: the container's path; every path the model answers for lies under it.
    ///   - dataProtectionCapability: whether the app has the Data Protection capability set to complete (D2).
    public init(container: String, dataProtectionCapability: Bool = true) {
        self.container = container.hasSuffix("/") ? String(container.dropLast()) : container
        containerDefault = dataProtectionCapability ? .complete : .completeUntilFirstUserAuthentication
    }

    /// The lock state; unlocked at first.
    public var deviceState: DeviceLockState {
        get { state.current }
        set { state.withLock { $0 = newValue } }
    }

    /// The class `path` has: its own, set explicitly, else its directory's (D1), up to the container's (D2).
    public func protection(of path: String) -> DataProtection {
        let classes = explicit.current
        var current = path.hasSuffix("/") ? String(path.dropLast()) : path
        while current.count >= container.count {
            if let set = classes[current] { return set }
            if current == container { break }
            current = (current as NSString).deletingLastPathComponent
        }
        return containerDefault
    }

    /// Whether an existing file at `path` can be opened now (D3–D6).
    public func canOpen(_ path: String) -> Bool {
        switch (protection(of: path), deviceState) {
        case (.none, _): true
        case (_, .unlocked): true
        case (.completeUntilFirstUserAuthentication, .locked): true
        case (_, .locked), (_, .beforeFirstUnlock): false
        }
    }
}

extension DataProtectionModel: FileProtection {
    package func protectionClass(of path: String) -> DataProtectionClass? {
        let modelled: DataProtection = protection(of: path)
        return DataProtectionClass(rawValue: modelled.rawValue)
    }

    package func permitsOpening(_ path: String) -> Bool { canOpen(path) }

    /// D7: the class set on `source` now belongs to `destination`.
    package func moved(_ source: String, to destination: String) {
        explicit.withLock { classes in
            let from = source.hasSuffix("/") ? String(source.dropLast()) : source
            let to = destination.hasSuffix("/") ? String(destination.dropLast()) : destination
            classes[to] = classes.removeValue(forKey: from)
        }
    }

    package func protect(_ path: String, _ protection: DataProtectionClass) -> Bool {
        let mapped = DataProtection(rawValue: protection.rawValue) ?? .complete
        explicit.withLock { $0[path.hasSuffix("/") ? String(path.dropLast()) : path] = mapped }
        return true
    }
}

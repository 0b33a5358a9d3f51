import Foundation
import WardenCore
import WardenStorage

/// The Keychain as a device runs it, executable on Linux: every behaviour Warden relies on is one rule below, with the
/// source it comes from. Warden's own Keychain logic runs against it in Warden's tests, and an app can run its sign-in
/// code against it in its own (``store(accessibility:accessControl:accessGroup:grantLock:)`` is the `KeychainStore` it
/// would build), on a Linux CI, with the device locked, Face ID turned off, a face re-enrolled or a prompt cancelled.
///
/// **Items**
/// - K1. An item's **primary key** is its class, `kSecAttrService`, `kSecAttrAccount` and `kSecAttrAccessGroup`; adding
///   a second one fails with `errSecDuplicateItem` (-25299) whatever its protection (Apple, "SecItemAdd"; "Item
///   attribute keys and values").
/// - K2. An item added without an access group goes to the app's **default group**, the first of its keychain access
///   groups (Apple, "Sharing access to keychain items among a collection of apps").
/// - K3. A query matches every item whose attributes equal the ones it names; one it does not name matches any value.
///   `SecItemUpdate` and `SecItemDelete` act on every match, `kSecMatchLimitOne` returns one.
/// - K4. The protection (`kSecAttrAccessible` or `kSecAttrAccessControl`) belongs to the item, not its key: an update
///   may replace it.
///
/// **Lock state** (``deviceState``)
/// - K5. An item is unreadable — `errSecInteractionNotAllowed` (-25308) — until its class allows: `WhenUnlocked…` and
///   `WhenPasscodeSet…` while the device is locked, every class before the first unlock since boot (Security
///   `SecItem.h`: "errSecInteractionNotAllowed will be returned if the item's data is not available until a device
///   unlock occurs"; developer.apple.com/forums/thread/744785, a notification extension reading a `WhenUnlocked` item
///   on a locked device). Adding or updating an item of such a class fails the same way (its class key is not
///   available; modelled as the read, not confirmed by a source: on the README's device checklist).
///
/// **Access control** (``Prompt``, answered by `user`)
/// - K6. Reading an access-controlled item prompts; a query that matches nothing returns `errSecItemNotFound` without
///   one (Apple, "Restricting keychain item accessibility").
/// - K7. **Updating one prompts too** (device reports: github.com/kishikawakatsumi/KeychainAccess/issues/321 "SecItemAdd
///   not prompting for Touch ID, but prompting for SecItemUpdate"; github.com/russhwolf/multiplatform-settings/pull/193
///   "update the item, causing a FaceID prompt").
/// - K8. Adding and deleting never prompt (Apple's Security sources, `SecAccessControl.m`: the biometric constraint is
///   put on decrypt and `kAKSKeyOpDelete` is allowed unconditionally; its test
///   `testAddDeleteItemWithBiometryCurrentSet` deletes such an item with no authentication).
/// - K9. Re-enrolling biometry **invalidates** `.biometryCurrentSet` items (Apple, `biometryCurrentSet`: "The item is
///   invalidated if fingers are added or removed for Touch ID, or if the user re-enrolls for Face ID"); a read then
///   finds nothing, `errSecItemNotFound` (inferred from Security's `SecItemDb.c`, which drops an item whose policy is
///   invalid; the exact status is on the device checklist).
/// - K10. With biometry unusable by the app — Face ID turned off for it in Settings, or nothing enrolled — a
///   `.biometryCurrentSet` item cannot be read and there is no passcode fallback; the read fails without a prompt
///   (`LAError` -6 `biometryNotAvailable` for the app, github.com/flutter/flutter/issues/160083; the Keychain status is
///   not confirmed by a source and is modelled as `errSecAuthFailed` -25293: on the device checklist).
/// - K11. A search that returns attributes only (no `kSecReturnData`) never prompts, also for access-controlled items:
///   nothing is decrypted under the access control (Apple's Security sources, `SecAccessControl.m`, put the biometric
///   constraint on the decrypt operation; not confirmed on a device by a source: on the README's device checklist).
///   Warden's store uses it to find staging items without a prompt.
///
/// **Authentication contexts** (``store(accessibility:accessControl:accessGroup:reuse:now:grantLock:)``'s `reuse`)
/// - K12. A read or update that passes, with `kSecUseAuthenticationContext`, an `LAContext` that has already
///   authenticated the user succeeds **without a prompt** (Security `SecItem.h`, `kSecUseAuthenticationContext`: "If
///   the context was previously used to authenticate, the operation will succeed without asking user for
///   authentication"); a new context prompts, and authenticating through it makes it such a context. The system puts
///   no time limit on it: the reuse window is Warden's (`KeychainAuthenticationReuse.inApp`, the store's context
///   cache, which is what this model runs), and a context it dropped is invalidated (`LAContext.invalidate()`) and
///   never passed again. An invalidated context that were passed anyway is modelled as `errSecAuthFailed` (not
///   confirmed by a source).
///
/// Not modelled, because Warden never passes it: `kSecUseAuthenticationUI` (deprecated since iOS 14; Security
/// `SecItem.h`: `…UIFail` returns `errSecInteractionNotAllowed` instead of prompting, `…UISkip` skips items that need
/// authentication). A background read of a protected item is decided by the lock state (K5) and the user's answer
/// (`-25308`, "no UI now", from `user`), which is what Warden relies on; `.userPresence` (passcode fallback) cannot be
/// expressed by `KeychainAccessControl`.
///
/// Thread-safety: every state behind one lock; `user` is called outside it and may block, as the system sheet does.
public final class KeychainModel: @unchecked Sendable {  // NSLock-guarded
    /// One request for the user's authentication, as the system sheet would show it.
    public struct Prompt: Equatable, Sendable, CustomStringConvertible {
        /// What the prompt authenticates: reading an access-controlled item's data (K6), or updating it (K7).
        public enum Operation: String, Sendable {
            /// Reading the item's data (`SecItemCopyMatching` with its data).
            case read
            /// Replacing the item's data (`SecItemUpdate`).
            case update
        }
        /// Whether the prompt is for a read or an update.
        public let operation: Operation
        /// The item's service.
        public let service: String
        /// The item's account.
        public let account: String
        public var description: String { "\(operation.rawValue) \(service)/\(account)" }
    }

    /// What the app's biometry can do (K9, K10).
    public enum Biometry: Sendable {
        /// Biometry is enrolled and allowed for the app: access-controlled reads prompt the user.
        case enrolled
        /// Face ID or Touch ID turned off for this app in Settings, or nothing enrolled: `.biometryCurrentSet` items
        /// cannot be read.
        case unavailable
    }

    /// The primary key of a generic-password item (K1).
    package struct PrimaryKey: Hashable, Sendable, CustomStringConvertible {
        package var service: String
        package var account: String
        package var accessGroup: String
        package var description: String { "\(service)/\(account) in \(accessGroup)" }
    }

    /// One stored item: its data and the attributes it was last written with.
    struct Item {
        var data: Data
        var attributes: KeychainQuery
    }

    private let lock = NSLock()
    private var items: [PrimaryKey: Item] = [:]
    private var order: [PrimaryKey] = []
    private var log: [String] = []
    private var forced: Int32?
    private var promptLog: [Prompt] = []
    private var state = DeviceLockState.unlocked
    private var biometryState = Biometry.enrolled
    /// Answers each prompt (outside the lock), as the user would.
    private let user: @Sendable (Prompt) -> Int32
    /// The group items without `kSecAttrAccessGroup` go to (K2).
    public let defaultAccessGroup: String

    /// - Parameters:
    ///   - defaultAccessGroup: the group items without `kSecAttrAccessGroup` go to.
    ///   - user: answers each prompt: `0` authenticates, `-128` cancels, `-25293` fails, `-25308` is "no UI now" (the
    ///     app in the background). It may block, as `SecItemCopyMatching` does while the sheet is up. By default the
    ///     user always authenticates.
    public init(
        defaultAccessGroup: String = "TEAMID.dev.warden.app",
        user: @escaping @Sendable (Prompt) -> Int32 = { _ in 0 }
    ) {
        self.defaultAccessGroup = defaultAccessGroup
        self.user = user
    }

    /// The lock state (K5); unlocked at first.
    public var deviceState: DeviceLockState {
        get { lock.withLock { state } }
        set { lock.withLock { state = newValue } }
    }

    /// The app's biometry (K10); enrolled at first.
    public var biometry: Biometry {
        get { lock.withLock { biometryState } }
        set { lock.withLock { biometryState = newValue } }
    }

    /// The user re-enrols Face ID or Touch ID: every `.biometryCurrentSet` item is invalidated (K9).
    public func reenrolBiometry() {
        lock.withLock {
            let invalid = order.filter { key in
                if case .accessControl(_, .biometryCurrentSet)? = items[key]?.attributes.attributes[.accessControl] {
                    return true
                }
                return false
            }
            for key in invalid { items[key] = nil }
            order.removeAll { invalid.contains($0) }
        }
    }

    /// Every prompt shown so far, in order.
    public var prompts: [Prompt] { lock.withLock { promptLog } }

    /// The `KeychainStore` an app would build with these settings, over this model instead of the Security
    /// framework: what the app's code does with it, the model answers as the device would.
    ///
    /// - Parameters:
    ///   - reuse: as `KeychainStore`'s: with an `inApp` window, one authenticated context is passed to the protected
    ///     reads of that window (K12), through the same context cache the real store uses.
    ///   - now: the clock of that window.
    public func store(
        accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly,
        accessControl: KeychainAccessControl = .none, accessGroup: String? = nil,
        reuse: KeychainAuthenticationReuse = .none, now: @escaping NowProvider = systemNow,
        grantLock: any GrantLock = ProcessGrantLock.shared
    ) -> any CredentialStore {
        KeychainItemStore(
            api: Calls(
                model: self,
                contexts: AuthenticationContextCache(
                    window: reuse.inApp, now: now, make: { AuthenticationContext() }, invalidate: { $0.invalidate() })),
            configuration: .init(accessibility: accessibility, accessControl: accessControl, accessGroup: accessGroup),
            grantLock: grantLock)
    }

    /// An `LAContext` as the model sees it (K12): whether it has authenticated the user, or was invalidated.
    package final class AuthenticationContext: @unchecked Sendable {  // NSLock-guarded
        private let lock = NSLock()
        private var authenticated = false
        private var invalidated = false
        var state: (authenticated: Bool, invalidated: Bool) { lock.withLock { (authenticated, invalidated) } }
        func didAuthenticate() { lock.withLock { authenticated = true } }
        func invalidate() { lock.withLock { invalidated = true } }
    }

    /// A status every call answers instead of acting (a missing entitlement); nil to act.
    package var forcedStatus: Int32? {
        get { lock.withLock { forced } }
        set { lock.withLock { forced = newValue } }
    }

    /// The statuses of the protected reads reported so far, and how many times items were deleted.
    private var readEnds: [Int32] = []
    private var deletions = 0
    /// What ``Calls/protectedReadEnded(_:)`` and ``Calls/itemsDeleted()`` were told.
    package var reported: (readEnds: [Int32], deletions: Int) { lock.withLock { (readEnds, deletions) } }

    /// The operations called so far, in order (`add`, `update`, `copy`, `list`, `delete`).
    package var calls: [String] { lock.withLock { log } }

    /// Every stored item's primary key, in the order they were added.
    package var keys: [PrimaryKey] { lock.withLock { order } }

    /// The item's data, read as no app can (no prompt, whatever the lock state): for assertions.
    package func peek(_ service: String, _ account: String, accessGroup: String? = nil) -> Data? {
        let key = PrimaryKey(service: service, account: account, accessGroup: accessGroup ?? defaultAccessGroup)
        return lock.withLock { items[key]?.data }
    }

    /// The attributes the item was last written with, or nil when there is no item with that key.
    package func stored(_ service: String, _ account: String, accessGroup: String? = nil) -> KeychainQuery? {
        let key = PrimaryKey(service: service, account: account, accessGroup: accessGroup ?? defaultAccessGroup)
        return lock.withLock { items[key]?.attributes }
    }

    /// The model as the Keychain seam Warden's store calls (a new context for every protected call).
    package var api: any KeychainAPI {
        Calls(
            model: self,
            contexts: AuthenticationContextCache(
                window: 0, make: { AuthenticationContext() }, invalidate: { $0.invalidate() }))
    }

    /// The five `SecItem*` calls, answered by the model; a query naming an authentication context gets the cache's,
    /// as `KeychainStore`'s Security seam does.
    struct Calls: KeychainAPI {
        let model: KeychainModel
        let contexts: AuthenticationContextCache<AuthenticationContext>
        private func context(_ query: KeychainQuery) -> AuthenticationContext? {
            query.attributes[.authenticationContext] == nil ? nil : contexts.context()
        }
        func add(_ query: KeychainQuery) -> Int32 { model.add(query) }
        func update(_ query: KeychainQuery, _ attributes: KeychainQuery) -> Int32 {
            model.update(query, attributes, context: context(query))
        }
        func copyData(_ query: KeychainQuery) -> (Int32, Data?) { model.copyData(query, context: context(query)) }
        func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) { model.copyAccounts(query) }
        func delete(_ query: KeychainQuery) -> Int32 { model.delete(query) }
        func protectedReadEnded(_ status: Int32) {
            model.lock.withLock { model.readEnds.append(status) }
            if status == KeychainStatus.success { contexts.readSucceeded() } else { contexts.reset() }
        }
        func itemsDeleted() {
            model.lock.withLock { model.deletions += 1 }
            contexts.reset()
        }
    }

    // MARK: - The rules

    private func string(_ query: KeychainQuery, _ key: KeychainQuery.Key) -> String? {
        if case .string(let value)? = query.attributes[key] { return value }
        return nil
    }

    /// The class an item's protection names.
    private static func accessibility(_ attributes: KeychainQuery) -> KeychainAccessibility? {
        switch attributes.attributes[.accessible] ?? attributes.attributes[.accessControl] {
        case .accessibility(let value)?: value
        case .accessControl(let value, _)?: value
        default: nil
        }
    }

    /// K5: whether an item of `accessibility` can be used in the current lock state. Caller holds the lock.
    private func available(_ accessibility: KeychainAccessibility?) -> Bool {
        switch (state, accessibility) {
        case (.unlocked, _): true
        case (.beforeFirstUnlock, _): false
        case (.locked, .afterFirstUnlockThisDeviceOnly?): true
        case (.locked, _): false
        }
    }

    private static func isBiometric(_ attributes: KeychainQuery) -> Bool {
        if case .accessControl(_, .biometryCurrentSet)? = attributes.attributes[.accessControl] { return true }
        return false
    }

    /// K3: the keys of the items `query` matches, in insertion order. Caller holds the lock.
    private func matches(_ query: KeychainQuery) -> [PrimaryKey] {
        guard query.attributes[.itemClass] == .genericPassword else { return [] }
        let service = string(query, .service)
        let account = string(query, .account)
        let group = string(query, .accessGroup)
        return order.filter { key in
            (service == nil || key.service == service) && (account == nil || key.account == account)
                && (group == nil || key.accessGroup == group)
        }
    }

    private func begin(_ call: String) -> Int32? {
        log.append(call)
        return forced
    }

    /// Shows `prompt` and returns the user's answer. Caller does not hold the lock.
    private func ask(_ operation: Prompt.Operation, _ key: PrimaryKey) -> Int32 {
        let prompt = Prompt(operation: operation, service: key.service, account: key.account)
        lock.withLock { promptLog.append(prompt) }
        return user(prompt)
    }

    /// K6/K7/K10/K12: what authenticating for an access-controlled item answers. Caller does not hold the lock.
    private func authenticate(
        _ operation: Prompt.Operation, _ key: PrimaryKey, _ attributes: KeychainQuery, _ context: AuthenticationContext?
    ) -> Int32 {
        if Self.isBiometric(attributes), biometry == .unavailable { return KeychainStatus.authFailed }
        if let context {
            let state = context.state
            if state.invalidated { return KeychainStatus.authFailed }
            if state.authenticated { return KeychainStatus.success }  // K12
        }
        let status = ask(operation, key)
        if status == KeychainStatus.success { context?.didAuthenticate() }
        return status
    }

    package func add(_ query: KeychainQuery) -> Int32 {
        lock.withLock {
            if let status = begin("add") { return status }
            guard query.attributes[.itemClass] == .genericPassword, let service = string(query, .service),
                case .data(let data)? = query.attributes[.valueData]
            else { return -50 }  // errSecParam
            guard available(Self.accessibility(query)) else { return KeychainStatus.interactionNotAllowed }
            let key = PrimaryKey(
                service: service, account: string(query, .account) ?? "",
                accessGroup: string(query, .accessGroup) ?? defaultAccessGroup)
            guard items[key] == nil else { return KeychainStatus.duplicateItem }
            items[key] = Item(data: data, attributes: query)
            order.append(key)
            return KeychainStatus.success
        }
    }

    package func update(_ query: KeychainQuery, _ changes: KeychainQuery, context: AuthenticationContext? = nil)
        -> Int32
    {
        let (early, protected): (Int32?, [(PrimaryKey, KeychainQuery)]) = lock.withLock {
            if let status = begin("update") { return (status, []) }
            let keys = matches(query)
            guard !keys.isEmpty else { return (KeychainStatus.itemNotFound, []) }
            guard keys.allSatisfy({ available(Self.accessibility(items[$0]!.attributes)) }) else {
                return (KeychainStatus.interactionNotAllowed, [])
            }
            return (
                nil,
                keys.compactMap { key in
                    items[key].flatMap { $0.attributes.attributes[.accessControl] != nil ? (key, $0.attributes) : nil }
                }
            )
        }
        if let early { return early }
        for (key, attributes) in protected {  // K7
            let status = authenticate(.update, key, attributes, context)
            guard status == KeychainStatus.success else { return status }
        }
        return lock.withLock {
            let keys = matches(query)
            guard !keys.isEmpty else { return KeychainStatus.itemNotFound }
            for key in keys {
                var item = items[key]!
                if case .data(let data)? = changes.attributes[.valueData] { item.data = data }
                // K4: the protection is replaced as a whole: one of accessible / access control.
                if changes.attributes[.accessible] != nil || changes.attributes[.accessControl] != nil {
                    item.attributes.attributes[.accessible] = changes.attributes[.accessible]
                    item.attributes.attributes[.accessControl] = changes.attributes[.accessControl]
                }
                item.attributes.attributes[.valueData] = .data(item.data)
                items[key] = item
            }
            return KeychainStatus.success
        }
    }

    package func copyData(_ query: KeychainQuery, context: AuthenticationContext? = nil) -> (Int32, Data?) {
        let (status, found): (Int32?, (PrimaryKey, Item)?) = lock.withLock {
            if let status = begin("copy") { return (status, nil) }
            return (nil, matches(query).first.map { ($0, items[$0]!) })
        }
        if let status { return (status, nil) }
        guard let (key, item) = found else { return (KeychainStatus.itemNotFound, nil) }
        guard lock.withLock({ available(Self.accessibility(item.attributes)) }) else {
            return (KeychainStatus.interactionNotAllowed, nil)
        }
        if item.attributes.attributes[.accessControl] != nil {  // K6
            let status = authenticate(.read, key, item.attributes, context)
            guard status == KeychainStatus.success else { return (status, nil) }
        }
        return (KeychainStatus.success, item.data)
    }

    package func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) {
        lock.withLock {
            if let status = begin("list") { return (status, []) }
            let accounts = matches(query).map(\.account)
            return accounts.isEmpty ? (KeychainStatus.itemNotFound, []) : (KeychainStatus.success, accounts)
        }
    }

    package func delete(_ query: KeychainQuery) -> Int32 {
        lock.withLock {  // K8: never a prompt
            if let status = begin("delete") { return status }
            let keys = matches(query)
            guard !keys.isEmpty else { return KeychainStatus.itemNotFound }
            for key in keys { items[key] = nil }
            order.removeAll { keys.contains($0) }
            return KeychainStatus.success
        }
    }
}

import Foundation

/// A model of the Keychain's generic-password rules, for testing the portable Keychain logic on Linux.
///
/// It follows Apple's documented semantics ("Item attribute keys and values", `SecItemAdd`):
/// - An item's **primary key** is its class, `kSecAttrService`, `kSecAttrAccount` and `kSecAttrAccessGroup`. Adding a
///   second item with the same primary key fails with `errSecDuplicateItem` (-25299), whatever its protection.
/// - An item added without an access group goes to the app's default group (the first of its keychain access groups).
/// - A query matches every item whose attributes equal the ones the query names; an attribute it does not name (the
///   account, the access group) matches any value. `SecItemUpdate` and `SecItemDelete` act on every match,
///   `kSecMatchLimitOne` returns one.
/// - The protection (`kSecAttrAccessible` or `kSecAttrAccessControl`) belongs to the item, not its key: an update may
///   replace it.
/// - **Access control asks the user** (a ``Prompt``, answered by the `user` closure):
///   - reading an access-controlled item prompts (`kSecAttrAccessControl`, Apple's "Restricting keychain item
///     accessibility"); a query that matches nothing returns `errSecItemNotFound` without a prompt;
///   - **updating one prompts too**, as its data is re-encrypted under the item's key (device reports:
///     github.com/kishikawakatsumi/KeychainAccess/issues/321 "SecItemAdd not prompting for Touch ID, but prompting for
///     SecItemUpdate"; github.com/russhwolf/multiplatform-settings/pull/193 "update the item, causing a FaceID
///     prompt");
///   - adding and deleting never prompt (Apple's Security sources, `SecAccessControl.m`: the biometric constraint is
///     set on decrypt and `kAKSKeyOpDelete` is allowed unconditionally; its test
///     `testAddDeleteItemWithBiometryCurrentSet` deletes such an item with no authentication).
///
/// Only tests construct it; ``KeychainStore`` talks to the Security framework.
final class KeychainModel: KeychainAPI, @unchecked Sendable {  // NSLock-guarded
    /// One request for the user's authentication, as the system sheet would show it.
    struct Prompt: Equatable, Sendable, CustomStringConvertible {
        enum Operation: String, Sendable { case read, update }
        let operation: Operation
        let key: PrimaryKey
        var description: String { "\(operation.rawValue) \(key)" }
    }

    /// The primary key of a generic-password item.
    struct PrimaryKey: Hashable, Sendable, CustomStringConvertible {
        var service: String
        var account: String
        var accessGroup: String
        var description: String { "\(service)/\(account) in \(accessGroup)" }
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
    /// Answers each prompt (outside the lock), as the user would.
    private let user: @Sendable (Prompt) -> Int32
    private var promptLog: [Prompt] = []
    let defaultAccessGroup: String

    /// - Parameters:
    ///   - defaultAccessGroup: the group items without `kSecAttrAccessGroup` go to.
    ///   - user: answers each prompt (0 authenticates, `-128` cancels, `-25293` fails); it may block, as
    ///     `SecItemCopyMatching` does while the sheet is up. By default the user always authenticates.
    init(
        defaultAccessGroup: String = "TEAMID.dev.warden.app",
        user: @escaping @Sendable (Prompt) -> Int32 = { _ in KeychainStatus.success }
    ) {
        self.defaultAccessGroup = defaultAccessGroup
        self.user = user
    }

    /// Every prompt shown so far, in order.
    var prompts: [Prompt] { lock.withLock { promptLog } }

    /// Shows `prompt` and returns the user's answer. Caller does not hold the lock.
    private func ask(_ prompt: Prompt) -> Int32 {
        lock.withLock { promptLog.append(prompt) }
        return user(prompt)
    }

    /// A status every call answers instead of acting (a locked device, a missing entitlement); nil to act.
    var forcedStatus: Int32? {
        get { lock.withLock { forced } }
        set { lock.withLock { forced = newValue } }
    }

    /// The statuses of the protected reads reported so far, and how many times items were deleted.
    private var readEnds: [Int32] = []
    private var deletions = 0
    func protectedReadEnded(_ status: Int32) { lock.withLock { readEnds.append(status) } }
    func itemsDeleted() { lock.withLock { deletions += 1 } }
    /// What ``protectedReadEnded(_:)`` and ``itemsDeleted()`` were told.
    var reported: (readEnds: [Int32], deletions: Int) { lock.withLock { (readEnds, deletions) } }

    /// The operations called so far, in order (`add`, `update`, `copy`, `list`, `delete`).
    var calls: [String] { lock.withLock { log } }

    /// Every stored item's primary key, in the order they were added.
    var keys: [PrimaryKey] { lock.withLock { order } }

    /// The item's data, read as the system would without a prompt (for tests' assertions only).
    func peek(_ service: String, _ account: String, accessGroup: String? = nil) throws -> Data? {
        let key = PrimaryKey(service: service, account: account, accessGroup: accessGroup ?? defaultAccessGroup)
        return lock.withLock { items[key]?.data }
    }

    /// The attributes the item was last written with, or nil when there is no item with that key.
    func stored(_ service: String, _ account: String, accessGroup: String? = nil) -> KeychainQuery? {
        let key = PrimaryKey(service: service, account: account, accessGroup: accessGroup ?? defaultAccessGroup)
        return lock.withLock { items[key]?.attributes }
    }

    private func string(_ query: KeychainQuery, _ key: KeychainQuery.Key) -> String? {
        if case .string(let value)? = query.attributes[key] { return value }
        return nil
    }

    /// The keys of the items `query` matches, in insertion order. Caller holds the lock.
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

    func add(_ query: KeychainQuery) -> Int32 {
        lock.withLock {
            if let status = begin("add") { return status }
            guard query.attributes[.itemClass] == .genericPassword, let service = string(query, .service),
                case .data(let data)? = query.attributes[.valueData]
            else { return -50 }  // errSecParam
            let key = PrimaryKey(
                service: service, account: string(query, .account) ?? "",
                accessGroup: string(query, .accessGroup) ?? defaultAccessGroup)
            guard items[key] == nil else { return KeychainStatus.duplicateItem }
            items[key] = Item(data: data, attributes: query)
            order.append(key)
            return KeychainStatus.success
        }
    }

    func update(_ query: KeychainQuery, _ changes: KeychainQuery) -> Int32 {
        let (early, protected): (Int32?, [PrimaryKey]) = lock.withLock {
            if let status = begin("update") { return (status, []) }
            let keys = matches(query)
            guard !keys.isEmpty else { return (KeychainStatus.itemNotFound, []) }
            return (nil, keys.filter { items[$0]?.attributes.attributes[.accessControl] != nil })
        }
        if let early { return early }
        // Updating an access-controlled item asks the user first (see the type's rules).
        for key in protected {
            let status = ask(Prompt(operation: .update, key: key))
            guard status == KeychainStatus.success else { return status }
        }
        return lock.withLock {
            let keys = matches(query)
            guard !keys.isEmpty else { return KeychainStatus.itemNotFound }
            for key in keys {
                var item = items[key]!
                if case .data(let data)? = changes.attributes[.valueData] { item.data = data }
                // The protection is replaced as a whole: one of accessible / access control.
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

    func copyData(_ query: KeychainQuery) -> (Int32, Data?) {
        let (status, found): (Int32?, (PrimaryKey, Item)?) = lock.withLock {
            if let status = begin("copy") { return (status, nil) }
            return (nil, matches(query).first.map { ($0, items[$0]!) })
        }
        if let status { return (status, nil) }
        guard let (key, item) = found else { return (KeychainStatus.itemNotFound, nil) }
        if item.attributes.attributes[.accessControl] != nil {
            let status = ask(Prompt(operation: .read, key: key))
            guard status == KeychainStatus.success else { return (status, nil) }
        }
        return (KeychainStatus.success, item.data)
    }

    func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) {
        lock.withLock {
            if let status = begin("list") { return (status, []) }
            let accounts = matches(query).map(\.account)
            return accounts.isEmpty ? (KeychainStatus.itemNotFound, []) : (KeychainStatus.success, accounts)
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        lock.withLock {
            if let status = begin("delete") { return status }
            let keys = matches(query)
            guard !keys.isEmpty else { return KeychainStatus.itemNotFound }
            for key in keys { items[key] = nil }
            order.removeAll { keys.contains($0) }
            return KeychainStatus.success
        }
    }
}

import Foundation

/// Keychain accessibility classes Warden can express. The `Always` classes and the ones that sync to other
/// devices cannot be expressed at all.
///
/// | class | when readable | right for |
/// |---|---|---|
/// | `.whenUnlockedThisDeviceOnly` (default) | device unlocked, this device only | access and refresh tokens of foreground apps |
/// | `.afterFirstUnlockThisDeviceOnly` | after the first unlock since boot | tokens needed by background refresh / extensions |
/// | `.whenPasscodeSetThisDeviceOnly` | unlocked and a passcode is set; deleted if the passcode is removed | the most sensitive items |
public enum KeychainAccessibility: String, Sendable, CaseIterable {
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (the default): readable only while the device is unlocked, never
    /// synced.
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable after the first unlock since boot, never synced.
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: readable while the device is unlocked and has a passcode,
    /// never synced; the item is deleted if the passcode is removed.
    case whenPasscodeSetThisDeviceOnly
}

/// Access control for an item (`SecAccessControlCreateWithFlags`).
public enum KeychainAccessControl: Sendable, Equatable {
    /// No user presence required.
    case none
    /// Biometry of the currently enrolled set (`.biometryCurrentSet`): adding a finger or face invalidates the
    /// item — right for refresh tokens.
    case biometryCurrentSet
}

/// The portable description of one Keychain operation: which attributes it sets, built and tested on Linux.
/// The Apple file maps each key to its `kSec*` constant and nothing else.
package struct KeychainQuery: Equatable {
    package enum Key: String, CaseIterable {
        case itemClass, service, account, accessGroup, accessible, accessControl, valueData, returnData
        case returnAttributes, matchLimitOne, matchLimitAll, dataProtectionKeychain, authenticationContext
    }

    package enum Value: Equatable {
        case string(String)
        case data(Data)
        case bool(Bool)
        case accessibility(KeychainAccessibility)
        case accessControl(KeychainAccessibility, KeychainAccessControl)
        case genericPassword
        case context
    }

    package var attributes: [Key: Value]

    package init(attributes: [Key: Value]) { self.attributes = attributes }

    package struct Configuration: Equatable {
        package var accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly
        package var accessControl: KeychainAccessControl = .none
        package var accessGroup: String?
        /// macOS: use the data-protection keychain (iOS-style) instead of the legacy file keychain.
        package var useDataProtectionKeychain = true

        package init(
            accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly,
            accessControl: KeychainAccessControl = .none,
            accessGroup: String? = nil, useDataProtectionKeychain: Bool = true
        ) {
            self.accessibility = accessibility
            self.accessControl = accessControl
            self.accessGroup = accessGroup
            self.useDataProtectionKeychain = useDataProtectionKeychain
        }
    }

    static func base(_ configuration: Configuration, service: String, account: String?) -> KeychainQuery {
        var attributes: [Key: Value] = [.itemClass: .genericPassword, .service: .string(service)]
        if let account { attributes[.account] = .string(account) }
        if let group = configuration.accessGroup { attributes[.accessGroup] = .string(group) }
        if configuration.useDataProtectionKeychain { attributes[.dataProtectionKeychain] = .bool(true) }
        return KeychainQuery(attributes: attributes)
    }

    /// `SecItemAdd`: the item with its protection class (or access control) and data.
    static func add(_ configuration: Configuration, service: String, account: String, data: Data) -> KeychainQuery {
        var query = base(configuration, service: service, account: account)
        query.attributes[.valueData] = .data(data)
        if configuration.accessControl == .none {
            // The file-based macOS keychain takes kSecAttrAccessible only with kSecUseDataProtectionKeychain (Apple's
            // kSecAttrAccessible page): it is left out there.
            if configuration.useDataProtectionKeychain {
                query.attributes[.accessible] = .accessibility(configuration.accessibility)
            }
        } else {
            query.attributes[.accessControl] = .accessControl(configuration.accessibility, configuration.accessControl)
        }
        return query
    }

    /// The attributes `SecItemUpdate` changes after `errSecDuplicateItem`.
    static func updateAttributes(_ configuration: Configuration, data: Data) -> KeychainQuery {
        var attributes: [Key: Value] = [.valueData: .data(data)]
        if configuration.accessControl == .none {
            if configuration.useDataProtectionKeychain {
                attributes[.accessible] = .accessibility(configuration.accessibility)
            }
        } else {
            attributes[.accessControl] = .accessControl(configuration.accessibility, configuration.accessControl)
        }
        return KeychainQuery(attributes: attributes)
    }

    static func load(_ configuration: Configuration, service: String, account: String) -> KeychainQuery {
        var query = base(configuration, service: service, account: account)
        query.attributes[.returnData] = .bool(true)
        query.attributes[.matchLimitOne] = .bool(true)
        // A protected read gets its own, new LAContext (the Apple seam creates one per query), so one biometric
        // evaluation never unlocks the item for the rest of the process.
        if configuration.accessControl != .none { query.attributes[.authenticationContext] = .context }
        return query
    }

    static func list(_ configuration: Configuration, service: String) -> KeychainQuery {
        var query = base(configuration, service: service, account: nil)
        query.attributes[.returnAttributes] = .bool(true)
        query.attributes[.matchLimitAll] = .bool(true)
        return query
    }
}

/// `OSStatus` values Warden distinguishes (Security framework `SecBase.h`).
package enum KeychainStatus {
    package static let success: Int32 = 0
    package static let itemNotFound: Int32 = -25300
    package static let duplicateItem: Int32 = -25299
    package static let interactionNotAllowed: Int32 = -25308
    package static let missingEntitlement: Int32 = -34018
    package static let authFailed: Int32 = -25293
    package static let userCanceled: Int32 = -128
    package static let notAvailable: Int32 = -25291
    package static let decode: Int32 = -26275
    /// Not an OSStatus: the Apple seam returns it when `SecAccessControlCreateWithFlags` fails, instead of sending
    /// the item without its protection.
    package static let accessControlUnavailable: Int32 = -1_000_001

    /// Maps a failure status to a classified error (nil for success and not-found).
    package static func error(_ status: Int32) -> StorageError? {
        switch status {
        case success, itemNotFound: nil
        case interactionNotAllowed:
            StorageError(.interactionNotAllowed, "the keychain is not available right now (device locked)")
        case missingEntitlement: StorageError(.missingEntitlement, "the app lacks the keychain entitlement (-34018)")
        case userCanceled: StorageError(.userCancelled, "the user cancelled authentication")
        case authFailed: StorageError(.authenticationFailed, "keychain authentication failed")
        case notAvailable: StorageError(.serviceUnavailable, "no keychain is available")
        case decode: StorageError(.corruptedData, "the keychain item cannot be decoded")
        case accessControlUnavailable:
            StorageError(
                .accessControlUnavailable, "the item's access control could not be created; nothing was saved")
        default: StorageError(.backendFailure, "keychain status \(status)")
        }
    }
}

/// The seam every `SecItem*` call goes through. The Apple implementation calls the Security framework; tests use a
/// fake that behaves like the Keychain.
package protocol KeychainAPI: Sendable {
    func add(_ query: KeychainQuery) -> Int32
    func update(_ query: KeychainQuery, _ attributes: KeychainQuery) -> Int32
    func copyData(_ query: KeychainQuery) -> (Int32, Data?)
    func copyAccounts(_ query: KeychainQuery) -> (Int32, [String])
    func delete(_ query: KeychainQuery) -> Int32
    /// A read of an access-controlled item ended with `status` (the in-app reuse window starts or is dropped).
    func protectedReadEnded(_ status: Int32)
    /// The store deleted items: an in-app authentication must not outlive them (a sign-out, another account next).
    func itemsDeleted()
}

extension KeychainAPI {
    package func protectedReadEnded(_ status: Int32) {}
    package func itemsDeleted() {}
}

/// The Keychain logic (add-or-update, status mapping, validation) over any ``KeychainAPI``.
///
/// **Replacing an access-controlled item never prompts and never loses it.** `SecItemUpdate` on a
/// `.biometryCurrentSet` item asks for Face ID (the Keychain model's rule K7), so a rotated refresh token written in
/// place cost a second prompt per refresh, and a cancelled prompt (or the app sent to the background) failed the write
/// of a token the provider had already rotated. Adding and deleting never prompt (K8), but the Keychain has no atomic
/// replace, so a protected item is replaced through *staging* items (`<service>.rotating.1` … `.4`), where a higher
/// number is always newer:
/// 1. add the new value as the staging item one above the highest present (a replacement interrupted earlier may have
///    left some: each holds a newer value than the item);
/// 2. delete the item; 3. add the new value as the item; 4. delete the staging items, the new one last.
/// A read takes the highest staging item present, else the item: one prompt (a query that finds nothing shows none).
/// So a process killed after any step — also in a second replacement after a first was interrupted — leaves the newest
/// written value where the next read looks. A service too long for the suffix, or all staging slots taken, falls back
/// to an update in place.
struct KeychainLogic: Sendable {
    let api: any KeychainAPI
    let configuration: KeychainQuery.Configuration

    /// What is appended to a service to key its staging items (`<service>.rotating.<n>`).
    static let rotationSuffix = ".rotating."
    /// Staging slots: as many replacements in a row as can be interrupted before one completes.
    static let stagingSlots = 4

    /// The staging service `slot` (1-based) of `service`, or nil when the name leaves no room for the suffix.
    static func stagingService(_ service: String, slot: Int) -> String? {
        let name = service + rotationSuffix + String(slot)
        return name.utf8.count <= CredentialStoreLimits.maximumNameBytes ? name : nil
    }

    private var isProtected: Bool { configuration.accessControl != .none }

    func save(_ data: Data, service: String, account: String) throws(StorageError) {
        try CredentialStoreLimits.check(service: service, account: account)
        try CredentialStoreLimits.check(item: data)
        if isProtected, Self.stagingService(service, slot: Self.stagingSlots) != nil {
            let present = try stagedSlots(service: service, account: account)
            let next = (present.last ?? 0) + 1
            if next <= Self.stagingSlots {
                return try replaceWithoutPrompt(
                    data, service: service, account: account, staging: next, leftovers: present)
            }
        }
        var status = api.add(.add(configuration, service: service, account: account, data: data))
        if status == KeychainStatus.duplicateItem {
            status = api.update(
                .base(configuration, service: service, account: account), .updateAttributes(configuration, data: data))
        }
        if let error = KeychainStatus.error(status) { throw error }
        if status == KeychainStatus.itemNotFound {
            throw StorageError(.backendFailure, "the item vanished during update")
        }
    }

    /// The staging slots holding an item for `account`, ascending; found by attributes alone (no data: no prompt).
    private func stagedSlots(service: String, account: String) throws(StorageError) -> [Int] {
        var present: [Int] = []
        for slot in 1...Self.stagingSlots {
            guard let staging = Self.stagingService(service, slot: slot) else { continue }
            let (status, accounts) = api.copyAccounts(.list(configuration, service: staging))
            if let error = KeychainStatus.error(status) { throw error }
            if accounts.contains(account) { present.append(slot) }
        }
        return present
    }

    /// The four steps of the type's doc; only adds and deletes, which never prompt.
    private func replaceWithoutPrompt(
        _ data: Data, service: String, account: String, staging slot: Int, leftovers: [Int]
    ) throws(StorageError) {
        let staging = Self.stagingService(service, slot: slot)!
        try check(api.add(.add(configuration, service: staging, account: account, data: data)))
        try check(api.delete(.base(configuration, service: service, account: account)))
        try check(api.add(.add(configuration, service: service, account: account, data: data)))
        for old in leftovers + [slot] {
            try check(
                api.delete(.base(configuration, service: Self.stagingService(service, slot: old)!, account: account)))
        }
    }

    private func check(_ status: Int32) throws(StorageError) {
        if let error = KeychainStatus.error(status) { throw error }
    }

    func load(service: String, account: String) throws(StorageError) -> Data? {
        try CredentialStoreLimits.check(service: service, account: account)
        // A replacement interrupted before its last step left the newest value in the highest staging item: it wins.
        // Queries that find nothing show no prompt; the one that finds the item shows one.
        if isProtected {
            for slot in stride(from: Self.stagingSlots, through: 1, by: -1) {
                guard let staging = Self.stagingService(service, slot: slot),
                    let staged = try read(service: staging, account: account, staged: true)
                else { continue }
                return staged
            }
        }
        return try read(service: service, account: account, staged: false)
    }

    /// One read; a protected one reports how it ended (a staged read that found nothing showed no prompt).
    private func read(service: String, account: String, staged: Bool) throws(StorageError) -> Data? {
        let (status, data) = api.copyData(.load(configuration, service: service, account: account))
        if isProtected, !staged || status != KeychainStatus.itemNotFound { api.protectedReadEnded(status) }
        if let error = KeychainStatus.error(status) { throw error }
        return status == KeychainStatus.itemNotFound ? nil : data
    }

    /// Deletes the item and its staging items, whatever this store's protection (a store of another protection may
    /// have staged them: a staging item left behind would be read as the newest value).
    func delete(service: String, account: String?) throws(StorageError) {
        try CredentialStoreLimits.check(service: service, account: account)
        let status = api.delete(.base(configuration, service: service, account: account))
        for slot in 1...Self.stagingSlots {
            guard let staging = Self.stagingService(service, slot: slot) else { continue }
            try check(api.delete(.base(configuration, service: staging, account: account)))
        }
        api.itemsDeleted()
        if let error = KeychainStatus.error(status) { throw error }
    }

    func accounts(service: String) throws(StorageError) -> [String] {
        try CredentialStoreLimits.check(service: service)
        let (status, accounts) = api.copyAccounts(.list(configuration, service: service))
        if let error = KeychainStatus.error(status) { throw error }
        return accounts.sorted()
    }
}

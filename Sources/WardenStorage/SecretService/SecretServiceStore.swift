#if canImport(CLibSecret)
    import CLibSecret
    import Dispatch
    import Foundation

    /// A ``CredentialStore`` on the freedesktop Secret Service (GNOME Keyring, KWallet) through libsecret.
    ///
    /// Items use the schema `dev.warden.Credential` with `service` and `account` attributes; the bytes are stored
    /// base64-encoded as the secret (libsecret's password API is text). Only libsecret's `*v_sync` calls are used
    /// (the variadic ones do not import into Swift); they block, so they run on one serial queue, never on Swift's
    /// cooperative pool. A locked collection is ``StorageError/Code/locked`` (transient); no reachable service is
    /// ``StorageError/Code/serviceUnavailable``.
    ///
    /// Thread-safety: every libsecret call is serialised on `queue`.
    public final class SecretServiceStore: CredentialStore {
        static let schemaName = "dev.warden.Credential"
        private let queue = DispatchQueue(label: "warden.secret-service")
        /// A label shown in keyring managers (`Warden: <service> / <account>`).
        public let labelPrefix: String

        /// How long one call may take. A locked collection makes libsecret wait for an unlock prompt that a
        /// headless session never shows; the call is cancelled after this and reported as ``StorageError/Code/locked``.
        public let timeout: Duration

        public init(labelPrefix: String = "Warden", timeout: Duration = .seconds(10)) {
            self.labelPrefix = labelPrefix
            self.timeout = timeout
        }

        /// A `GCancellable` is thread-safe by GLib's documentation (cancel from any thread).
        struct Cancellable: @unchecked Sendable { let pointer: UnsafeMutablePointer<GCancellable> }

        /// `SecretSchema` built once with `secret_schema_newv`; it is immutable after creation and reference-counted
        /// by GLib, so sharing it is safe.
        private struct Schema: @unchecked Sendable { let pointer: UnsafeMutablePointer<SecretSchema> }
        private static let schema: Schema = {
            let types = warden_type_table()!
            warden_table_insert_type(types, "service", Int32(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue))
            warden_table_insert_type(types, "account", Int32(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue))
            let schema = secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types)!
            g_hash_table_unref(types)
            return Schema(pointer: schema)
        }()

        private func run<T: Sendable>(
            _ body: @escaping @Sendable (UnsafeMutablePointer<GCancellable>) throws(StorageError) -> T
        )
            async throws(StorageError) -> T
        {
            let components = timeout.components
            let milliseconds = Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
            let result: Result<T, StorageError> = await withCheckedContinuation { continuation in
                queue.async {
                    let cancellable = Cancellable(pointer: g_cancellable_new())
                    g_object_ref(cancellable.pointer)  // the timer's own reference, released after it fires
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                        g_cancellable_cancel(cancellable.pointer)
                        g_object_unref(cancellable.pointer)
                    }
                    defer { g_object_unref(cancellable.pointer) }
                    do throws(StorageError) {
                        continuation.resume(returning: .success(try body(cancellable.pointer)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
            return try result.get()
        }

        private static func attributes(service: String, account: String?) -> OpaquePointer {
            let table = warden_string_table()!
            warden_table_insert(table, "service", service)
            if let account { warden_table_insert(table, "account", account) }
            return table
        }

        static func map(_ error: UnsafeMutablePointer<GError>?, _ operation: String) -> StorageError? {
            guard let error else { return nil }
            defer { g_error_free(error) }
            if warden_error_is_locked(error) != 0 {
                return StorageError(.locked, "the keyring is locked")
            }
            if warden_error_is_cancelled(error) != 0 {
                return StorageError(
                    .locked, "the keyring did not answer in time (it is locked or waiting for an unlock prompt)")
            }
            let message = error.pointee.message.map { String(cString: $0) } ?? ""
            // No session bus, no org.freedesktop.secrets on it, or a bus that refuses us: nothing to retry against.
            if error.pointee.domain == g_dbus_error_quark() || error.pointee.domain == g_io_error_quark() {
                return StorageError(.serviceUnavailable, "no Secret Service is reachable on the session bus")
            }
            let safe = String(
                String.UnicodeScalarView(message.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 }.prefix(160)))
            return StorageError(.backendFailure, "\(operation) failed in the Secret Service (\(safe))")
        }

        public func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            try CredentialStoreLimits.check(service: service, account: account)
            try CredentialStoreLimits.check(item: data)
            let label = "\(labelPrefix): \(service) / \(account)"
            let secret = data.base64EncodedString()
            try await run { (cancellable) throws(StorageError) in
                let attributes = Self.attributes(service: service, account: account)
                defer { g_hash_table_unref(attributes) }
                var error: UnsafeMutablePointer<GError>?
                let ok = secret_password_storev_sync(
                    Self.schema.pointer, attributes, nil, label, secret, cancellable, &error)
                if let failure = Self.map(error, "store") { throw failure }
                guard ok != 0 else { throw StorageError(.backendFailure, "the Secret Service did not store the item") }
            }
        }

        public func load(service: String, account: String) async throws(StorageError) -> Data? {
            try CredentialStoreLimits.check(service: service, account: account)
            return try await run { (cancellable) throws(StorageError) -> Data? in
                let attributes = Self.attributes(service: service, account: account)
                defer { g_hash_table_unref(attributes) }
                var error: UnsafeMutablePointer<GError>?
                // Look first without unlocking: a locked item is reported as locked (transient) instead of
                // triggering an unlock prompt that a headless session cannot show.
                let found = secret_password_searchv_sync(
                    Self.schema.pointer, attributes, SECRET_SEARCH_NONE, cancellable, &error)
                if let failure = Self.map(error, "search") { throw failure }
                var node = found
                var sawLocked = false
                var sawItem = false
                while let current = node {
                    if let item = current.pointee.data {
                        sawItem = true
                        if warden_retrievable_is_locked(OpaquePointer(item)) != 0 { sawLocked = true }
                    }
                    node = current.pointee.next
                }
                g_list_free_full(found, g_object_unref)
                guard sawItem else { return nil }
                if sawLocked { throw StorageError(.locked, "the keyring holding this item is locked") }
                let secret = secret_password_lookupv_sync(Self.schema.pointer, attributes, cancellable, &error)
                if let failure = Self.map(error, "lookup") { throw failure }
                guard let secret else { return nil }
                defer { secret_password_free(secret) }
                guard let data = Data(base64Encoded: String(cString: secret)) else {
                    throw StorageError(.corruptedData, "the stored item is not Warden's format")
                }
                return data
            }
        }

        public func delete(service: String, account: String) async throws(StorageError) {
            try CredentialStoreLimits.check(service: service, account: account)
            try await clear(service: service, account: account)
        }

        public func deleteAll(service: String) async throws(StorageError) {
            try CredentialStoreLimits.check(service: service)
            try await clear(service: service, account: nil)
        }

        private func clear(service: String, account: String?) async throws(StorageError) {
            try await run { (cancellable) throws(StorageError) in
                let attributes = Self.attributes(service: service, account: account)
                defer { g_hash_table_unref(attributes) }
                var error: UnsafeMutablePointer<GError>?
                _ = secret_password_clearv_sync(Self.schema.pointer, attributes, cancellable, &error)
                if let failure = Self.map(error, "clear") { throw failure }
            }
        }

        public func accounts(service: String) async throws(StorageError) -> [String] {
            try CredentialStoreLimits.check(service: service)
            return try await run { (cancellable) throws(StorageError) -> [String] in
                let attributes = Self.attributes(service: service, account: nil)
                defer { g_hash_table_unref(attributes) }
                var error: UnsafeMutablePointer<GError>?
                let flags = SecretSearchFlags(rawValue: SECRET_SEARCH_ALL.rawValue)
                let list = secret_password_searchv_sync(Self.schema.pointer, attributes, flags, cancellable, &error)
                if let failure = Self.map(error, "search") { throw failure }
                var accounts: [String] = []
                var node = list
                while let current = node {
                    if let item = current.pointee.data,
                        let value = warden_retrievable_attribute(OpaquePointer(item), "account")
                    {
                        accounts.append(String(cString: value))
                        g_free(value)
                    }
                    node = current.pointee.next
                }
                g_list_free_full(list, g_object_unref)
                return Array(Set(accounts)).sorted()
            }
        }
    }
#endif

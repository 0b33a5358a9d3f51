#if WARDEN_SECRET_SERVICE
    import CSecretService
    import Dispatch
    import Foundation

    /// A ``CredentialStore`` on the freedesktop Secret Service (GNOME Keyring, KWallet) through libsecret.
    ///
    /// libsecret is loaded at run time (`libsecret-1.so.0`, see `CSecretService`), so building needs no libsecret
    /// headers; where the library or a Secret Service is missing every call fails with
    /// ``StorageErrorDomain/Code/serviceUnavailable`` (``probe()`` asks without touching any item).
    ///
    /// Items use the schema `dev.warden.Credential` with `service` and `account` attributes; the bytes are stored
    /// base64-encoded as the secret (libsecret's password API is text). Only libsecret's `*v_sync` calls are used;
    /// they block, so they run on one serial queue, never on Swift's cooperative pool. A locked collection is
    /// ``StorageErrorDomain/Code/locked`` (transient).
    ///
    /// ```swift
    /// let store = SecretServiceStore()
    /// try await store.save(Data("secret".utf8), service: "com.example.app", account: "alice")
    /// ```
    ///
    /// Thread-safety: every libsecret call is serialised on one queue.
    public final class SecretServiceStore: CredentialStore {
        private let queue = DispatchQueue(label: "warden.secret-service")
        /// A label shown in keyring managers (`Warden: <service> / <account>`).
        public let labelPrefix: String

        /// How long one call may take. A locked collection makes libsecret wait for an unlock prompt that a
        /// headless session never shows; the call is cancelled after this and reported as ``StorageErrorDomain/Code/locked``.
        public let timeout: Duration

        /// The lock holders of this store's grants share (a ``FileGrantLock`` under `$XDG_RUNTIME_DIR` when several
        /// processes refresh them, as `warden token` does); default: this process only.
        public let grantLock: any GrantLock

        /// A store labelling its items with `labelPrefix` (default `Warden`), giving each call `timeout` (default 10
        /// seconds), and sharing `grantLock` (default ``ProcessGrantLock/shared``).
        public init(
            labelPrefix: String = "Warden", timeout: Duration = .seconds(10),
            grantLock: any GrantLock = ProcessGrantLock.shared
        ) {
            self.grantLock = grantLock
            self.labelPrefix = labelPrefix
            self.timeout = timeout
        }

        /// Whether libsecret could be loaded (not whether a Secret Service answers: ``probe()`` asks that).
        public static var libraryLoaded: Bool { warden_secret_load(nil, 0) != 0 }

        /// Why libsecret could not be loaded, or nil when it was.
        public static var libraryLoadError: String? {
            var buffer = [CChar](repeating: 0, count: 256)
            guard warden_secret_load(&buffer, buffer.count) == 0 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Whether a Secret Service answers a search on the session bus (no item is read or written).
        public func probe() async -> Bool {
            (try? await run { cancellable, error in
                var found: Int32 = 0
                var locked: Int32 = 0
                return warden_secret_probe("dev.warden.probe", nil, cancellable, &found, &locked, error) != 0
            }) == true
        }

        /// The cancellation handle is a `GCancellable`, thread-safe by GLib's documentation (cancel from any thread).
        private struct Cancellable: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }

        /// Runs `body` on the serial queue with a cancellable that our timer cancels after ``timeout``; a failure
        /// `body` reports through the error record becomes a ``StorageError`` via ``SecretServiceFailure``.
        private func run<T: Sendable>(
            _ operation: String = "call",
            _ body:
                @escaping @Sendable (UnsafeMutableRawPointer, UnsafeMutablePointer<warden_secret_error>)
                throws(StorageError) -> T
        ) async throws(StorageError) -> T {
            if let why = Self.libraryLoadError {
                throw StorageError(.serviceUnavailable, "libsecret could not be loaded (\(why.prefix(160)))")
            }
            let components = timeout.components
            let milliseconds = Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
            let result: Result<T, StorageError> = await withCheckedContinuation { continuation in
                queue.async {
                    guard let raw = warden_secret_cancellable_new() else {
                        continuation.resume(returning: .failure(StorageError(.serviceUnavailable)))
                        return
                    }
                    let cancellable = Cancellable(pointer: raw)
                    warden_secret_cancellable_retain(raw)  // the timer's own reference, released after it fires
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                        warden_secret_cancellable_cancel(cancellable.pointer)
                        warden_secret_cancellable_release(cancellable.pointer)
                    }
                    defer { warden_secret_cancellable_release(raw) }
                    var error = warden_secret_error()
                    do throws(StorageError) {
                        let value = try body(raw, &error)
                        if let failure = Self.failure(error) {
                            continuation.resume(returning: .failure(failure.storageError(operation)))
                        } else {
                            continuation.resume(returning: .success(value))
                        }
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
            return try result.get()
        }

        static func failure(_ error: warden_secret_error) -> SecretServiceFailure? {
            let kind: SecretServiceFailure.Kind
            switch error.kind {
            case WARDEN_SECRET_OK: return nil
            case WARDEN_SECRET_ERROR_LOCKED: kind = .locked
            case WARDEN_SECRET_ERROR_CANCELLED: kind = .cancelled
            case WARDEN_SECRET_ERROR_DBUS: kind = .dbus
            case WARDEN_SECRET_ERROR_IO: kind = .io
            case WARDEN_SECRET_ERROR_SECRET: kind = .secret
            default: kind = .other
            }
            let message = withUnsafeBytes(of: error.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return SecretServiceFailure(kind: kind, code: Int(error.code), message: message)
        }

        public func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            try CredentialStoreLimits.check(service: service, account: account)
            try CredentialStoreLimits.check(item: data)
            let label = "\(labelPrefix): \(service) / \(account)"
            let secret = data.base64EncodedString()
            try await run("store") { cancellable, error in
                _ = warden_secret_store(service, account, label, secret, cancellable, error)
            }
        }

        public func load(service: String, account: String) async throws(StorageError) -> Data? {
            try CredentialStoreLimits.check(service: service, account: account)
            return try await run("lookup") { (cancellable, error) throws(StorageError) -> Data? in
                // Look first without unlocking: a locked item is reported as locked (transient) instead of
                // triggering an unlock prompt that a headless session cannot show.
                var found: Int32 = 0
                var locked: Int32 = 0
                guard warden_secret_probe(service, account, cancellable, &found, &locked, error) != 0 else {
                    return nil
                }
                guard found > 0 else { return nil }
                if locked > 0 { throw StorageError(.locked, "the keyring holding this item is locked") }
                guard let secret = warden_secret_lookup(service, account, cancellable, error) else { return nil }
                defer { warden_secret_free(secret) }
                guard let data = Data(base64Encoded: String(cString: secret)) else {
                    throw StorageError(.corruptedData, "the stored item is not Warden's format")
                }
                return data
            }
        }

        public func delete(service: String, account: String) async throws(StorageError) {
            try CredentialStoreLimits.check(service: service, account: account)
            try await run("clear") { cancellable, error in _ = warden_secret_clear(service, account, cancellable, error)
            }
        }

        public func deleteAll(service: String) async throws(StorageError) {
            try CredentialStoreLimits.check(service: service)
            try await run("clear") { cancellable, error in _ = warden_secret_clear(service, nil, cancellable, error) }
        }

        /// Collects the values `warden_secret_accounts` visits (called synchronously on the store's queue).
        private final class Collector {
            var accounts: Set<String> = []
        }

        public func accounts(service: String) async throws(StorageError) -> [String] {
            try CredentialStoreLimits.check(service: service)
            return try await run("search") { cancellable, error -> [String] in
                let collector = Collector()
                let context = Unmanaged.passRetained(collector).toOpaque()
                defer { Unmanaged<Collector>.fromOpaque(context).release() }
                _ = warden_secret_accounts(
                    service, cancellable, context,
                    { context, value in
                        guard let context, let value else { return }
                        Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().accounts.insert(
                            String(cString: value))
                    }, error)
                return collector.accounts.sorted()
            }
        }
    }
#endif

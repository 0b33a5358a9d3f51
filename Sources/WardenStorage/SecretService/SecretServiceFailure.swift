/// What a failed libsecret call reported, as the loader classified it, mapped to a ``StorageError``.
///
/// Kept apart from the store so the mapping is tested without a daemon: a locked collection and a call our timeout
/// cancelled are transient (``StorageErrorDomain/Code/locked``); a D-Bus or GIO failure (no session bus, no socket, no
/// Secret Service on the bus) is ``StorageErrorDomain/Code/serviceUnavailable``; anything else is a ``StorageErrorDomain/Code/backendFailure`` whose reason
/// keeps only printable ASCII of GLib's message, capped at 160 characters (libsecret's messages name objects and
/// D-Bus paths, never secret values).
package struct SecretServiceFailure: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case locked, cancelled, dbus, io, secret, other
    }
    package let kind: Kind
    package let code: Int
    package let message: String

    package init(kind: Kind, code: Int = 0, message: String = "") {
        self.kind = kind
        self.code = code
        self.message = message
    }

    /// The error for `operation` (e.g. "store", "lookup").
    package func storageError(_ operation: String) -> StorageError {
        switch kind {
        case .locked:
            return StorageError(.locked, "the keyring is locked")
        case .cancelled:
            return StorageError(
                .locked, "the keyring did not answer in time (it is locked or waiting for an unlock prompt)")
        case .dbus, .io:
            return StorageError(.serviceUnavailable, "no Secret Service is reachable on the session bus")
        case .secret, .other:
            let safe = String(
                String.UnicodeScalarView(
                    message.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(160)))
            return StorageError(.backendFailure, "\(operation) failed in the Secret Service (\(safe))")
        }
    }
}

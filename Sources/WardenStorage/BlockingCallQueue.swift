import Dispatch

/// Runs blocking OS calls (`SecItem*`, libsecret) one at a time on a dedicated serial queue, never on Swift's
/// cooperative thread pool.
///
/// `SecItem*` can block for a long time (a biometric prompt, a locked keychain, `securityd` contention); running it
/// on the cooperative pool starves every other task of a thread, and unserialised add-then-update sequences race.
/// Keychain stores without access control share ``keychain``; stores whose reads may prompt share
/// ``protectedKeychain``, so a prompt waiting for the user never holds up the other Keychain calls.
///
/// Thread-safety: a serial `DispatchQueue`; `run` may be called from any task.
package final class BlockingCallQueue: Sendable {
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    /// The queue the process's Keychain calls on items without access control go through.
    package static let keychain = BlockingCallQueue(label: "dev.warden.keychain")
    /// The queue for stores whose items are access-controlled (`.biometryCurrentSet`): their reads block until the
    /// user answers a prompt.
    package static let protectedKeychain = BlockingCallQueue(label: "dev.warden.keychain.protected")

    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the current thread is this queue's (for tests and assertions).
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    package func run<T: Sendable>(_ body: @escaping @Sendable () throws(StorageError) -> T) async throws(StorageError)
        -> T
    {
        let result: Result<T, StorageError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(StorageError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

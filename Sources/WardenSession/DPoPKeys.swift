import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

/// Where a client's DPoP key lives between launches. On Apple platforms `SecureEnclaveDPoPKey.loadOrCreate`
/// (WardenApple) keeps a Secure Enclave key and falls back to this software key where there is no Secure Enclave
/// (the simulator, older Macs); on Linux the software key is kept in the credential store (the Secret Service).
///
/// The tokens record the key's thumbprint; if the stored key is lost, the session signs out instead of using the
/// tokens (``AuthSession/restore(store:service:account:refresher:sentinel:now:dpop:)``).
///
/// ```swift
/// let key = try await DPoPKeys.software(store: SecretServiceStore(), service: "com.example.dpop", account: "alice")
/// ```
public enum DPoPKeys {
    /// The software P-256 key stored for `account`, created and stored on first use.
    public static func software(store: any CredentialStore, service: String, account: String) async throws
        -> SoftwareDPoPKey
    {
        if let data = try await store.load(service: service, account: account) {
            guard let pem = String(data: data, encoding: .utf8), let key = try? SoftwareDPoPKey(pem: pem) else {
                throw StorageError(.corruptedData, "the stored DPoP key cannot be read; delete it and sign in again")
            }
            return key
        }
        let key = try SoftwareDPoPKey()
        try await store.save(Data(key.pkcs8PEM().unredacted().utf8), service: service, account: account)
        return key
    }
}

import Foundation

extension ContiguousBytes {
    /// `withUnsafeBytes` for a body that throws only ``CryptoError``.
    ///
    /// Foundation's `withUnsafeBytes` is `rethrows`, which widens any error to `any Error`; WardenCrypto's rule is
    /// that everything it throws is a ``CryptoError``, typed all the way out, so its bodies go through this.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R) throws(CryptoError) -> R {
        let result: Result<R, CryptoError> = withUnsafeBytes { bytes in
            Result { () throws(CryptoError) -> R in try body(bytes) }
        }
        return try result.get()
    }
}

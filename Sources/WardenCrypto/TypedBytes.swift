import Foundation

extension ContiguousBytes {
    /// `withUnsafeBytes` for a body that throws only ``CryptoError``.
    ///
    /// Foundation's `withUnsafeBytes` is `rethrows`, which widens any error to `any Error`; WardenCrypto's rule is
    /// that everything it throws is a ``CryptoError``, typed all the way out, so its bodies go through this.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R) throws(CryptoError) -> R {
        // A typed do/catch and a switch, not `Result(catching:)` and `get()`, which throw typed errors only in Swift
        // 6's standard library: this way the module also type-checks against the iOS SDK probe's older one.
        let outcome: Result<R, CryptoError> = withUnsafeBytes { bytes in
            do throws(CryptoError) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}

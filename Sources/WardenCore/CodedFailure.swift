/// The codes of one module's errors and how each is to be handled: what makes ``CodedFailure`` that module's error
/// type (`CryptoError` is `CodedFailure<CryptoErrorDomain>`).
public protocol ErrorDomain: Sendable {
    /// The code type: a struct of static values whose `description` is the stable name (`invalid_key`).
    associatedtype Code: Hashable, Sendable, CustomStringConvertible
    /// How a caller should react to `code`.
    static func failureKind(of code: Code) -> FailureKind
}

/// The one shape of a Warden module error: a stable ``code``, a ``reason`` that never contains a secret, the
/// ``file`` and ``line`` that raised it, and the ``failureKind`` its domain gives the code. `==` compares the code
/// only, so tests write `#expect(throws: CryptoError(.weakKey))` whatever the reason and the location.
///
/// Modules name their specialisation (`public typealias StorageError = CodedFailure<StorageErrorDomain>`); errors
/// that carry more (an HTTP status, a retry time, a system error's domain) are their own ``CodedError`` types.
public struct CodedFailure<Domain: ErrorDomain>: CodedError {
    /// The domain's code type.
    public typealias Code = Domain.Code

    public let code: Code
    public let reason: String
    /// Where Warden raised the error (`#fileID`: module and file), for bug reports; never compared by `==`.
    public let file: String
    /// The line of ``file``.
    public let line: Int

    /// Creates an error; `reason` must not contain secret material, and an empty one reads as the code in words.
    public init(_ code: Code, _ reason: String = "", file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = Self.reason(reason, or: code)
        self.file = file
        self.line = line
    }

    public var failureKind: FailureKind { Domain.failureKind(of: code) }
}

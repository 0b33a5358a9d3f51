import WardenCore

/// Why a Redis call failed. Every failure of the server or the network is ``FailureKind/transient``: the one-time
/// stores built on it then refuse (a challenge or a proof is never "not seen before" because Redis did not answer).
public typealias RedisError = CodedFailure<RedisErrorDomain>

/// The codes of ``RedisError`` and how a caller should react to each.
public enum RedisErrorDomain: ErrorDomain {
    /// Authentication and configuration errors need an operator; everything else may pass with a retry.
    public static func failureKind(of code: Code) -> FailureKind {
        code == .authenticationFailed || code == .invalidConfiguration || code == .libraryMissing
            ? .misconfiguration : .transient
    }

    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case unreachable = "redis_unreachable"
            case timedOut = "redis_timed_out"
            case connectionLost = "redis_connection_lost"
            case authenticationFailed = "redis_authentication_failed"
            case errorReply = "redis_error_reply"
            case unexpectedReply = "redis_unexpected_reply"
            case invalidConfiguration = "redis_invalid_configuration"
            case replyTooLarge = "redis_reply_too_large"
            case libraryMissing = "redis_library_missing"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// The server could not be reached (refused, no route, name not resolved).
        public static let unreachable = Code(.unreachable)
        /// Connecting or a command took longer than its timeout.
        public static let timedOut = Code(.timedOut)
        /// The connection broke during a command (the server restarted or closed it).
        public static let connectionLost = Code(.connectionLost)
        /// `AUTH` was refused (a wrong password or ACL user), or the server requires one and none was given.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// The server answered a command with an error (`-ERR ...`, `-OOM ...`, `-READONLY ...`).
        public static let errorReply = Code(.errorReply)
        /// A reply of a type the command never returns, bytes that are not a Redis reply, or more than one reply.
        public static let unexpectedReply = Code(.unexpectedReply)
        /// A reply larger than a store ever reads (``RedisReplyReader/maximumBytes``): the connection is dropped.
        public static let replyTooLarge = Code(.replyTooLarge)
        /// hiredis is not installed (Debian's `libhiredis0.14` or `libhiredis1.1.0`, Homebrew's `hiredis`), or this
        /// platform does not load it.
        public static let libraryMissing = Code(.libraryMissing)
        /// A URL or setting that cannot work (an unknown scheme, `rediss://`, a database out of range).
        public static let invalidConfiguration = Code(.invalidConfiguration)
    }
}

import Foundation

/// Anything with HTTP headers.
public protocol HTTPMessage: Sendable {
    /// The header fields, name to value; ``HTTPMessage/header(_:)`` looks one up ignoring case.
    var headers: [String: String] { get }
}

extension HTTPMessage {
    /// The value of a header, case-insensitively (RFC 9110 §5.1).
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// An HTTP request as Warden sends it. Printing it never shows secrets: the URL and headers go through
/// ``Redactor``.
///
/// The transport seam lives in WardenCore (not WardenOAuth) because WardenJOSE's ``JWKSCache``-style fetchers
/// need it too and JOSE may not depend on OAuth.
public struct HTTPRequest: HTTPMessage, CustomStringConvertible {
    /// The HTTP method, `GET` by default.
    public var method: String
    /// The request URL.
    public var url: URL
    public var headers: [String: String]
    /// The request body, if any.
    public var body: Data?
    /// Per-request timeout in seconds.
    public var timeout: TimeInterval

    /// A request; by default a `GET` with no headers, no body and a 30-second timeout.
    public init(
        method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 30
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    public var description: String {
        "\(method) \(Redactor.standard.redact(url.absoluteString)) headers: \(Redactor.standard.redact(headers: headers).sorted { $0.key < $1.key })"
    }
}

/// An HTTP response, as a transport returns it or as the loopback server sends it.
public struct HTTPResponse: HTTPMessage {
    /// The HTTP status code.
    public var status: Int
    public var headers: [String: String]
    /// The response body; empty when there is none.
    public var body: Data

    /// A response; no headers and an empty body by default.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends HTTP requests. Warden's URLSession transport implements it; tests use fakes; apps can plug their own
/// networking stack.
///
/// Implementations throw ``TransportError`` for failures below HTTP (timeouts, offline, DNS) and return every HTTP
/// status as a response.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status; throws ``TransportError`` when no HTTP
    /// response arrives.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// A failure below HTTP, classified for retry decisions.
public typealias TransportError = CodedFailure<TransportErrorDomain>

/// The codes of ``TransportError`` and how a caller should react to each.
public enum TransportErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        switch code {
        case .cancelled: .userCancelled
        case .insecureURL, .pinningUnsupported: .misconfiguration
        case .responseTooLarge, .redirectRefused, .pinningFailed: .rejected
        default: .transient
        }
    }

    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable {
            case timedOut = "timed_out"
            case cannotConnect = "cannot_connect"
            case connectionLost = "connection_lost"
            case dnsLookupFailed = "dns_lookup_failed"
            case notConnected = "not_connected"
            case cancelled
            case responseTooLarge = "response_too_large"
            case insecureURL = "insecure_url"
            case redirectRefused = "redirect_refused"
            case pinningUnsupported = "pinning_unsupported"
            case pinningFailed = "pinning_failed"
            case other
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// The request did not complete within its timeout.
        public static let timedOut = Code(.timedOut)
        /// No connection to the server could be made.
        public static let cannotConnect = Code(.cannotConnect)
        /// The connection broke while the request was in flight.
        public static let connectionLost = Code(.connectionLost)
        /// The server's host name could not be resolved.
        public static let dnsLookupFailed = Code(.dnsLookupFailed)
        /// The device has no usable network connection.
        public static let notConnected = Code(.notConnected)
        /// The request was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The response (its body, or the `Content-Length` it announces) is over the transport's size cap.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// A non-https URL to a non-loopback host.
        public static let insecureURL = Code(.insecureURL)
        /// A redirect (3xx) was answered where Warden never follows one (its own transport follows none).
        public static let redirectRefused = Code(.redirectRefused)
        /// Certificate pins were configured on a platform whose networking cannot evaluate them (Linux's
        /// FoundationNetworking exposes no server trust): refused rather than silently not pinning.
        public static let pinningUnsupported = Code(.pinningUnsupported)
        /// The server's certificate chain matched no configured pin.
        public static let pinningFailed = Code(.pinningFailed)
        /// Any other failure below HTTP (e.g. a response that is not HTTP).
        public static let other = Code(.other)
    }
}

extension TransportError {
    /// Whether the failure is about reaching the server (offline, DNS, refused, lost, timed out) — what makes a
    /// session offline. A too-large response, an insecure URL, a refused redirect or a pinning failure is not.
    public var isConnectivity: Bool {
        [.timedOut, .cannotConnect, .connectionLost, .dnsLookupFailed, .notConnected].contains(code)
    }
}

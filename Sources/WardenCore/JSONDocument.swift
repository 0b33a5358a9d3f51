import Foundation

/// A type parsed from one JSON document. Every parse initialiser in Warden has the one label `json:` and takes the
/// document's bytes; this protocol gives each the same `String` and `Data` forms, so callers pass what they have.
///
/// ```swift
/// let keys = try JWKSet(json: jwksText)                 // String
/// let record = try CredentialRecord(json: storedBytes)  // [UInt8]
/// let tokens = try TokenResponse(json: response.body)   // Data
/// ```
public protocol JSONDocument {
    /// What a refused document throws (the module's error type).
    associatedtype ParseError: Error
    /// Parses the document's UTF-8 bytes.
    init(json: [UInt8]) throws(ParseError)
}

extension JSONDocument {
    /// Parses the document from its text.
    public init(json text: String) throws(ParseError) { try self.init(json: Array(text.utf8)) }
    /// Parses the document from `Data` (an HTTP body, a file).
    public init(json data: Data) throws(ParseError) { try self.init(json: Array(data)) }
}

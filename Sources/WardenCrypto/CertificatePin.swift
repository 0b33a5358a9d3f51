import Foundation

/// An HPKP-style SPKI pin: the SHA-256 of a certificate's DER `SubjectPublicKeyInfo`, written
/// `sha256/<base64>`.
///
/// The value is byte-identical to
/// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
///
/// ```swift
/// let pins = try CertificatePin.pins(fromCertificates: Array(pemData))   // one per certificate in the chain
/// print(pins[0])   // sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=
/// ```
public struct CertificatePin: Hashable, Sendable, CustomStringConvertible {
    /// The 32-byte SHA-256 of the SPKI.
    public let sha256: [UInt8]

    /// A pin from a digest; `nil` unless it is 32 bytes.
    public init?(sha256: [UInt8]) {
        guard sha256.count == 32 else { return nil }
        self.sha256 = sha256
    }

    /// Parses `sha256/<base64>`; `nil` for anything else.
    public init?(_ text: String) {
        guard text.hasPrefix("sha256/"), let digest = Data(base64Encoded: String(text.dropFirst(7))) else {
            return nil
        }
        self.init(sha256: Array(digest))
    }

    /// The pin of a DER `SubjectPublicKeyInfo`.
    public init(spkiDER: [UInt8]) { sha256 = HashFunction.sha256.hash(spkiDER) }

    public var description: String { "sha256/" + Data(sha256).base64EncodedString() }

    /// The largest certificate input accepted.
    public static let maximumInputBytes = 1 << 20

    /// One pin per certificate in `input`: a PEM chain (any number of `CERTIFICATE` blocks) or one DER
    /// certificate.
    ///
    /// - Throws: ``CryptoErrorDomain/Code/inputTooLarge`` over 1 MiB, ``CryptoErrorDomain/Code/noCertificate`` when the input
    ///   holds no certificate, ``CryptoErrorDomain/Code/malformedInput`` for a certificate that does not parse.
    public static func pins(fromCertificates input: [UInt8]) throws(CryptoError) -> [CertificatePin] {
        try subjectPublicKeyInfos(fromCertificates: input).map(CertificatePin.init(spkiDER:))
    }

    /// The DER `SubjectPublicKeyInfo` of each certificate in `input` (see ``pins(fromCertificates:)``).
    public static func subjectPublicKeyInfos(fromCertificates input: [UInt8]) throws(CryptoError) -> [[UInt8]] {
        let certificates = try CertificateInput.derCertificates(input)
        guard !certificates.isEmpty else {
            throw CryptoError(.noCertificate, "input is neither PEM nor a DER certificate")
        }
        return try certificates.map { (der) throws(CryptoError) in try CertificateBackend.spki(fromDER: der) }
    }
}

/// Splits certificate input into DER certificates: a PEM bundle (its `CERTIFICATE` blocks) or one DER certificate.
@_spi(Fuzzing) public enum CertificateInput {
    /// The DER certificates in `input`; empty for input that is neither PEM nor DER-shaped (a SEQUENCE).
    ///
    /// - Throws: ``CryptoErrorDomain/Code/noCertificate`` for empty input or PEM without a `CERTIFICATE` block,
    ///   ``CryptoErrorDomain/Code/inputTooLarge`` over 1 MiB, ``CryptoErrorDomain/Code/malformedInput`` for PEM that is not
    ///   UTF-8 or not well formed.
    @_spi(Fuzzing) public static func derCertificates(_ input: [UInt8]) throws(CryptoError) -> [[UInt8]] {
        guard !input.isEmpty else { throw CryptoError(.noCertificate, "empty input") }
        guard input.count <= CertificatePin.maximumInputBytes else {
            throw CryptoError(.inputTooLarge, "certificate input over 1 MiB")
        }
        let marker = Array("-----BEGIN ".utf8)
        let isPEM =
            input.count >= marker.count
            && (0...(input.count - marker.count)).contains { input[$0..<($0 + marker.count)].elementsEqual(marker) }
        guard isPEM else { return input.first == 0x30 ? [input] : [] }
        guard let text = String(bytes: input, encoding: .utf8) else {
            throw CryptoError(.malformedInput, "PEM input is not UTF-8")
        }
        let blocks = try PEM.blocks(text).filter { $0.label == "CERTIFICATE" }
        guard !blocks.isEmpty else { throw CryptoError(.noCertificate, "no CERTIFICATE block in the PEM input") }
        return blocks.map(\.der)
    }
}

import Foundation
import FuzzSupport
@_spi(Fuzzing) import WardenCrypto

/// Arbitrary text through the PEM reader (RFC 7468) and everything that takes PEM: the certificate input splitter,
/// certificate bundles, public-key and private-key PEM. The blocks read back from their canonical re-encoding;
/// `decodeSingle` agrees with `blocks`; the certificate splitter returns exactly the `CERTIFICATE` blocks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)

    let blocks = try? PEM.blocks(text)
    if let blocks {
        for block in blocks {
            require(!block.label.isEmpty && !block.der.isEmpty, "an empty block or label")
        }
        let canonical = blocks.map { block in
            "-----BEGIN \(block.label)-----\n"
                + Data(block.der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
                + "\n-----END \(block.label)-----\n"
        }.joined()
        guard let again = try? PEM.blocks(canonical) else { fatalError("canonical PEM does not read back") }
        require(again.map(\.label) == blocks.map(\.label), "labels change through re-encoding")
        require(again.map(\.der) == blocks.map(\.der), "contents change through re-encoding")
        for label in Set(blocks.map(\.label)).prefix(2) {
            let matching = blocks.filter { $0.label == label }
            let single = try? PEM.decodeSingle(text, label: label)
            require(single == (matching.count == 1 ? matching[0].der : nil), "decodeSingle(\(label)) disagrees")
        }
    }

    let marker = occurs("-----BEGIN ".utf8, in: bytes)
    if let certificates = try? CertificateInput.derCertificates(bytes) {
        if marker {
            // The splitter reads the text with Foundation's UTF-8 decoding (which may drop a byte-order mark).
            let expected = String(bytes: bytes, encoding: .utf8).flatMap { try? PEM.blocks($0) }?
                .filter { $0.label == "CERTIFICATE" }.map(\.der)
            require(certificates == expected && !certificates.isEmpty, "the splitter's certificates are not the blocks")
        } else {
            require(certificates == (bytes.first == 0x30 ? [bytes] : []), "non-PEM input split")
        }
    }
    if let certificates = try? X509Certificate.certificates(pemOrDER: bytes) {
        require(!certificates.isEmpty, "an empty certificate list")
        let spkis = try? CertificatePin.subjectPublicKeyInfos(fromCertificates: bytes)
        if let spkis {
            require(spkis.count == certificates.count, "\(spkis.count) pins for \(certificates.count) certificates")
        }
    }
    if let key = try? PublicKey(pem: text) {
        require((try? PublicKey(spkiDER: key.spkiDER))?.spkiDER == key.spkiDER, "a PEM key does not round-trip")
    }
    // Private keys: Warden's PKCS#8 / SEC 1 / PKCS#1 reader, then the backend. Every label it accepts contains
    // `PRIVATE KEY`, so other inputs would only repeat the PEM reading above.
    if text.contains("PRIVATE KEY") {
        _ = try? ECPrivateKey(pem: text)
        _ = try? RSAPrivateKey(pem: text)
    }
    return 0
}

@_cdecl("FuzzPEM_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}

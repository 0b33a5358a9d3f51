import Foundation

/// Minimal, strict PEM (RFC 7468) block reading, shared by both backends.
@_spi(Fuzzing) public enum PEM {
    @_spi(Fuzzing) public struct Block {
        @_spi(Fuzzing) public let label: String
        @_spi(Fuzzing) public let der: [UInt8]
    }

    /// Every `-----BEGIN X----- ... -----END X-----` block in `text`, in order.
    @_spi(Fuzzing) public static func blocks(_ text: String) throws(CryptoError) -> [Block] {
        guard text.utf8.count <= PublicKey.maximumInputBytes else {
            throw CryptoError(.inputTooLarge, "PEM input over 1 MiB")
        }
        var result: [Block] = []
        var label: String?
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let current = label {
                if line == "-----END \(current)-----" {
                    guard let der = Data(base64Encoded: body), !der.isEmpty else {
                        throw CryptoError(.malformedInput, "the \(current) block is not valid base64")
                    }
                    result.append(Block(label: current, der: Array(der)))
                    label = nil
                    body = ""
                } else if line.hasPrefix("-----") {
                    throw CryptoError(.malformedInput, "unterminated PEM block \(current)")
                } else if !line.contains(":") {  // skip RFC 1421 headers such as Proc-Type
                    body += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                label = String(line.dropFirst(11).dropLast(5))
            }
        }
        if let current = label { throw CryptoError(.malformedInput, "unterminated PEM block \(current)") }
        return result
    }

    /// The single block labelled `label`.
    @_spi(Fuzzing) public static func decodeSingle(_ text: String, label: String) throws(CryptoError) -> [UInt8] {
        let matching = try blocks(text).filter { $0.label == label }
        guard matching.count == 1 else {
            throw CryptoError(.malformedInput, "expected exactly one PEM \(label) block, found \(matching.count)")
        }
        return matching[0].der
    }
}

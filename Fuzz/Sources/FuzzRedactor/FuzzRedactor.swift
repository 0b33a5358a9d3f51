import FuzzSupport
import WardenCore

/// Arbitrary text through the redactor (``Redactor`` and its byte scanner), with options from the first byte.
/// Besides never crashing: a secret placed as a sensitive parameter, JSON member or header between arbitrary
/// fuzz text never survives, and text that holds no candidate comes back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let options = input.byte()
    let split = Int(input.byte())
    let bytes = input.rest()
    let text = String(decoding: bytes, as: UTF8.self)
    let redactor =
        options == 0
        ? Redactor.standard
        : Redactor(
            options: Redactor.Options(
                keepLastCharacters: Int(options & 7), highEntropyMinimumLength: 16 + Int(options >> 3)))

    let redacted = redactor.redact(text)
    require(redactor.redact(text) == redacted, "redaction is not deterministic")
    if !text.utf8.contains(where: isCandidate) {
        require(redacted == text, "text without names, tokens or URLs changed")
    }

    // A canary between two halves of the input, in each sensitive position.
    let cut = min(split, bytes.count)
    let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
    let suffix = String(decoding: bytes[cut...], as: UTF8.self)
    guard !occurs(Fixture.canary.utf8, in: text.utf8) else { return 0 }
    // Fuzz/Crashes/FuzzRedactor/pending-json-member-then-header: a prefix ending in `{"access_token":` once hid
    // the header line that follows.
    for template in Fixture.templates {
        let line = prefix + template.replacingOccurrences(of: "$", with: Fixture.canary) + suffix
        require(!occurs(Fixture.canary.utf8, in: redactor.redact(line).utf8), "the secret survived: \(line)")
    }
    for name in ["Authorization", "cookie", "X-API-KEY"] {
        let headers = redactor.redact(headers: [name: prefix + " " + Fixture.canary + suffix, "Accept": text])
        require(!occurs(Fixture.canary.utf8, in: headers[name]!.utf8), "a \(name) header survived")
        require(headers["Accept"] == redacted, "a plain header is not redacted like text")
    }
    return 0
}

/// Bytes that can start something the scanner rewrites: a name/token character or the `:` of `://`.
func isCandidate(_ c: UInt8) -> Bool {
    switch c {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: ":"):
        true
    default: false
    }
}

enum Fixture {
    /// Letters and digits only, so no placeholder (which always holds `<`) can complete it by accident.
    static let canary = "Zq8canaryXk3Wv7secretPp2Lm9"
    /// Where `$` (the canary) is a secret. The JSON ones open an object first: after a prefix that ends with
    /// `"access_token":`, a bare `"password"` would be that member's string value, not a name.
    static let templates = [
        "&code=$&", "?access_token=$#", " client_secret=$ ", "\n{\"refresh_token\": \"$\"}\n", "\n{\"password\":$,",
        " https://user:$@host/ ", " OAUTH_SIGNATURE=$;", "\nAuthorization: Bearer $\r\n", "\nCookie: $\n",
    ]
}

@_cdecl("FuzzRedactor_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}

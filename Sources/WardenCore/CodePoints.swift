/// Protocol identifiers — `iss`, `aud`, `azp`, `sub`, a metadata `issuer`, `client_id`, `htm`/`htu`, origins — compared
/// as RFC 7519 §7.3 and RFC 9207 §2.4 require: code point by code point, never by Swift's `String ==`, which calls
/// canonically equivalent spellings equal (U+212A KELVIN SIGN for `K`, a decomposed `é` for the precomposed one).
///
/// ```swift
/// CodePoints.equal("\u{212A}iosk", "Kiosk")        // false ("\u{212A}iosk" == "Kiosk" is true)
/// CodePoints.contains(["app", "api"], "app")       // true
/// ```
public enum CodePoints {
    /// Whether `a` and `b` are the same Unicode scalars (the same UTF-8 bytes).
    public static func equal(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// Whether `values` holds `value`, code point for code point.
    public static func contains<S: Sequence>(_ values: S, _ value: String) -> Bool where S.Element == String {
        values.contains { equal($0, value) }
    }

    /// Whether two lists hold the same values (each at least once), code point for code point.
    public static func sameSet(_ a: [String], _ b: [String]) -> Bool {
        a.allSatisfy { contains(b, $0) } && b.allSatisfy { contains(a, $0) }
    }
}

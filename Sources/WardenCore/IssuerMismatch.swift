/// Explains a configured issuer that is not the one a provider announces, with both values (issuers are public) and
/// the likely fix, so a configuration error says what to do.
///
/// ```swift
/// IssuerMismatch.explain(configured: "https://example.us.auth0.com", announced: "https://example.us.auth0.com/")
/// // … differ only by the trailing slash: configure exactly "https://example.us.auth0.com/"
/// ```
public enum IssuerMismatch {
    /// `value` in quotes, control, format (bidi overrides, zero-width) and line/paragraph-separator characters escaped,
    /// cut at 256 characters (it may come from the network, and must not reorder or hide what a reader sees).
    public static func quoted(_ value: String) -> String {
        var text = ""
        for scalar in value.unicodeScalars.prefix(256) {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where isHidden(scalar): text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return "\"" + text + (value.unicodeScalars.count > 256 ? "…" : "") + "\""
    }

    /// `text` for a terminal: control, format and separator characters escaped as `\u{…}`, everything else as is
    /// (a report line that quotes network values, which must not move the cursor or reorder what follows).
    public static func controlsEscaped(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Characters that are not shown as themselves: C0/C1 controls, DEL, format (bidi, zero-width), separators.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || [.format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
    }

    /// The sentence for `configured` ≠ `announced`.
    public static func explain(configured: String, announced: String) -> String {
        let values = "the configured issuer \(quoted(configured)) is not the announced \(quoted(announced))"
        let hint: String
        if configured + "/" == announced || configured == announced + "/" {
            hint = "they differ only by the trailing slash: configure exactly \(quoted(announced))"
        } else if announced.contains("{tenantid}") || announced.contains("{tenantId}") {
            hint =
                "the announced issuer is a tenant template (Entra's common/organizations discovery): configure the "
                + "tenant's own issuer, https://login.microsoftonline.com/<tenant-id>/v2.0, or opt in to the template "
                + "(AuthClient.Configuration.issuerTemplate, ProviderPreset.entraMultiTenant)"
        } else if configured.lowercased() == announced.lowercased() {
            hint = "issuers are compared exactly (case included): configure exactly \(quoted(announced))"
        } else {
            hint = "configure the issuer exactly as the provider's metadata announces it"
        }
        return values + "; " + hint
    }
}

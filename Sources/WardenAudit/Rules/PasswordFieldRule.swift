/// Password fields without `textContentType`: SwiftUI `SecureField`, UIKit `isSecureTextEntry = true` and
/// Objective-C `secureTextEntry = YES` / `[field setSecureTextEntry:YES]` on a field that never gets one.
struct PasswordFieldRule: Rule {
    static let withoutContentType = RuleInfo(
        id: "password-field-without-content-type", severity: .note, name: "Password field without textContentType",
        message: "A password field without textContentType: AutoFill and password managers cannot fill it",
        fix: "Set .textContentType(.password) (or .newPassword on sign-up).", masvs: ["MASVS-AUTH-1"],
        maswe: ["MASWE-0019"])

    var reports: [RuleInfo] { [Self.withoutContentType] }
    var triggers: Triggers {
        Triggers(
            identifiers: [
                "SecureField", "isSecureTextEntry", "secureTextEntry", "setSecureTextEntry", "secureTextField",
                "secureTextFieldWithAction",
            ])
    }

    /// Whether some `textContentType` assignment of the file goes through `owner`
    /// (`passwordRow?.textField?.textContentType = .password` for `passwordRow`).
    static func hasContentType(_ scan: FileScan, _ owner: String) -> Bool {
        if scan.contentTypeOwners.contains(owner) { return true }
        return scan.memo("content-type-through:" + owner) {
            scan.tokens.indices.contains { index in
                scan.tokens[index].text == "textContentType" && scan.file.receiver(of: index).contains(owner)
            }
        }
    }

    /// A value that makes a field secure: `true`/`YES`; a show-password toggle's negation (`!showPassword`); or,
    /// in a password cell's type (`final class PasswordEntryFieldCell`), any condition (`field.isProtected && hide`).
    static func securing(_ scan: FileScan, _ index: Int) -> Bool {
        if ["true", "YES"].contains(scan.text(index)) { return true }
        if scan.text(index) == "!", scan.tokens.indices.contains(index + 1), scan.tokens[index + 1].kind == .identifier,
            SecretNames.words(scan.text(index + 1)).contains("password")
        {
            return true
        }
        guard !["false", "NO"].contains(scan.text(index)), let type = scan.enclosingType(of: index) else {
            return false
        }
        return SecretNames.words(type.name).contains { ComparisonRule.passwordWords.contains($0) }
    }

    /// A text field that makes itself secure to lend its secure canvas to other views (which screenshots and the
    /// App Switcher leave blank): `self.isSecureTextEntry = true` in a file that reaches into the field's own
    /// `subviews` or `sublayers`. Nobody types a password into it (ownCloud's confidential views).
    static func isSecureContainer(_ scan: FileScan, _ owner: String) -> Bool {
        guard owner.isEmpty || owner == "self" else { return false }
        return scan.mentions("secure-container", ["subviews", "sublayers"])
    }

    func check(_ scan: FileScan, at index: Int) {
        switch scan.tokens[index].text {
        case "SecureField":
            if let call = scan.file.call(at: index), !scan.file.chain(after: call.close).contains("textContentType") {
                scan.report(Self.withoutContentType, at: index)
            }
        case "secureTextField", "secureTextFieldWithAction":
            // passwordRow = StaticTableViewRow(secureTextFieldWithAction: ...): an app's factory of a secure field row
            // (ownCloud), which needs a textContentType through the row.
            guard scan.isSymbol(index + 1, ":"), scan.isSymbol(index - 1, "("), index >= 4,
                scan.tokens[index - 2].kind == .identifier, scan.isSymbol(index - 3, "="),
                scan.tokens[index - 4].kind == .identifier
            else { return }
            if !Self.hasContentType(scan, scan.text(index - 4)) { scan.report(Self.withoutContentType, at: index) }
        case "setSecureTextEntry":
            guard scan.isSymbol(index + 1, ":"), ["YES", "true"].contains(scan.text(index + 2)) else { return }
            if !scan.contentTypeOwners.contains(scan.text(index - 1)) {
                scan.report(Self.withoutContentType, at: index)
            }
        default:
            // field.isSecureTextEntry = true: the same owner needs a textContentType in the file.
            guard scan.isSymbol(index + 1, "="), Self.securing(scan, index + 2) else { return }
            let owner = scan.file.receiver(of: index).last ?? ""
            if Self.isSecureContainer(scan, owner) { return }
            if !Self.hasContentType(scan, owner) { scan.report(Self.withoutContentType, at: index) }
        }
    }
}

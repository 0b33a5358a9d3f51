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
        Triggers(identifiers: ["SecureField", "isSecureTextEntry", "secureTextEntry", "setSecureTextEntry"])
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
        case "setSecureTextEntry":
            guard scan.isSymbol(index + 1, ":"), ["YES", "true"].contains(scan.text(index + 2)) else { return }
            if !scan.contentTypeOwners.contains(scan.text(index - 1)) {
                scan.report(Self.withoutContentType, at: index)
            }
        default:
            // field.isSecureTextEntry = true: the same owner needs a textContentType in the file.
            guard scan.isSymbol(index + 1, "="), ["true", "YES"].contains(scan.text(index + 2)) else { return }
            let owner = scan.file.receiver(of: index).last ?? ""
            if Self.isSecureContainer(scan, owner) { return }
            if !scan.contentTypeOwners.contains(owner) { scan.report(Self.withoutContentType, at: index) }
        }
    }
}

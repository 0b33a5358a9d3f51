/// Files written with data protection switched off (`.noFileProtection`, `FileProtectionType.none`,
/// `NSFileProtectionNone`).
struct FileProtectionRule: Rule {
    static let fileWithoutProtection = RuleInfo(
        id: "file-without-protection", severity: .warning, name: "File written without data protection",
        message: "File protection is switched off: the file is readable whenever the device has power",
        fix:
            "Write with .completeFileProtection (or .completeFileProtectionUnlessOpen for files written in the background).",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])

    var reports: [RuleInfo] { [Self.fileWithoutProtection] }
    var triggers: Triggers {
        Triggers(identifiers: ["noFileProtection", "NSFileProtectionNone", "NSDataWritingFileProtectionNone", "none"])
    }

    func check(_ scan: FileScan, at index: Int) {
        guard !Self.createsAnEmptyFile(scan, index) else { return }
        switch scan.tokens[index].text {
        case "none":
            // FileProtectionType.none (a bare `.none` is an Optional).
            if scan.isSymbol(index - 1, "."), scan.text(index - 2) == "FileProtectionType" {
                scan.report(Self.fileWithoutProtection, at: index)
            }
        case "NSFileProtectionNone", "NSDataWritingFileProtectionNone":
            scan.report(Self.fileWithoutProtection, at: index)
        default:
            // Data.WritingOptions.noFileProtection is used as a member (`.noFileProtection`).
            if scan.isSymbol(index - 1, ".") { scan.report(Self.fileWithoutProtection, at: index) }
        }
    }

    /// `createFile(atPath: p, contents: nil, attributes: [.protectionKey: FileProtectionType.none])`: a marker whose
    /// existence is the information (a "has run" flag), with no contents for protection to hide.
    static func createsAnEmptyFile(_ scan: FileScan, _ index: Int) -> Bool {
        guard let open = scan.enclosingOpener(of: index, "(", limit: 64), scan.text(open - 1) == "createFile",
            let call = scan.file.call(at: open - 1), let contents = call.argument("contents")
        else { return false }
        let text = contents.map { scan.tokens[$0].text }.joined()
        return text == "nil" || text == "Data()" || text == ".init()"
    }
}

/// Secrets written to files: `write(to:)` on a secret value (strings, data, property-list dictionaries),
/// `FileManager.createFile(atPath:contents:)`, `FileHandle` writes, keyed archives; Objective-C `writeToFile:`,
/// `writeToURL:`, `createFileAtPath:contents:attributes:` and `archiveRootObject:toFile:`.
struct FileStorageRules: Rule {
    static let secretInFile = RuleInfo(
        id: "secret-in-file", severity: .error, name: "Secret in a file or database",
        message: "A secret is written to a file, property list, Core Data entity or database in cleartext",
        fix: "Store secrets in the Keychain; if data must live in a file, encrypt it with a Keychain-held key.",
        masvs: ["MASVS-STORAGE-1"], maswe: ["MASWE-0001"])

    var reports: [RuleInfo] { [Self.secretInFile] }

    var triggers: Triggers {
        Triggers(identifiers: [
            "write", "writeToFile", "writeToURL", "createFile", "createFileAtPath", "archiveRootObject",
        ])
    }

    func check(_ scan: FileScan, at index: Int) {
        if scan.file.language == .objectiveC, !scan.isSymbol(index - 1, "."), scan.isSymbol(index + 1, ":") {
            objectiveC(scan, index)
            return
        }
        guard let call = scan.file.call(at: index) else { return }
        let name = scan.tokens[index].text
        switch name {
        case "write":
            guard scan.isSymbol(index - 1, ".") else { return }
            let labels = Set(call.arguments.compactMap(\.label))
            if !labels.isDisjoint(with: ["to", "toFile", "toURL", "atomically"]) {
                // value.write(to: url): the receiver is what is written.
                let receiver = scan.receiverRange(of: index)
                if let origin = scan.secret(in: receiver), !scan.hashed(receiver) {
                    scan.report(Self.secretInFile, at: index, scan.message(origin, at: index, "is written to a file"))
                }
            } else if labels.isEmpty || labels == ["contentsOf"] {
                // handle.write(data), handle.write(contentsOf: data), stream.write(...)
                let owner = (scan.file.receiver(of: index).last ?? "").lowercased()
                guard ["handle", "file", "stream"].contains(where: owner.contains) else { return }
                flag(scan, index, (call.open + 1)..<call.close)
            }
        case "createFile":
            if let contents = call.argument("contents") { flag(scan, index, contents) }
        default:  // archiveRootObject(_:toFile:)
            if let first = call.arguments.first?.range { flag(scan, index, first) }
        }
    }

    private func flag(_ scan: FileScan, _ index: Int, _ range: Range<Int>) {
        guard let origin = scan.secret(in: range), !scan.hashed(range) else { return }
        scan.report(Self.secretInFile, at: index, scan.message(origin, at: index, "is written to a file"))
    }

    func objectiveC(_ scan: FileScan, _ index: Int) {
        guard let message = scan.message(at: index) else { return }
        switch scan.tokens[index].text {
        case "writeToFile", "writeToURL":
            // [token writeToFile:path atomically:YES encoding:... error:nil]
            guard message.parts.first?.index == index else { return }
            if let origin = scan.secret(in: message.receiver), !scan.hashed(message.receiver) {
                scan.report(Self.secretInFile, at: index, scan.message(origin, at: index, "is written to a file"))
            }
        case "createFileAtPath":
            if let contents = message.argument("contents") { flag(scan, index, contents) }
        case "archiveRootObject":
            if let object = message.argument("archiveRootObject") { flag(scan, index, object) }
        default:
            break
        }
    }
}

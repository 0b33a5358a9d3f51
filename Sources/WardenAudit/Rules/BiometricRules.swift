/// LocalAuthentication used as the gate: the result of `LAContext.evaluatePolicy` (reply closure, `async` form,
/// Objective-C reply block) deciding access, which a hooked callback bypasses; and Face ID used without
/// `NSFaceIDUsageDescription` in any Info.plist.
struct BiometricRules: Rule {
    static let eventGate = RuleInfo(
        id: "biometric-event-gate", severity: .warning, name: "Biometric success used as the gate",
        message: "LAContext.evaluatePolicy's result decides access: a hooked callback bypasses it",
        fix: "Protect the secret with Keychain access control (.biometryCurrentSet); let the Keychain prompt.",
        masvs: ["MASVS-AUTH-2"], maswe: ["MASWE-0020"])
    static let faceIDUsageDescriptionMissing = RuleInfo(
        id: "faceid-usage-description-missing", severity: .error, name: "NSFaceIDUsageDescription missing",
        message:
            "LocalAuthentication or a biometric Keychain access control is used but no Info.plist has "
            + "NSFaceIDUsageDescription (Face ID fails)",
        fix: "Add NSFaceIDUsageDescription to the app's Info.plist.", masvs: ["MASVS-AUTH-2"])

    var reports: [RuleInfo] { [Self.eventGate, Self.faceIDUsageDescriptionMissing] }
    var triggers: Triggers {
        Triggers(
            identifiers: Set(["evaluatePolicy", "LAContext", "faceID"]).union(Self.biometricAccessControl),
            identifierTest: { Self.mayWrapEvaluatePolicy($0) })
    }

    /// Names a function that forwards `evaluatePolicy`'s result may have (`authenticate`, `unlockWithBiometrics`,
    /// `verifyFaceID`): the calls a wrapper's caller makes, where access is decided. Cheap: a trigger.
    static func mayWrapEvaluatePolicy(_ name: String) -> Bool {
        name != "evaluatePolicy"
            && (FastText.contains(name, "uthenticat") || FastText.contains(name, "nlock")
                || FastText.contains(name, "iometr") || FastText.contains(name, "aceID")
                || FastText.contains(name, "ouchID") || FastText.contains(name, "valuate"))
    }

    /// The flag a function raises when it hands `evaluatePolicy`'s result to its caller (`completion(success)`).
    static func wrapperFlag(_ name: String) -> String { "biometricWrapper:" + name }
    /// The flag a function raises when it decides on the result itself (reported there): its callers are not
    /// reported again for the same decision.
    static func deciderFlag(_ name: String) -> String { "biometricDecider:" + name }

    /// What makes Face ID prompt without an `LAContext` in the app's code, which needs the usage text too: Keychain
    /// access-control flags whose items Face ID unlocks (`.userPresence` uses Face ID where it is enrolled), and
    /// Warden's own prompting APIs (`BiometricGate`, `SessionStores.forThisDevice`, which binds the refresh token only
    /// with the usage text and otherwise silently protects less).
    static let biometricAccessControl: Set<String> = [
        "biometryCurrentSet", "biometryAny", "touchIDCurrentSet", "touchIDAny", "kSecAccessControlBiometryCurrentSet",
        "kSecAccessControlBiometryAny", "kSecAccessControlTouchIDCurrentSet", "kSecAccessControlTouchIDAny",
        "userPresence", "kSecAccessControlUserPresence", "BiometricGate", "SessionStores",
    ]

    /// Names that show the Keychain enforces the policy itself (the right design).
    static let keychainBound: Set<String> = [
        "kSecUseAuthenticationContext", "kSecAttrAccessControl", "SecAccessControlCreateWithFlags",
        "biometryCurrentSet", "BiometricGate", "kSecUseOperationPrompt", "evaluateAccessControl",
    ]
    static let logCalls: Set<String> = ["print", "debugPrint", "NSLog", "os_log", "dump"]

    func check(_ scan: FileScan, at index: Int) {
        let text = scan.tokens[index].text
        if !["LAContext", "faceID"].contains(text), !Self.biometricAccessControl.contains(text),
            Self.mayWrapEvaluatePolicy(text)
        {
            caller(scan, index)
            return
        }
        if scan.tokens[index].text == "LAContext" {
            scan.mark("localAuthentication", at: index)
            return
        }
        if scan.tokens[index].text == "evaluatePolicy" {
            // What prompts for Face ID (canEvaluatePolicy and biometryType do not).
            scan.facts.flags.insert(Self.localAuthenticationFlag(scan.file.path))
        }
        if scan.tokens[index].text == "faceID" {
            // A Swift Playgrounds / Xcode app package declares the usage text in Package.swift (AppleProductTypes):
            // `.faceID(purposeString: "...")` becomes NSFaceIDUsageDescription.
            if scan.file.path.hasSuffix("Package.swift"), scan.isSymbol(index + 1, "("),
                scan.tokens.indices.contains(index + 4), scan.tokens[index + 2].text == "purposeString",
                scan.isSymbol(index + 3, ":"), scan.tokens[index + 4].kind == .string,
                !scan.tokens[index + 4].text.trimmingCharacters(in: .whitespaces).isEmpty
            {
                scan.facts.flags.insert("faceIDUsageDescription")
            }
            return
        }
        if Self.biometricAccessControl.contains(scan.tokens[index].text) {
            scan.mark("keychainBiometry", at: index)
            return
        }
        let scope = scan.scopeRange(of: index)
        if scan.memo(
            "keychain-bound \(scope.lowerBound)",
            {
                scope.contains(where: { Self.keychainBound.contains(scan.tokens[$0].text) })
            })
        {
            return
        }
        if scan.file.language == .objectiveC, !scan.isSymbol(index + 1, "(") {
            objectiveC(scan, index)
        } else {
            swift(scan, index, scope)
        }
    }

    /// The flag a source file raises when it uses LocalAuthentication, by file name (what a target's Sources name).
    static func localAuthenticationFlag(_ path: String) -> String {
        "localAuthenticationIn:" + (path.split(separator: "/").last.map(String.init) ?? path)
    }

    /// The flag a project file raises for each source file a target with its own Info.plist compiles.
    static func targetSourceFlag(plist: String, source: String) -> String { "targetSource:\(plist)|\(source)" }

    func check(resource: ResourceFile, _ report: ResourceReport) {
        if let plist = resource.propertyList {
            if let text = plist.root["NSFaceIDUsageDescription"] as? String, !text.isEmpty {
                report.facts.flags.insert("faceIDUsageDescription")
            } else if resource.name.lowercased().hasSuffix("info.plist") {
                report.facts.flags.insert("plistWithoutFaceIDUsage:" + resource.path)
            }
        }
        // Which Info.plist each target compiles its sources with, relative to the folder the .xcodeproj is in.
        if resource.kind == .xcodeProject {
            let parts = resource.path.split(separator: "/", omittingEmptySubsequences: false)
            let root = parts.count > 2 ? parts.dropLast(2).joined(separator: "/") + "/" : ""
            for target in resource.targets where !target.generatesFaceIDUsage && target.isAppOrExtension {
                guard let plist = target.infoPlist else { continue }
                for source in target.sources {
                    report.facts.flags.insert(Self.targetSourceFlag(plist: root + plist, source: source))
                }
            }
        }
        // A generated Info.plist: the build setting in the project file or an .xcconfig.
        if resource.kind == .xcodeProject || resource.kind == .xcconfig,
            resource.entries.contains(where: {
                $0.key == "INFOPLIST_KEY_NSFaceIDUsageDescription"
                    && !$0.value.trimmingCharacters(in: .whitespaces).isEmpty
            })
        {
            report.facts.flags.insert("faceIDUsageDescription")
        }
    }

    func finish(project: ProjectFacts, _ report: ProjectReport) {
        guard !project.any("faceIDUsageDescription") else {
            extensionsWithoutUsage(project, report)
            return
        }
        let contexts = project.firstMarks("localAuthentication")
        for (file, position) in contexts {
            report.report(Self.faceIDUsageDescriptionMissing, file: file, line: position.line, column: position.column)
        }
        // An app that uses biometry only through Keychain access control prompts too (reading the item): one finding,
        // at its first use — the missing key is the project's, not a line's.
        if contexts.isEmpty, let (file, position) = project.firstMarks("keychainBiometry").first {
            report.report(Self.faceIDUsageDescriptionMissing, file: file, line: position.line, column: position.column)
        }
    }

    /// An app whose own Info.plist has the key, and a target (an extension) that compiles a file using
    /// LocalAuthentication with an Info.plist that lacks it: Face ID fails, or the process exits, in that extension.
    /// Reported at the extension's Info.plist; only where the project file says which target compiles what.
    func extensionsWithoutUsage(_ project: ProjectFacts, _ report: ProjectReport) {
        let raised = project.files.reduce(into: Set<String>()) { $0.formUnion($1.flags) }
        let users = raised.filter { $0.hasPrefix("localAuthenticationIn:") }.map {
            String($0.dropFirst("localAuthenticationIn:".count))
        }
        guard !users.isEmpty else { return }
        let prefix = "plistWithoutFaceIDUsage:"
        for (index, facts) in project.files.enumerated() {
            guard let flag = facts.flags.first(where: { $0.hasPrefix(prefix) }) else { continue }
            let plist = String(flag.dropFirst(prefix.count))
            guard
                let user = users.sorted().first(where: {
                    raised.contains(Self.targetSourceFlag(plist: plist, source: $0))
                })
            else { continue }
            report.report(
                Self.faceIDUsageDescriptionMissing, file: index, line: 1, column: 1,
                "This target compiles \(user), which asks for Face ID (evaluatePolicy), but its Info.plist has no "
                    + "NSFaceIDUsageDescription (Face ID fails in it)")
        }
    }

    private func swift(_ scan: FileScan, _ index: Int, _ scope: Range<Int>) {
        guard let call = scan.file.call(at: index) else { return }
        // The reply closure: a trailing closure or the `reply:` argument.
        var closure: Int?
        if scan.isSymbol(call.close + 1, "{") {
            closure = call.close + 1
        } else if let reply = call.argument("reply"), scan.isSymbol(reply.lowerBound, "{") {
            closure = reply.lowerBound
        }
        if let closure, scan.file.partner[closure] > closure {
            let close = Int(scan.file.partner[closure])
            let (name, bodyStart) = closureParameter(scan, closure, close)
            guard let name else { return }
            gate(scan, index, name: name, in: bodyStart..<close)
            return
        }
        // The async form: `let ok = try await context.evaluatePolicy(...)`, `if try await ...`, or a statement
        // after which the code runs only when it did not throw.
        var start = index
        while start > scope.lowerBound,
            scan.tokens[start - 1].kind == .identifier || scan.isSymbol(start - 1, ".")
                || ["try", "await"].contains(scan.tokens[start - 1].text) || scan.isSymbol(start - 1, "?")
        {
            start -= 1
        }
        guard start > 0 else { return }
        let before = scan.tokens[start - 1]
        if before.kind == .keyword, before.text == "return" {
            // `return try await context.evaluatePolicy(…)`: handed to the caller, whose condition decides.
            if let function = Self.functionName(scan, enclosing: index) {
                scan.facts.flags.insert(Self.wrapperFlag(function))
            }
        } else if (before.kind == .keyword && ["if", "guard", "while"].contains(before.text))
            || before.isSymbol("&&") || before.isSymbol("||")
        {
            report(scan, index, at: start - 1, "'evaluatePolicy'")
        } else if before.isSymbol("="), start >= 2, scan.tokens[start - 2].kind == .identifier {
            let name = scan.tokens[start - 2].text
            gate(scan, index, name: name, in: (call.close + 1)..<scope.upperBound)
        } else if scan.tokens[start].text == "try" || scan.text(start) == "await" {
            // A bare `try await context.evaluatePolicy(...)`: what follows in the block is the gate.
            let next = call.close + 1
            if next < scope.upperBound, !scan.isSymbol(next, "}") { report(scan, index, at: next, "'evaluatePolicy'") }
        }
    }

    /// The first parameter of the closure opening at `open` (`{ success, error in`, `{ [weak self] (ok, _) in`),
    /// or `$0`, and where its body starts.
    private func closureParameter(_ scan: FileScan, _ open: Int, _ close: Int) -> (String?, Int) {
        var position = open + 1
        if scan.isSymbol(position, "["), scan.file.partner[position] > position {
            position = Int(scan.file.partner[position]) + 1
        }
        let limit = min(close, position + 24)
        var cursor = position
        while cursor < limit {
            if scan.tokens[cursor].kind == .keyword, scan.tokens[cursor].text == "in" {
                let first = (position..<cursor).first { scan.tokens[$0].kind == .identifier || scan.text($0) == "_" }
                guard let first, scan.text(first) != "_" else { return (nil, cursor + 1) }
                return (scan.tokens[first].text, cursor + 1)
            }
            cursor += 1
        }
        return ("$0", open + 1)
    }

    /// `[context evaluatePolicy:... localizedReason:... reply:^(BOOL success, NSError *error) { ... }]`.
    private func objectiveC(_ scan: FileScan, _ index: Int) {
        guard let message = scan.message(at: index), let reply = message.argument("reply"),
            let caret = reply.first(where: { scan.text($0) == "^" }), scan.isSymbol(caret + 1, "("),
            scan.file.partner[caret + 1] > caret + 1
        else { return }
        let parametersClose = Int(scan.file.partner[caret + 1])
        // ^(BOOL success, NSError *error): the name after BOOL.
        var name: String?
        for position in (caret + 2)..<parametersClose where scan.tokens[position].kind == .identifier {
            if scan.isSymbol(position + 1, ",") || position + 1 == parametersClose {
                name = scan.tokens[position].text
                break
            }
        }
        let open = parametersClose + 1
        guard let name, scan.isSymbol(open, "{"), scan.file.partner[open] > open else { return }
        gate(scan, index, name: name, in: (open + 1)..<Int(scan.file.partner[open]))
    }

    /// Reports the first use of the result `name` in `body` that is not only logged; a result only handed to the
    /// caller (`completion(success)`) makes the enclosing function a wrapper, whose callers decide access.
    private func gate(_ scan: FileScan, _ index: Int, name: String, in body: Range<Int>) {
        if let position = decision(scan, name: name, in: body) {
            report(scan, index, at: position, "'\(name)'")
            if let function = Self.functionName(scan, enclosing: index) {
                scan.facts.flags.insert(Self.deciderFlag(function))
            }
        } else if let forward = firstForward(scan, name: name, in: body) {
            // Swift callers are found by the wrapper's name (``caller(_:_:)``); an Objective-C wrapper's callers are
            // not read, so the hand-over is reported where it is, as before.
            if scan.file.language == .swift, let function = Self.functionName(scan, enclosing: index) {
                scan.facts.flags.insert(Self.wrapperFlag(function))
            } else {
                report(scan, index, at: forward, "'\(name)'")
            }
        }
    }

    /// At a call of a function that may wrap `evaluatePolicy` with a closure (`auth.authenticate { ok in if ok {
    /// … } }`): where its first parameter decides access, reported when some file shows the function to be such a
    /// wrapper.
    private func caller(_ scan: FileScan, _ index: Int) {
        guard scan.file.language == .swift, index > 0, scan.text(index - 1) != "func" else { return }
        let name = scan.tokens[index].text
        // `if await authenticator.authenticate(reason: r) { … }`: the async wrapper's Bool is the condition.
        if scan.isSymbol(index + 1, "("), let condition = Self.conditionKeyword(scan, before: index) {
            scan.report(
                Self.eventGate, at: index,
                "\(name)'s result — evaluatePolicy's, returned by \(name) — decides access (\(condition)): a hooked "
                    + "callback bypasses it; let the Keychain enforce biometry",
                if: Self.wrapperFlag(name), unless: Self.deciderFlag(name))
            return
        }
        var closure = index + 1
        if scan.isSymbol(closure, "("), scan.file.partner[closure] > closure {
            let close = Int(scan.file.partner[closure])
            closure =
                scan.isSymbol(close + 1, "{")
                ? close + 1 : ((closure + 1)..<close).first { scan.isSymbol($0, "{") } ?? -1
        }
        guard closure > index, scan.isSymbol(closure, "{"), scan.file.partner[closure] > closure else { return }
        let close = Int(scan.file.partner[closure])
        let (parameter, bodyStart) = closureParameter(scan, closure, close)
        guard let parameter, let position = decision(scan, name: parameter, in: bodyStart..<close),
            Self.isCondition(scan, position)
        else { return }
        scan.report(
            Self.eventGate, at: index,
            "\(name)'s result '\(parameter)' — evaluatePolicy's, handed on by \(name) — decides access"
                + (scan.tokens[position].line == scan.tokens[index].line
                    ? "" : " at line \(scan.tokens[position].line)")
                + ": a hooked callback bypasses it; let the Keychain enforce biometry",
            if: Self.wrapperFlag(name), unless: Self.deciderFlag(name))
    }

    /// `if`, `guard` or `while` when the call whose name is at `index` is (after `try`, `await`, `!` and a receiver
    /// chain) the condition; nil otherwise.
    static func conditionKeyword(_ scan: FileScan, before index: Int) -> String? {
        var position = index - 1
        while position >= 0,
            scan.isSymbol(position, ".") || scan.tokens[position].kind == .identifier || scan.isSymbol(position, "!")
                || ["try", "await", "self"].contains(scan.tokens[position].text) || scan.isSymbol(position, "?")
        {
            position -= 1
        }
        guard position >= 0 else { return nil }
        let text = scan.tokens[position].text
        return ["if", "guard", "while"].contains(text) && scan.tokens[position].kind == .keyword ? text : nil
    }

    /// Whether the use at `position` is a condition (`if ok`, `guard ok`, `if !ok`, `ok ?`, `ok &&`).
    static func isCondition(_ scan: FileScan, _ position: Int) -> Bool {
        var before = position - 1
        if scan.isSymbol(before, "!") { before -= 1 }
        return ["if", "guard", "while"].contains(scan.text(before)) || scan.isSymbol(before, "&&")
            || scan.isSymbol(before, "||") || scan.isSymbol(position + 1, "?") || scan.isSymbol(position + 1, "&&")
            || scan.isSymbol(position + 1, "||")
    }

    /// The name of the function whose body holds `index` (the token after `func`), or nil.
    static func functionName(_ scan: FileScan, enclosing index: Int) -> String? {
        guard let body = scan.file.enclosingFunction(of: index) else { return nil }
        var position = body.lowerBound - 1
        let limit = max(0, body.lowerBound - 96)
        while position >= limit {
            if scan.tokens[position].kind == .keyword, scan.tokens[position].text == "func" {
                return scan.tokens.indices.contains(position + 1) ? scan.tokens[position + 1].text : nil
            }
            position -= 1
        }
        return nil
    }

    /// Where `name` is first handed to a callback in `body`.
    private func firstForward(_ scan: FileScan, name: String, in body: Range<Int>) -> Int? {
        body.first { position in
            scan.tokens[position].kind == .identifier && scan.tokens[position].text == name
                && isForward(scan, position)
        }
    }

    private func isForward(_ scan: FileScan, _ position: Int) -> Bool {
        guard let open = scan.enclosingOpener(of: position, "(", limit: 32) else { return false }
        return (open == position - 1 || scan.isSymbol(position - 1, ","))
            && Self.forwardsToCallback(scan.text(open - 1))
    }

    /// The first use of `name` in `body` that decides something: not a member of another value, a label, a log
    /// argument or a hand-over to a callback.
    private func decision(_ scan: FileScan, name: String, in body: Range<Int>) -> Int? {
        for position in body where scan.tokens[position].kind == .identifier && scan.tokens[position].text == name {
            if scan.isSymbol(position - 1, "."), scan.text(position - 2) != "self" { continue }
            if scan.isSymbol(position + 1, ":") { continue }  // a label
            if let open = scan.enclosingOpener(of: position, "(", limit: 32),
                Self.logCalls.contains(scan.text(open - 1))
            {
                continue
            }
            // `completion(success)`: a wrapper that hands the result to its caller decides nothing here; the
            // caller's use of it is the gate.
            if isForward(scan, position) { continue }
            return position
        }
        return nil
    }

    /// The last words of a callback parameter's name: `completion`, `completionHandler`, `reply`, `onResult`.
    static let callbackWords: Set<String> = ["completion", "handler", "callback", "reply", "block", "done", "result"]

    static func forwardsToCallback(_ callee: String) -> Bool {
        SecretNames.words(callee).last.map { callbackWords.contains($0) } ?? false
    }

    /// Reported at the `evaluatePolicy` call (where the mistake is made and where a reader looks for it), naming the
    /// line whose decision rests on its result.
    private func report(_ scan: FileScan, _ source: Int, at sink: Int, _ what: String) {
        let gate = scan.tokens[sink].line
        let subject = "evaluatePolicy's result \(what)"  // an identifier: as written
        let decides = gate == scan.tokens[source].line ? "decides access" : "decides access at line \(gate)"
        scan.report(
            Self.eventGate, at: source,
            subject + " " + decides
                + ": a hooked callback bypasses it; let the Keychain enforce biometry")
    }
}

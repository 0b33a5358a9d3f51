/// Bindings: the last binding of a name before a use, in its scope, and the value of each binding site.
extension Dataflow {
    /// How a binding site gets its value.
    enum SiteKind: UInt8 {
        case declaration, forIn, assignment, compoundAssignment, outParameter, mutatingCall, objcMutatingMessage
    }

    /// Variables followed through at most this many nested bindings, and a use looks back at most this many
    /// tokens for its binding (a pathological file stays linear).
    static let maximumDepth = 48
    static let maximumLookBack = 8192

    /// What the variable `name` carries at token `index`: the value of its last binding before `index` in its
    /// scope, found by looking back from the use (only uses a rule asks about are followed, so a file pays for
    /// the values that reach a sink, not for every declaration).
    func taint(of name: String, at index: Int) -> Taint? {
        guard let spelling = scan.file.names.name(of: name) else { return nil }
        return taint(of: spelling, name, at: index)
    }

    /// ``taint(of:at:)`` for the name spelled `spelling` in the file's ``NameTable``.
    func taint(of spelling: Int32, _ name: String, at index: Int) -> Taint? {
        guard index > 0, index <= tokens.count else { return nil }
        let scopes = scan.scopes
        let scope = index < tokens.count ? scopes[index] : scopes[index - 1]
        // A name never bound in this scope needs no look back: a parameter carries nothing known, a property what the
        // methods of the file put in it.
        guard Self.contains(boundNames(in: scope), spelling) else {
            guard isPropertyUse(index, spelling), !removesSecretEntry(spelling, in: scope, before: index) else {
                return nil
            }
            return propertyTaint(spelling, name, ofTypeAround: index)
        }
        let lower = max(0, Int(scope), index - Self.maximumLookBack)
        // Compared in place, by spelling number (a copy of each token would retain and release its text).
        let local = tokens.withUnsafeBufferPointer { tokens -> Taint? in
            var position = index - 1
            defer { scan.spend(index - 1 - position) }
            while position >= lower {
                if tokens[position].name == spelling, tokens[position].kind == .identifier, scopes[position] == scope,
                    !evaluating.contains(Int32(position)), let site = site(at: position, name),
                    let value = value(of: site, at: position)
                {
                    return value
                }
                position -= 1
            }
            return nil
        }
        // A property this method only mutates later (or not before the use) still carries what the others put in it.
        if local == nil, isPropertyUse(index, spelling), !removesSecretEntry(spelling, in: scope, before: index) {
            return propertyTaint(spelling, name, ofTypeAround: index)
        }
        if local?.secret == nil, let copied = copiedIntoProperty(spelling, in: scope) {
            var merged = local ?? Taint()
            merged.secret = copied
            return merged
        }
        return local
    }

    /// What a property holds, for a local this function copies into it (`_info = [ainfo mutableCopy]`,
    /// `_info = ainfo`): the local held the same entries (an account dictionary loaded, kept and saved again).
    /// Objective-C only, where dictionaries are copied so.
    func copiedIntoProperty(_ spelling: Int32, in scope: Int32) -> Origin? {
        guard scan.file.language == .objectiveC, scope >= 0 else { return nil }
        let key = Int64(scope) << 32 | Int64(UInt32(bitPattern: spelling))
        if let known = copiedIntoProperties[key] { return known }
        let result = findCopyIntoProperty(spelling, in: scope)
        if !propertyIncomplete { copiedIntoProperties[key] = .some(result) }
        return result
    }

    private func findCopyIntoProperty(_ spelling: Int32, in scope: Int32) -> Origin? {
        let scopes = scan.scopes
        for position in occurrences(of: spelling).map(Int.init) where scopes[position] == scope && position >= 3 {
            var target = -1
            if scan.isSymbol(position - 1, "="), scan.isSymbol(position + 1, ";") {
                target = position - 2
            } else if scan.isSymbol(position - 1, "["), ["mutableCopy", "copy"].contains(scan.text(position + 1)),
                scan.isSymbol(position - 2, "=")
            {
                target = position - 3
            }
            guard target >= 0, tokens[target].kind == .identifier, isPropertyUse(target, tokens[target].name),
                let held = propertyTaint(tokens[target].name, tokens[target].text, ofTypeAround: target)?.secret
            else { continue }
            return held
        }
        return nil
    }

    /// Whether the method around `index` removes a secret-keyed entry of the property spelled `spelling` before it
    /// (`[_info removeObjectForKey:@"token"]`, `info.removeValue(forKey: "token")`): what the other methods put in the
    /// property is gone by `index` (a sign-out that saves what is left).
    func removesSecretEntry(_ spelling: Int32, in scope: Int32, before index: Int) -> Bool {
        // Most files remove nothing: one look at the file, not one per property use.
        guard
            ["removeObjectForKey", "removeValue", "removeObject"].contains(where: {
                scan.file.names.name(of: $0) != nil
            })
        else { return false }
        let scopes = scan.scopes
        for position in occurrences(of: spelling).map(Int.init) where position >= Int(scope) && position < index {
            guard scopes[position] == scope || scan.isSymbol(position - 1, ".") else { continue }
            let remover = scan.isSymbol(position + 1, ".") ? position + 2 : position + 1
            guard ["removeObjectForKey", "removeValue", "removeObject"].contains(scan.text(remover)) else { continue }
            let end = min(tokens.count, remover + 8)
            if let key = scan.firstString(in: (remover + 1)..<end), scan.isSecret(key) { return true }
        }
        return false
    }

    /// Whether the name at `index` is a property of the file's types: `self.name`, an Objective-C ivar (`_name`), or a
    /// name the file declares with `let`/`var` directly in a type body.
    func isPropertyUse(_ index: Int, _ spelling: Int32) -> Bool {
        guard index < tokens.count, tokens[index].name == spelling else { return false }
        if scan.isSymbol(index - 1, "."), scan.text(index - 2) == "self" { return true }
        let candidate =
            scan.file.language == .objectiveC
            ? tokens[index].text.hasPrefix("_") : storedPropertySpellings().contains(spelling)
        // A parameter of the same name shadows the property (`func debug(header: String) { print(header) }`).
        return candidate && !localScopes(of: spelling).contains(scan.scopes[index])
    }

    /// The `{` of the innermost type body around `index` (-1 at the top level, and for Objective-C, whose
    /// `@implementation` has no braces).
    func enclosingType(_ index: Int) -> Int32 {
        guard scan.file.language == .swift else { return -1 }
        var brace = index < tokens.count ? scan.file.enclosingBrace[index] : -1
        var steps = 0
        while brace >= 0, steps < 64 {
            if isTypeBody(brace) { return brace }
            brace = scan.file.enclosingBrace[Int(brace)]
            steps += 1
        }
        return -1
    }

    /// The identifier tokens of `spelling` in the file (an index built once, the first time a property is followed).
    func occurrences(of spelling: Int32) -> [Int32] {
        if occurrences == nil {
            var index: [Int32: [Int32]] = [:]
            for position in tokens.indices where tokens[position].kind == .identifier {
                index[tokens[position].name, default: []].append(Int32(position))
            }
            scan.spend(tokens.count)
            occurrences = index
        }
        return occurrences?[spelling] ?? []
    }

    /// The scopes with a local or a parameter spelled `spelling` (`let info = ...`, `func f(info: X)`, `{ info in }`),
    /// computed once per spelling: a plain use or site there is the local's, not the property's.
    func localScopes(of spelling: Int32) -> Set<Int32> {
        if let known = localScopesBySpelling[spelling] { return known }
        let scopes = scan.scopes
        var result = Set<Int32>()
        for position in occurrences(of: spelling).map(Int.init) where position > 0 {
            let before = tokens[position - 1]
            if before.kind == .keyword, ["let", "var", "for"].contains(before.text), !isTypeBody(scopes[position]) {
                result.insert(scopes[position])
            } else if let scope = parameterScope(position) {
                result.insert(scope)
            }
        }
        localScopesBySpelling[spelling] = result
        return result
    }

    func storedPropertySpellings() -> Set<Int32> {
        if let known = storedProperties { return known }
        var names = Set<Int32>()
        let scopes = scan.scopes
        for position in 1..<max(1, tokens.count) where tokens[position].kind == .identifier {
            let before = tokens[position - 1]
            guard before.kind == .keyword, before.text == "var" || before.text == "let" else { continue }
            if isTypeBody(scopes[position]) { names.insert(tokens[position].name) }
        }
        scan.spend(tokens.count)
        storedProperties = names
        return names
    }

    func isTypeBody(_ scope: Int32) -> Bool {
        guard scope >= 0 else { return false }
        if let known = typeBodies[scope] { return known }
        let answer = scan.isTypeBody(Int(scope))
        typeBodies[scope] = answer
        return answer
    }

    /// What the property spelled `spelling` carries, from any method of the file: the merged values of its
    /// assignments and mutations (`self.info = v`, `info["token"] = t`, `[_info setObject:t forKey:k]`) in every
    /// scope that does not declare a local of that name. Flow-insensitive, as a property outlives each call; computed
    /// once per spelling, nil when nothing of interest reaches it.
    func propertyTaint(_ spelling: Int32, _ name: String, ofTypeAround use: Int) -> Taint? {
        // One property per type: `LoginViewModel.message` is not `BannerView.message` of the same file.
        let type = enclosingType(use)
        let key = Int64(type) << 32 | Int64(UInt32(bitPattern: spelling))
        if let known = propertyTaints[key] { return known }
        // A property asking for itself (`info[k] = v` adds to its own value) gets nothing more: its result is the
        // union of its sites, being computed. One that reaches an outer open property (a = b, b = a) gets that one's
        // value so far: partial, so what is computed meanwhile is kept by nobody (``propertyIncomplete``).
        if propertyStack.contains(key) {
            if propertyStack.last != key { propertyIncomplete = true }
            return nil
        }
        // A property named as an identifier (`peerId`, `requestIdentifier`) is used as one, whatever it was made from.
        if let last = SecretNames.words(name).last, ["id", "ids", "identifier", "identifiers", "uuid"].contains(last) {
            propertyTaints[key] = .some(nil)
            return nil
        }
        propertyStack.append(key)
        let outerIncomplete = propertyIncomplete
        propertyIncomplete = false
        let scopes = scan.scopes
        // Plain sites in a scope with a local or a parameter of this name are the local's; `self.info` is still the
        // property.
        let localScopes = localScopes(of: spelling)
        // The property itself (`info`, `self.info`, `_info`), not a member of the same name on another object
        // (`metaData.threadId = x` binds `metaData`).
        var sites = occurrences(of: spelling).map(Int.init).filter { position in
            guard enclosingType(position) == type else { return false }
            let qualified = scan.isSymbol(position - 1, ".")
            return qualified ? scan.text(position - 2) == "self" : !localScopes.contains(scopes[position])
        }.map { ($0, name) }
        // Objective-C: `self.info` and its ivar `_info` are one property (`self.info` for `_info`, the plain ivar
        // `_info` for `info`).
        let ivar = name.hasPrefix("_")
        let other = ivar ? String(name.dropFirst()) : "_" + name
        if scan.file.language == .objectiveC, !other.isEmpty, let otherSpelling = scan.file.names.name(of: other) {
            sites += occurrences(of: otherSpelling).map(Int.init).filter { position in
                let member = scan.isSymbol(position - 1, ".")
                return ivar ? member && scan.text(position - 2) == "self" : !member
            }.map { ($0, other) }
        }
        var merged = Taint()
        for (position, siteName) in sites {
            guard !evaluating.contains(Int32(position)), let site = site(at: position, siteName),
                let value = value(of: site, at: position)
            else { continue }
            merged.merge(value)
        }
        scan.spend(sites.count)
        let result: Taint? = merged.isEmpty ? nil : merged
        propertyStack.removeLast()
        if !propertyIncomplete { propertyTaints[key] = .some(result) }
        propertyIncomplete = outerIncomplete || propertyIncomplete
        return result
    }

    /// The scope of the parameter the identifier at `position` declares, if it declares one: the body of a Swift
    /// function (`name: Type` in its parameter clause) or of an Objective-C method (`:(Type *)name`), or the scope
    /// a closure's parameters (`{ name in`, `{ (name, other) in`) live in.
    func parameterScope(_ position: Int) -> Int32? {
        /// The scope of the body that starts at the first `{` after `from` (a signature's return type and effects
        /// come first).
        func body(after from: Int) -> Int32? {
            var next = from + 1
            while next < tokens.count, next < from + 64 {
                if scan.isSymbol(next, "{") { return next + 1 < tokens.count ? scan.scopes[next + 1] : nil }
                if scan.isSymbol(next, ";") || scan.isSymbol(next, "}") { return nil }
                next += 1
            }
            return nil
        }
        if scan.file.language == .objectiveC {
            // `- (void)set:(NSString *)token`: after the `)` of a type that follows a `:`.
            guard scan.isSymbol(position - 1, ")"), scan.file.partner[position - 1] >= 0,
                scan.isSymbol(Int(scan.file.partner[position - 1]) - 1, ":")
            else { return nil }
            return body(after: position)
        }
        // `func f(label name: Type)` / `init(name: Type)`: followed by `:` inside a `(` that follows a declared name.
        if scan.isSymbol(position + 1, ":"), let open = scan.enclosingOpener(of: position, "(", limit: 256),
            open >= 2, tokens[open - 1].kind == .identifier || tokens[open - 1].text == "init"
        {
            let declarer = tokens[open - 1].text == "init" ? open - 1 : open - 2
            if declarer >= 0, tokens[declarer].kind == .keyword,
                ["func", "init", "subscript"].contains(tokens[declarer].text), scan.file.partner[open] > open
            {
                return body(after: Int(scan.file.partner[open]))
            }
        }
        // Closures: `{ name in`, `{ name, other in`, `{ (name: T) in`.
        var next = position + 1
        while next < tokens.count, next < position + 32, tokens[next].kind != .keyword || tokens[next].text != "in" {
            let token = tokens[next]
            guard token.kind == .identifier || token.kind == .punctuation || token.isSymbol("?") else { return nil }
            if token.isSymbol("{") || token.isSymbol("}") || token.isSymbol(";") { return nil }
            next += 1
        }
        guard next < tokens.count, tokens[next].text == "in", tokens[next].kind == .keyword else { return nil }
        var back = position - 1
        while back >= 0, back > position - 32, !scan.isSymbol(back, "{") {
            let token = tokens[back]
            guard token.kind == .identifier || token.kind == .punctuation else { return nil }
            back -= 1
        }
        return back >= 0 && scan.isSymbol(back, "{") ? scan.scopes[position] : nil
    }

    /// The names that have a binding site in `scope` (a superset: ``site(at:_:)`` decides), found in one pass over
    /// the scope the first time it is asked about.
    func boundNames(in scope: Int32) -> [Int32] {
        if let known = bound[scope] { return known }
        var names: [Int32] = []
        let scopes = scan.scopes
        let range =
            scope >= 0 && scan.file.partner[Int(scope)] > scope
            ? Int(scope)..<(Int(scan.file.partner[Int(scope)]) + 1) : 0..<tokens.count
        // Tokens are read in place (a copy of each would retain and release its text); punctuation is one byte.
        for position in range where scopes[position] == scope && tokens[position].kind == .identifier {
            let previousKind = position > 0 ? tokens[position - 1].kind : nil
            let previousSymbol: UInt8? =
                previousKind == .punctuation || previousKind == .operator ? tokens[position - 1].text.utf8.first : nil
            let previousIsAmpersand = previousSymbol == UInt8(ascii: "&") && tokens[position - 1].text.utf8.count == 1
            let previousIsBracket = previousKind == .punctuation && previousSymbol == UInt8(ascii: "[")
            if previousKind == .keyword || previousIsAmpersand || previousIsBracket {
                let objcMutation =
                    previousIsBracket && position + 1 < tokens.count
                    && Self.objcMutators.contains(tokens[position + 1].text)
                if previousIsAmpersand || objcMutation
                    || (previousKind == .keyword && ["let", "var", "for"].contains(tokens[position - 1].text))
                {
                    names.append(tokens[position].name)
                }
                continue
            }
            guard position + 1 < tokens.count else { continue }
            let nextKind = tokens[position + 1].kind
            let nextSymbol = nextKind == .punctuation ? tokens[position + 1].text.utf8.first : nil
            if nextKind == .operator, tokens[position + 1].text == "=" || tokens[position + 1].text == "+=" {
                names.append(tokens[position].name)
            } else if nextSymbol == UInt8(ascii: ".") || nextSymbol == UInt8(ascii: "["),
                previousKind != .punctuation || previousSymbol != UInt8(ascii: ".")
                    || (position >= 2 && tokens[position - 2].text == "self")
            {
                // The head of `owner.a = v`, `owner.append(x)`, `owner[k] = v`.
                var end = position
                while scan.isSymbol(end + 1, "."), end + 2 < tokens.count, tokens[end + 2].kind == .identifier {
                    end += 2
                }
                if scan.isSymbol(end + 1, "["), scan.file.partner[end + 1] > end + 1 {
                    end = Int(scan.file.partner[end + 1])
                }
                let after = end + 1 < tokens.count ? tokens[end + 1] : nil
                if after?.isSymbol("=") == true || after?.isSymbol("+=") == true
                    || (end > position && after?.isSymbol("(") == true && Self.mutators.contains(tokens[end].text))
                {
                    names.append(tokens[position].name)
                }
            }
        }
        names.sort()
        var unique = 0
        for name in names where unique == 0 || names[unique - 1] != name {
            names[unique] = name
            unique += 1
        }
        names.removeSubrange(unique...)
        bound[scope] = names
        return names
    }

    /// Whether the ascending `names` has `name` (a binary search).
    static func contains(_ names: [Int32], _ name: Int32) -> Bool {
        var low = 0
        var high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < name { low = middle + 1 } else { high = middle }
        }
        return low < names.count && names[low] == name
    }

    /// The binding site the name at `position` is in, as (kind, the token its parser starts from).
    func site(at position: Int, _ name: String) -> (SiteKind, Int)? {
        let before = position > 0 ? tokens[position - 1] : nil
        if let before, before.kind == .keyword {
            if before.text == "let" || before.text == "var" { return (.declaration, position - 1) }
            if before.text == "for" { return (.forIn, position - 1) }
        }
        if before?.isSymbol("&") == true { return (.outParameter, position - 1) }
        if before?.isSymbol(":") == true {
            // `[Utils dict:info setObject:t forKey:@"token"]`: a helper that sets an entry of its dictionary argument.
            if let setter = dictionaryHelperSetter(position) { return (.objcMutatingMessage, setter) }
            return nil  // a type annotation or a label
        }
        guard position + 1 < tokens.count else { return nil }
        let next = tokens[position + 1]
        if next.isSymbol("=") { return (.assignment, position + 1) }
        if next.isSymbol("+=") { return (.compoundAssignment, position + 1) }
        // owner.a.b = v, owner.append(x), owner[k] = v: walk the chain to what follows it.
        var end = position
        while scan.isSymbol(end + 1, "."), end + 2 < tokens.count, tokens[end + 2].kind == .identifier { end += 2 }
        if end > position {
            if scan.isSymbol(end + 1, "=") { return (.assignment, end + 1) }
            if scan.isSymbol(end + 1, "("), Self.mutators.contains(tokens[end].text) { return (.mutatingCall, end) }
        }
        if scan.isSymbol(end + 1, "["), scan.file.partner[end + 1] > end + 1 {
            let close = Int(scan.file.partner[end + 1])
            if scan.isSymbol(close + 1, "=") { return (.assignment, close + 1) }
        }
        // [owner setObject:x forKey:@"k"]
        if before?.isSymbol("[") == true || (scan.text(position - 1) == "." && scan.text(position - 2) == "self"),
            next.kind == .identifier, Self.objcMutators.contains(next.text), scan.isSymbol(position + 2, ":")
        {
            return (.objcMutatingMessage, position + 1)
        }
        return nil
    }

    func value(of site: (SiteKind, Int), at position: Int) -> Taint? {
        let key = Int32(position)
        if let known = siteTaints[key] { return known }
        guard depth < Self.maximumDepth else {
            // Cut off: what an open property computation finds now is partial (outside one, as before, the cut-off
            // value is kept: a pathological chain stays linear).
            if !propertyStack.isEmpty { propertyIncomplete = true }
            return nil
        }
        evaluating.insert(key)
        depth += 1
        let outerIncomplete = propertyIncomplete
        propertyIncomplete = false
        defer {
            depth -= 1
            evaluating.remove(key)
            propertyIncomplete = outerIncomplete || propertyIncomplete
        }
        let anchor = site.1
        let parsed: Parsed?
        switch site.0 {
        case .declaration: parsed = declaration(anchor)
        case .forIn: parsed = forIn(anchor)
        case .assignment: parsed = assignment(anchor, compound: false)
        case .compoundAssignment: parsed = assignment(anchor, compound: true)
        case .outParameter: parsed = outParameter(anchor)
        case .mutatingCall: parsed = mutatingCall(anchor)
        case .objcMutatingMessage: parsed = objcMutatingMessage(anchor)
        }
        guard let parsed else { return nil }
        var taint = parsed.taint.through(parsed.name, line: tokens[position].line)
        // Randomness is followed through two variables: further on it has usually become something else (a
        // service name built with a random suffix, the client made with it, the session that client opened).
        if let random = taint.random, random.path.count > 2 { taint.random = nil }
        if let uuid = taint.uuid, uuid.path.count > 2 { taint.uuid = nil }
        if parsed.merging, let previous = self.taint(of: parsed.name, at: position) { taint.merge(previous) }
        if !propertyIncomplete { siteTaints[key] = taint }
        return taint
    }

    /// A parsed binding site: the variable, whether it adds to the variable's previous value, and the value.
    typealias Parsed = (name: String, merging: Bool, taint: Taint)

    /// `let NAME (: Type)? = EXPR`, `if let NAME = EXPR`, `guard let NAME = EXPR else`.
    func declaration(_ index: Int) -> Parsed? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return nil }
        var position = index + 2
        if scan.isSymbol(position, ":") {
            position += 1
            var steps = 0
            while position < tokens.count, steps < 64, !tokens[position].isSymbol("=") {
                let token = tokens[position]
                if scan.file.partner[position] > position {
                    position = Int(scan.file.partner[position]) + 1
                    steps += 1
                    continue
                }
                guard
                    token.kind == .identifier || token.kind == .keyword || token.isSymbol(".")
                        || token.kind == .operator && token.text != "="
                else { return nil }
                if token.line != tokens[index].line { return nil }
                position += 1
                steps += 1
            }
        }
        guard scan.isSymbol(position, "=") else { return nil }
        let name = tokens[index + 1].text
        let previous = scan.text(index - 1)
        let condition = ["if", "guard", "while", ","].contains(previous) || scan.text(index - 2) == "case"
        return (name, false, evaluate(valueRange(from: position + 1, stopAtBrace: condition)))
    }

    /// `for NAME in EXPR {`.
    func forIn(_ index: Int) -> Parsed? {
        guard index + 3 < tokens.count, tokens[index + 1].kind == .identifier, tokens[index + 2].text == "in" else {
            return nil
        }
        let name = tokens[index + 1].text
        return (name, false, evaluate(valueRange(from: index + 3, stopAtBrace: true)))
    }

    /// `NAME = EXPR`, `self.NAME = EXPR`, `owner.member = EXPR`, `dict[key] = EXPR`, `NAME += EXPR`.
    func assignment(_ index: Int, compound: Bool) -> Parsed? {
        guard index >= 1, index + 1 < tokens.count else { return nil }
        let before = index - 1
        let target = tokens[before]
        if target.kind == .identifier {
            let chain = scan.file.receiver(of: before)
            if chain.isEmpty || chain == ["self"] || chain == ["_"] {
                return (target.text, compound, evaluate(valueRange(from: index + 1, stopAtBrace: false)))
            }
            // owner.member = value: the owner now carries the value; a secret-named member makes it a secret.
            let owner = chain.first == "self" && chain.count > 1 ? chain[1] : chain[0]
            let value = valueRange(from: index + 1, stopAtBrace: false)
            var taint = evaluate(value)
            if taint.secret == nil, scan.isSecret(target.text), !scan.isLiteral(value), !isPlaceTokenValue(value) {
                taint.secret = origin("'\(target.text)'", before)
            }
            return (owner, true, taint)
        }
        guard target.isSymbol("]"), scan.file.partner[before] >= 0 else { return nil }
        // dict["password"] = value
        let open = Int(scan.file.partner[before])
        guard open >= 1, tokens[open - 1].kind == .identifier else { return nil }
        let owner = tokens[open - 1].text
        let value = valueRange(from: index + 1, stopAtBrace: false)
        var taint = evaluate(value)
        if taint.secret == nil, !scan.isLiteral(value),
            ((open + 1)..<before).contains(where: {
                tokens[$0].kind == .string && scan.isSecret(tokens[$0].text)
            })
        {
            let key = ((open + 1)..<before).first { tokens[$0].kind == .string && scan.isSecret(tokens[$0].text) }
            taint.secret = origin("'\(key.map { tokens[$0].text } ?? "")'", open)
        }
        taint.merge(evaluate((open + 1)..<before))
        return (owner, true, taint)
    }

    /// Whether `range` is only a place's token (`self.room.token`, `[self.room token]`): a `token` member set from
    /// it names a conversation, not a credential.
    func isPlaceTokenValue(_ range: Range<Int>) -> Bool {
        var last = range.upperBound - 1
        if last > range.lowerBound, scan.file.language == .objectiveC, scan.isSymbol(last, "]") { last -= 1 }
        guard last >= range.lowerBound, tokens[last].kind == .identifier else { return false }
        let plain = range.allSatisfy { position in
            tokens[position].kind == .identifier || tokens[position].kind == .keyword
                || [".", "?", "!", "[", "]"].contains(where: { tokens[position].isSymbol($0) })
        }
        return plain && isPlaceToken(last, tokens[last].text, member: scan.isSymbol(last - 1, "."))
    }

    /// `SecItemCopyMatching(query, &result)`: `result` holds the Keychain item.
    func outParameter(_ index: Int) -> Parsed? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier,
            let open = scan.enclosingOpener(of: index, "(", limit: 64), scan.text(open - 1) == "SecItemCopyMatching"
        else { return nil }
        var taint = Taint()
        taint.secret = origin("a Keychain read", open - 1)
        return (tokens[index + 1].text, false, taint)
    }

    static let mutators: Set<String> = [
        "append", "insert", "merge", "updateValue", "setValue", "setObject", "setString", "setData", "setBlob",
        "setDictionary", "addEntries", "add",
    ]

    /// `owner.append(x)`, `dict.setValue(x, forKey: "password")`, `doc.setString(x, forKey: "pin")`.
    func mutatingCall(_ index: Int) -> Parsed? {
        guard Self.mutators.contains(tokens[index].text) else { return nil }
        let chain = scan.file.receiver(of: index)
        guard let first = chain.first, let call = scan.file.call(at: index) else { return nil }
        let owner = first == "self" && chain.count > 1 ? chain[1] : first
        var taint = evaluate((call.open + 1)..<call.close)
        if taint.secret == nil, let key = call.argument("forKey"),
            let literal = scan.firstString(in: key), scan.isSecret(literal),
            let value = call.arguments.first(where: { $0.label == nil })?.range, !scan.isLiteral(value)
        {
            taint.secret = origin("'\(literal)'", key.lowerBound)
        }
        return (owner, true, taint)
    }

    static let objcMutators: Set<String> = [
        "setObject", "setValue", "appendString", "appendData", "appendFormat", "addObject", "setString",
    ]

    /// Labels of a helper's dictionary argument (`[Utils dict:info setObject:v forKey:k]`).
    static let dictionaryLabels: Set<String> = ["dict", "dictionary", "dic", "mutableDictionary"]

    /// The setter part of a helper message whose dictionary argument is the lone identifier at `position`
    /// (`[Utils dict:info setObject:t forKey:@"token"]` → `setObject`), in Objective-C files.
    func dictionaryHelperSetter(_ position: Int) -> Int? {
        guard scan.file.language == .objectiveC, position >= 2, Self.dictionaryLabels.contains(scan.text(position - 2)),
            let message = scan.message(at: position - 2),
            message.parts.contains(where: { $0.index == position - 2 && $0.argument == position..<(position + 1) })
        else { return nil }
        return message.parts.first { Self.objcMutators.contains($0.label) && $0.index > position }?.index
    }

    /// `[dict setObject:x forKey:@"token"]`, `[blob appendString:password]`, and a helper's
    /// `[Utils dict:dict setObject:x forKey:@"token"]`.
    func objcMutatingMessage(_ index: Int) -> Parsed? {
        guard Self.objcMutators.contains(tokens[index].text), let message = scan.message(at: index) else { return nil }
        let owner: String
        var parts = message.parts
        if message.parts.first?.index == index,
            message.receiver.count == 1
                || (message.receiver.count == 3 && scan.text(message.receiver.lowerBound) == "self")
        {
            owner = scan.text(message.receiver.upperBound - 1)
        } else if let dictionary = parts.firstIndex(where: {
            Self.dictionaryLabels.contains($0.label) && $0.argument.count == 1 && $0.index < index
        }) {
            owner = scan.text(parts[dictionary].argument.lowerBound)
            parts.remove(at: dictionary)
        } else {
            return nil
        }
        var taint = Taint()
        for part in parts { taint.merge(evaluate(part.argument)) }
        if taint.secret == nil, let key = message.argument("forKey"), let literal = scan.firstString(in: key),
            scan.isSecret(literal), let value = parts.first(where: { $0.index == index })?.argument,
            !scan.isLiteral(value)
        {
            taint.secret = origin("'\(literal)'", key.lowerBound)
        }
        return (owner, true, taint)
    }

    /// The right-hand side starting at `start`: to the end of the statement, across lines that continue it (an
    /// operator at the end of a line, or a line that starts with `.` or a binary operator), over brackets and
    /// trailing closures; in a condition (`if let`, `guard let`), up to its `{` or `else`.
    func valueRange(from start: Int, stopAtBrace: Bool) -> Range<Int> {
        guard start < tokens.count else { return start..<start }
        var line = tokens[start].line
        var index = start
        let limit = min(tokens.count, start + Self.maximumExpression)
        while index < limit {
            let token = tokens[index]
            if token.line != line, index > start {
                let previous = tokens[index - 1]
                let continues =
                    (previous.kind == .operator && previous.text != "!" && previous.text != "?")
                    || token.isSymbol(".")
                    || (token.kind == .operator && ["+", "??", "&&", "||", "-", "*"].contains(token.text))
                guard continues else { break }
                line = token.line
            }
            if stopAtBrace, token.isSymbol("{") || (token.kind == .keyword && token.text == "else") { break }
            if scan.file.partner[index] > index, token.kind != .interpolationEnd {
                let close = Int(scan.file.partner[index])
                line = tokens[close].line
                index = close + 1
                continue
            }
            if token.kind == .punctuation, [";", "}", ")", "]", ","].contains(token.text) { break }
            if index > start, token.kind == .keyword,
                ["let", "var", "return", "if", "guard", "func", "case", "else"].contains(token.text)
            {
                break
            }
            index += 1
        }
        return start..<index
    }
}

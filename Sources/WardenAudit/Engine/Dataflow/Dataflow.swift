/// A function-local dataflow pass over the tokens of one Swift or Objective-C file.
///
/// One pass in token order records every binding: `let`/`var` declarations (with `if`/`guard let`), Objective-C
/// declarations, `for ... in`, assignments and `+=`, member and subscript assignments (`user.password = p` and
/// `dict["token"] = t` taint `user` and `dict`), mutating calls (`append`, `setValue(_:forKey:)`,
/// `[dict setObject:forKey:]`) and `SecItemCopyMatching`'s out-parameter. The value of each binding is the taint
/// of its right-hand side: the sources it names (``SecretNames``, secure text fields, Keychain reads, JWT decoding,
/// weak random calls, authorization URLs) and the tainted variables it reads, through interpolation,
/// concatenation, `Data(x.utf8)`, `.data(using:)`, encoders, archives, dictionary and array literals and
/// initialisers. Hashing, encryption and redaction (``sanitizers``) stop a secret.
///
/// Variables are looked up in their scope (``FileScan/scopes``) at the last binding before the use, so a value
/// flows forward within a function and never between functions.
final class Dataflow {
    // The scan owns the flow and outlives it; `unowned(unsafe)` spares a reference-count check on every access.
    unowned(unsafe) let scan: FileScan
    let tokens: [Token]

    /// Functions of this file that return JWT claims they decoded by hand (see ``JWTRules``).
    var claimsFunctions: [String: Origin] = [:]
    /// The value of each binding site asked about, by the token the binding is attributed to.
    var siteTaints: [Int32: Taint] = [:]
    var evaluating = Set<Int32>()
    var depth = 0
    /// The spellings bound in each scope asked about, ascending (``boundNames(in:)``).
    var bound: [Int32: [Int32]] = [:]
    /// ``info(_:)`` by spelling number, for this file.
    var infos: [NameInfo?] = []
    /// ``propertyTaint(_:_:ofTypeAround:)`` by type and spelling (`.some(nil)`: nothing of interest). Only complete
    /// results are kept.
    var propertyTaints: [Int64: Taint?] = [:]
    /// The identifier tokens of each spelling, built the first time a property is followed.
    var occurrences: [Int32: [Int32]]?
    /// Spellings declared with `let`/`var` directly in a type body (stored properties), and whether each scope asked
    /// about is a type body.
    var storedProperties: Set<Int32>?
    var typeBodies: [Int32: Bool] = [:]
    /// ``localScopes(of:)`` by spelling.
    var localScopesBySpelling: [Int32: Set<Int32>] = [:]
    /// Where the innermost ``evaluate(_:)`` began (a UUID passed to a call inside it is that call's argument).
    var evaluationStart = 0
    /// Properties being computed, innermost last, and whether a computation met an outer one or the depth limit (its
    /// result is then partial and not kept: ``propertyTaint(_:_:ofTypeAround:)``).
    var propertyStack: [Int64] = []
    var propertyIncomplete = false
    /// ``copiedIntoProperty(_:in:)`` by scope and spelling.
    var copiedIntoProperties: [Int64: Origin?] = [:]

    struct Key: Hashable {
        let scope: Int32
        let name: String
    }

    /// The longest expression evaluated, in tokens (a pathological file stays linear).
    static let maximumExpression = 4096

    init(scan: FileScan) {
        self.scan = scan
        tokens = scan.tokens
    }

    // MARK: - Queries

    /// What the expression `range` carries.
    func evaluate(_ range: Range<Int>) -> Taint {
        var taint = Taint()
        let end = min(range.upperBound, range.lowerBound + Self.maximumExpression, tokens.count)
        var index = max(range.lowerBound, 0)
        let outerStart = evaluationStart
        evaluationStart = index
        defer { evaluationStart = outerStart }
        var visited = 0
        defer { scan.spend(visited) }
        while index < end {
            visited += 1
            let token = tokens[index]
            switch token.kind {
            case .identifier:
                index = identifier(index, end: end, into: &taint)
                continue
            case .string:
                string(index, end: end, into: &taint)
            default:
                break
            }
            index += 1
        }
        return taint
    }
}

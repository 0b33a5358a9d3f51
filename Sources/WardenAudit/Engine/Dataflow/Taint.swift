/// Where a value of interest came from and the variables that carried it to where it is used.
struct Origin: Sendable {
    /// The source as a message names it: `'password'`, `the text of 'passwordField'`, `a Keychain read`,
    /// `arc4random()`. Never a value.
    let source: String
    /// The line of the source.
    let line: Int32
    /// The variables the value went through, in order, with the line each was assigned on.
    var path: [(name: String, line: Int32)] = []

    /// `'password' (line 3) via blob (line 4)`, or just `'password'` when it is used where it is named.
    func describe(at sinkLine: Int32) -> String {
        if path.isEmpty, line == sinkLine { return source }
        let via = path.isEmpty ? "" : " via " + path.map { "\($0.name) (line \($0.line))" }.joined(separator: ", ")
        return "\(source) (line \(line))\(via)"
    }
}

/// What an expression or a variable carries. Each kind keeps the first origin that reached it.
struct Taint: Sendable {
    /// A secret: a password, token, key, PIN, credential, a Keychain read, a secure text field's text.
    var secret: Origin?
    /// Non-cryptographic or too-short randomness.
    var random: Origin?
    /// A whole UUID: unique, but not hard to guess by contract (RFC 9562 §8: never a security capability).
    var uuid: Origin?
    /// A JWT split into its segments (before decoding).
    var segments: Origin?
    /// JWT claims decoded without verifying the signature.
    var claims: Origin?
    /// An authorization (sign-in) URL or request.
    var authorizationURL: Origin?
    /// A token that is an identifier by its own name (`deviceToken`, `pushToken`: ``SecretNames/isPublicToken(_:)``):
    /// a variable holding one is not a secret because it is called `token`.
    var publicToken = false

    var isEmpty: Bool {
        secret == nil && random == nil && uuid == nil && segments == nil && claims == nil && authorizationURL == nil
            && !publicToken
    }

    mutating func merge(_ other: Taint) {
        if secret == nil { secret = other.secret }
        if random == nil { random = other.random }
        if uuid == nil { uuid = other.uuid }
        if segments == nil { segments = other.segments }
        if claims == nil { claims = other.claims }
        if authorizationURL == nil { authorizationURL = other.authorizationURL }
        publicToken = publicToken || other.publicToken
    }

    /// The same taint after passing through the variable `name` assigned on `line`.
    func through(_ name: String, line: Int32) -> Taint {
        func extend(_ origin: Origin?) -> Origin? {
            guard var origin else { return nil }
            if origin.path.count < 6, origin.path.last?.name != name { origin.path.append((name, line)) }
            return origin
        }
        return Taint(
            secret: extend(secret), random: extend(random), uuid: extend(uuid), segments: extend(segments),
            claims: extend(claims),
            authorizationURL: extend(authorizationURL), publicToken: publicToken)
    }
}

/// `nbf` (RFC 7519 §4.1.5): not valid before `nbf - leeway`.
public struct NotBeforePolicy: ClaimPolicy {
    /// How long before `nbf` a token is already accepted.
    public let leeway: Leeway

    /// A policy checking `nbf` when present; `leeway` defaults to ``Leeway/standard`` (60 s).
    public init(leeway: Leeway = .standard) { self.leeway = leeway }

    public func check(_ context: ClaimContext) throws(JOSEError) {
        guard let nbf = try context.claims.notBefore else { return }
        if nbf.timeIntervalSince(context.now) > leeway.seconds {
            throw JOSEError(.notYetValid, "the token is not valid yet (nbf)")
        }
    }
}

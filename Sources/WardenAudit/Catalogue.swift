/// Every rule Warden's auditor knows, with its MASVS control and MASWE weakness. The entries live with the family
/// that reports them (`Rules/`); this is their public, ordered list.
public enum Catalogue {
    /// A `warden:ignore` comment without a known rule id or a reason.
    public static let invalidSuppression = RuleInfo(
        id: "invalid-suppression", severity: .warning, name: "Suppression without a rule or reason",
        message: "warden:ignore needs a known rule id and a reason",
        fix: "Write '// warden:ignore RULE-ID why this is safe'.", masvs: [])

    /// All rules, in report order (family by family, as ``RuleSet/all`` lists them).
    public static let all: [RuleInfo] = RuleSet.all.flatMap(\.reports) + [invalidSuppression]

    /// The rule with `id`.
    public static func rule(_ id: String) -> RuleInfo? { byID[id] }
    private static let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}

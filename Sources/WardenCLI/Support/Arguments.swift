import WardenCore

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Whether a command can run without the option. The parser enforces it and the usage line is written from it,
    /// so help and behaviour cannot drift apart.
    enum Requirement: Hashable, Sendable {
        case optional
        case required
        /// Exactly one option of the named group (`(--jwk FILE | --jwks FILE)`).
        case oneOf(String)
    }

    let name: String  // without the leading dashes
    let valueName: String?  // nil for a flag
    let help: String
    var repeatable = false
    var requirement = Requirement.optional

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }
    static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeatable: repeatable)
    }

    /// The same option, which every run must give.
    func required() -> OptionSpec {
        var copy = self
        copy.requirement = .required
        return copy
    }
    /// The same option as one alternative of `group`: a run gives exactly one option of the group.
    func oneOf(_ group: String) -> OptionSpec {
        var copy = self
        copy.requirement = .oneOf(group)
        return copy
    }

    /// `--name VALUE`, or `--name` for a flag, as the usage line shows it.
    var synopsis: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }
}

/// The option names a command looked at, so a declared option that no code path reads is caught
/// (`OptionReadTests`): the dispatcher hands the record to ``current`` when a test has set one.
final class OptionReads: Sendable {
    private let names = Locked<Set<String>>([])
    func insert(_ name: String) { names.withLock { _ = $0.insert(name) } }
    var all: Set<String> { names.current }

    /// Set by tests around an in-process run; nil otherwise (recording then costs one set insertion per read).
    @TaskLocal static var current: OptionReads?
}

/// Parsed options and positionals, in the style of swift-argument-parser: unknown flags, missing values and
/// repeated single-use options are usage errors (exit 2).
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []
    private let reads = OptionReads.current ?? OptionReads()

    init(_ arguments: [String], options: [OptionSpec]) throws {
        let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            guard argument.hasPrefix("--") else { throw CLIError.usage("unknown option '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = byName[name] else { throw CLIError.usage("unknown option '--\(name)'") }
            if spec.valueName == nil {
                guard inlineValue == nil else { throw CLIError.usage("'--\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw CLIError.usage("'--\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            if !spec.repeatable, values[name] != nil { throw CLIError.usage("'--\(name)' given more than once") }
            values[name, default: []].append(value)
        }
        try checkRequirements(options)
    }

    /// Every required option is there, and exactly one of each group: in declaration order, so the first missing
    /// option is the one named.
    private func checkRequirements(_ options: [OptionSpec]) throws {
        func given(_ spec: OptionSpec) -> Bool { values[spec.name] != nil || flags.contains(spec.name) }
        var checked: Set<String> = []
        for spec in options {
            switch spec.requirement {
            case .optional: continue
            case .required:
                guard given(spec) else { throw CLIError.usage("missing '--\(spec.name)'") }
            case .oneOf(let group):
                guard checked.insert(group).inserted else { continue }
                let members = options.filter { $0.requirement == spec.requirement }
                let present = members.filter(given)
                if present.isEmpty {
                    let others = members.dropFirst().map { "'--\($0.name)'" }.joined(separator: " or ")
                    throw CLIError.usage("missing '--\(members[0].name)' (or \(others))")
                }
                if present.count > 1 {
                    throw CLIError.usage(
                        present.map { "'--\($0.name)'" }.joined(separator: " and ") + " exclude each other")
                }
            }
        }
    }

    func value(_ name: String) -> String? {
        reads.insert(name)
        return values[name]?.first
    }
    func all(_ name: String) -> [String] {
        reads.insert(name)
        return values[name] ?? []
    }
    func has(_ name: String) -> Bool {
        reads.insert(name)
        return flags.contains(name)
    }

    func required(_ name: String) throws -> String {
        guard let value = value(name) else { throw CLIError.usage("missing '--\(name)'") }
        return value
    }

    func integer(_ name: String, range: ClosedRange<Int>? = nil) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.map({ $0.contains(number) }) ?? true else {
            let bounds = range.map { " (\($0.lowerBound)...\($0.upperBound))" } ?? ""
            throw CLIError.usage("'--\(name)' needs an integer\(bounds), got '\(text)'")
        }
        return number
    }

    func singlePositional(_ what: String) throws -> String {
        guard positionals.count == 1 else {
            throw CLIError.usage(
                positionals.isEmpty ? "missing \(what)" : "expected one \(what), got \(positionals.count)")
        }
        return positionals[0]
    }
}

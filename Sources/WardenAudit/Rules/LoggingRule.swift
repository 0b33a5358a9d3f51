/// Secrets written to the logs: `print`, `debugPrint`, `dump`, `NSLog`, `os_log` with a `{public}` format,
/// `Logger` interpolations marked `.public`, CocoaLumberjack's `DDLog*`, in Swift and Objective-C, whether the
/// secret is named in the call or reached it through variables. Code compiled only into debug builds
/// (`#if DEBUG`) is left out.
struct LoggingRule: Rule {
    static let secretInLog = RuleInfo(
        id: "secret-in-log", severity: .error, name: "Secret in logs",
        message: "A secret is written to the logs", fix: "Log a redacted form (Warden's Redacted) or nothing.",
        masvs: ["MASVS-STORAGE-2"], maswe: ["MASWE-0005"])

    var reports: [RuleInfo] { [Self.secretInLog] }

    static let functions: Set<String> = [
        "print", "debugPrint", "NSLog", "dump", "os_log", "NSLogv", "os_log_debug", "os_log_info", "os_log_error",
        "os_log_fault", "os_log_with_type",
    ]
    static let lumberjack: Set<String> = ["DDLogInfo", "DDLogDebug", "DDLogError", "DDLogWarn", "DDLogVerbose"]
    static let loggerMethods: Set<String> = [
        "debug", "info", "notice", "error", "warning", "fault", "critical", "trace", "log", "verbose", "severe",
    ]

    /// Logging libraries whose messages are written as given, interpolations included (unlike `os.Logger`).
    static let plainLoggers: Set<String> = ["XCGLogger", "SwiftyBeaver"]

    var triggers: Triggers {
        Triggers(
            identifiers: Self.functions.union(Self.lumberjack).union(Self.loggerMethods).union(Self.plainLoggers))
    }

    static func plainLoggerFlag(_ name: String) -> String { "plainLogger:" + name }

    /// The first secret-named value of `range` used as it is: not compared, not called, no member read from it.
    static func namedSecret(_ scan: FileScan, in range: Range<Int>) -> Int? {
        let comparisons = ["==", "!=", "===", "!==", "<", ">", "?", "??"]
        return range.first { position in
            scan.tokens[position].kind == .identifier && scan.isSecret(scan.tokens[position].text)
                && !scan.isSymbol(position + 1, ".") && !scan.isSymbol(position + 1, "(")
                && !scan.isSymbol(position + 1, ":")
                && !comparisons.contains { scan.isSymbol(position + 1, $0) || scan.isSymbol(position - 1, $0) }
        }
    }

    func check(_ scan: FileScan, at index: Int) {
        let name = scan.tokens[index].text
        if Self.plainLoggers.contains(name) {
            // var Log: XCGLogger = { ... }() / let log = XCGLogger(identifier:) / let log = SwiftyBeaver.self
            var position = index - 1
            while position > max(0, index - 4), !["var", "let"].contains(scan.text(position - 1)) { position -= 1 }
            if ["var", "let"].contains(scan.text(position - 1)), scan.tokens[position].kind == .identifier,
                scan.isSymbol(position + 1, ":") || scan.isSymbol(position + 1, "=")
            {
                scan.facts.flags.insert(Self.plainLoggerFlag(scan.tokens[position].text))
            }
            return
        }
        // `error`, `info`, `log` are common names: only calls, and methods only on a receiver named like a logger.
        guard scan.isSymbol(index + 1, "(") else { return }
        let method = Self.loggerMethods.contains(name)
        if method, !scan.isSymbol(index - 1, ".") { return }
        guard let call = scan.file.call(at: index) else { return }
        let arguments = (call.open + 1)..<call.close
        if method {
            guard scan.isSymbol(index - 1, "."), let logger = scan.file.receiver(of: index).last,
                FastText.contains(logger, "log", caseInsensitive: true)
            else { return }
            // Current.Log.error("... \(secret)"): a logger the project declares as a plain logging library's
            // writes the message as it is. Only a secret named in the call itself (`\(secret)`, not compared, not a
            // member of it such as `.hash`): such loggers take whole objects, which the dataflow over-approximates.
            if !scan.isDebugOnly(index), let named = Self.namedSecret(scan, in: arguments),
                let origin = scan.secret(in: named..<(named + 1))
            {
                scan.report(
                    Self.secretInLog, at: index, scan.message(origin, at: index, "is written to the logs by \(name)"),
                    if: Self.plainLoggerFlag(logger))
            } else if !scan.isDebugOnly(index),
                let through = scan.throughParameters(value: arguments, key: nil, at: index, .openedURL)
            {
                // func handle(url: URL) { Current.Log.verbose("Received URL: \(url)") }: a caller names the secret.
                scan.report(
                    Self.secretInLog, at: index,
                    scan.parameterMessage(through.use, "is written to the logs by \(name)"),
                    if: through.flag, and: Self.plainLoggerFlag(logger))
            }
            // logger.info("\(token, privacy: .public)"): Logger interpolations are private unless marked .public.
            guard arguments.contains(where: { scan.text($0) == "public" && scan.isSymbol($0 - 1, ".") }) else {
                return
            }
            // Only the interpolations marked .public are written in the clear.
            var position = arguments.lowerBound
            while position < arguments.upperBound {
                if scan.tokens[position].kind == .interpolationStart, scan.file.partner[position] > position {
                    let end = Int(scan.file.partner[position])
                    let segment = (position + 1)..<end
                    if segment.contains(where: { scan.text($0) == "public" && scan.isSymbol($0 - 1, ".") }),
                        !scan.isDebugOnly(index), let origin = scan.secret(in: segment)
                    {
                        scan.report(
                            Self.secretInLog, at: index,
                            scan.message(origin, at: index, "is written to the logs by \(name) (privacy: .public)"))
                        return
                    }
                    position = end
                }
                position += 1
            }
            return
        } else {
            if scan.file.language == .swift, scan.isSymbol(index - 1, ".") { return }
            if name.hasPrefix("os_log") {
                osLog(scan, index, name, call)
                return
            }
        }
        guard !scan.isDebugOnly(index) else { return }
        guard let origin = scan.secret(in: arguments) else {
            if let through = scan.throughParameters(value: arguments, key: nil, at: index, .openedURL) {
                scan.report(
                    Self.secretInLog, at: index,
                    scan.parameterMessage(through.use, "is written to the logs by \(name)"),
                    if: through.flag)
            }
            return
        }
        scan.report(Self.secretInLog, at: index, scan.message(origin, at: index, "is written to the logs by \(name)"))
    }

    /// Objective-C logging macros: `#define Warning(fmt, args...) NSLog(@"%s " fmt, __FUNCTION__, ##args)` in a
    /// header makes `Warning("token=%@", self.token)` a log call in every file that uses it. The call is reported
    /// once some file of the project defines the macro so; a macro defined only in debug builds (`#if DEBUG`), like
    /// a call compiled only there, is left out.
    func finish(_ scan: FileScan) {
        guard scan.file.language == .objectiveC else { return }
        let tokens = scan.tokens
        for index in tokens.indices where tokens[index].kind == .directive {
            guard let name = Self.loggingMacro(tokens[index].text), !scan.isDebugOnly(index) else { continue }
            scan.facts.flags.insert(Self.macroFlag(name))
        }
        for index in tokens.indices
        where tokens[index].kind == .identifier && scan.isSymbol(index + 1, "(") && index + 2 < tokens.count
            && tokens[index + 2].kind == .string && !scan.isSymbol(index - 1, ".")
        {
            let name = tokens[index].text
            guard !Self.functions.contains(name), !Self.lumberjack.contains(name), !Self.notLogging.contains(name),
                !scan.isDebugOnly(index), let call = scan.file.call(at: index),
                let origin = scan.secret(in: (call.open + 1)..<call.close)
            else { continue }
            scan.report(
                Self.secretInLog, at: index,
                scan.message(origin, at: index, "is written to the logs by \(name) (a macro over NSLog)"),
                if: Self.macroFlag(name))
        }
    }

    static func macroFlag(_ name: String) -> String { "logMacro:" + name }

    /// Calls with a leading string that are not logging macros, whatever a project defines.
    static let notLogging: Set<String> = [
        "NSLocalizedString", "NSLocalizedStringFromTable", "NSAssert", "NSCAssert", "NSParameterAssert",
        "sel_registerName",
        "NSSelectorFromString", "NSClassFromString", "strcmp", "strlen", "sprintf", "snprintf", "fopen",
    ]

    /// The name of a function-like macro whose body logs (`NSLog`, `NSLogv`, `os_log`, `printf`, CocoaLumberjack):
    /// `#define Warning(fmt, args...) NSLog(...)` → `Warning`.
    static func loggingMacro(_ line: String) -> String? {
        guard line.hasPrefix("#"), FastText.contains(line, "define") else { return nil }
        var rest = line.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix("define") else { return nil }
        rest = rest.dropFirst("define".count).drop { $0 == " " || $0 == "\t" }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, rest.dropFirst(name.count).first == "(",
            let close = rest.firstIndex(of: ")")
        else { return nil }
        let body = rest[rest.index(after: close)...]
        let loggers = ["NSLog(", "NSLogv(", "os_log(", "os_log_with_type(", "printf(", "DDLog"]
        return loggers.contains { FastText.contains(String(body), $0) } ? String(name) : nil
    }

    /// `os_log("%{public}@ %@", log: log, type: .info, a, b)` / `os_log(log, "%{public}@", a)`: only the arguments
    /// whose specifier is `{public}` are written in the clear (the others are redacted as `<private>`).
    private func osLog(_ scan: FileScan, _ index: Int, _ name: String, _ call: SourceFile.Call) {
        guard
            let formatIndex = call.arguments.firstIndex(where: { argument in
                argument.label == nil && argument.range.count == 1
                    && scan.tokens[argument.range.lowerBound].kind == .string
            })
        else { return }
        let format = scan.tokens[call.arguments[formatIndex].range.lowerBound].text
        let values = call.arguments[(formatIndex + 1)...].filter { $0.label == nil }.map(\.range)
        for (position, isPublic) in Self.specifiers(format).enumerated() where isPublic && position < values.count {
            guard !scan.isDebugOnly(index), let origin = scan.secret(in: values[position]) else { continue }
            scan.report(
                Self.secretInLog, at: index,
                scan.message(origin, at: index, "is written to the logs by \(name) ({public})"))
            return
        }
    }

    /// For each conversion of a printf-style format, whether it is marked `{public}` (`%%` is not a conversion).
    static func specifiers(_ format: String) -> [Bool] {
        var result: [Bool] = []
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { continue }
            var spec = ""
            while let next = characters.next() {
                spec.append(next)
                if next == "{" {  // {public}, {private}, {bool}...: read to the brace
                    while let inner = characters.next() {
                        spec.append(inner)
                        if inner == "}" { break }
                    }
                    continue
                }
                if next == "%" && spec.count == 1 { break }
                if next.isLetter && !"hlqLjzt".contains(next) || next == "@" { break }
            }
            if spec == "%" { continue }
            result.append(spec.contains("{public}"))
        }
        return result
    }
}

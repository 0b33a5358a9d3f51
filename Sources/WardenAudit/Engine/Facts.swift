/// A position in a file (1-based line and column).
struct Position: Sendable, Hashable {
    let line: Int
    let column: Int
}

/// What one file tells the project-wide rules: named marks (where LocalAuthentication is used, where passkeys are
/// requested...) and named flags (an Info.plist has NSFaceIDUsageDescription...). Each family picks its own names.
struct FileFacts: Sendable {
    var marks: [String: [Position]] = [:]
    var flags: Set<String> = []
    /// Findings that hold only if some file of the project raises their flag: a write to a Core Data attribute
    /// declared in another file, a call of a logging macro defined in a header.
    var pending: [PendingFinding] = []
    /// Flags raised when another flag is: (`to`, `from`). A caller that passes its own parameter on raises the
    /// callee's argument flag when its own is raised (``FileScan/argumentFlag(_:_:_:_:)``).
    var implications: [(to: String, from: String)] = []
    /// Whether the file's findings stand for the app (``FileScan/findingFlag(_:)``): not in test code.
    var findingsCount = true

    mutating func mark(_ name: String, _ position: Position) { marks[name, default: []].append(position) }
}

/// A finding of one file that another file decides: it is reported when any file raised ``flag`` (and ``also``) and none raised
/// ``unless`` (a store of that name made with an accessibility somewhere: which one the code means is not known).
struct PendingFinding: Sendable {
    let flag: String
    /// A second flag the finding also needs (a store made without an accessibility in one file, the secret-holding
    /// type of the value in another).
    var also: String?
    var unless: String?
    let finding: RawFinding
}

/// The facts of every file, in the order the files were read.
struct ProjectFacts: Sendable {
    let files: [FileFacts]

    /// Whether any file raised `flag`.
    func any(_ flag: String) -> Bool { files.contains { $0.flags.contains(flag) } }

    /// Each file's pending findings whose flag some file raised: (file index, finding).
    ///
    /// The raised flags grow to a fixpoint: an implication raises its flag when its source is raised, and a
    /// confirmed finding raises `finding:<rule id>` (``FileScan/findingFlag(_:)``), as a finding reported outright
    /// does, so that a finding can wait on another one of a rule (a copy of the whole of the defaults waits on a
    /// secret written to them).
    func confirmedPending() -> [(file: Int, finding: RawFinding)] {
        guard files.contains(where: { !$0.pending.isEmpty }) else { return [] }
        var raised = files.reduce(into: Set<String>()) { $0.formUnion($1.flags) }
        var implied: [String: [String]] = [:]
        for file in files { for (to, from) in file.implications { implied[from, default: []].append(to) } }
        // Expands what `flags` imply; each flag is expanded once, whatever cycles the implications make.
        var expanded = Set<String>()
        func raise(_ flags: [String]) {
            var work = flags
            while let next = work.popLast() {
                raised.insert(next)
                guard expanded.insert(next).inserted else { continue }
                work.append(contentsOf: implied[next] ?? [])
            }
        }
        if !implied.isEmpty { raise(Array(raised)) }
        func holds(_ pending: PendingFinding) -> Bool {
            raised.contains(pending.flag) && (pending.also.map(raised.contains) ?? true)
                && !(pending.unless.map(raised.contains) ?? false)
        }
        var confirmed = files.map { [Bool](repeating: false, count: $0.pending.count) }
        var changed = true
        while changed {
            changed = false
            for file in files.indices {
                for (position, pending) in files[file].pending.enumerated() where !confirmed[file][position] {
                    guard holds(pending) else { continue }
                    confirmed[file][position] = true
                    let flag = FileScan.findingFlag(pending.finding.rule.id)
                    if files[file].findingsCount, !raised.contains(flag) {
                        raise([flag])
                        changed = true
                    }
                }
            }
        }
        return files.indices.flatMap { file in
            files[file].pending.indices.filter { confirmed[file][$0] }.map { (file, files[file].pending[$0].finding) }
        }
    }

    /// The first mark called `name` in each file that has one: (file index, position).
    func firstMarks(_ name: String) -> [(file: Int, position: Position)] {
        files.indices.compactMap { index in files[index].marks[name]?.first.map { (index, $0) } }
    }
}

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
    func confirmedPending() -> [(file: Int, finding: RawFinding)] {
        guard files.contains(where: { !$0.pending.isEmpty }) else { return [] }
        let raised = files.reduce(into: Set<String>()) { $0.formUnion($1.flags) }
        return files.indices.flatMap { index in
            files[index].pending.filter { pending in
                raised.contains(pending.flag) && (pending.also.map(raised.contains) ?? true)
                    && !(pending.unless.map(raised.contains) ?? false)
            }.map { (index, $0.finding) }
        }
    }

    /// The first mark called `name` in each file that has one: (file index, position).
    func firstMarks(_ name: String) -> [(file: Int, position: Position)] {
        files.indices.compactMap { index in files[index].marks[name]?.first.map { (index, $0) } }
    }
}

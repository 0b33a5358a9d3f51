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

    mutating func mark(_ name: String, _ position: Position) { marks[name, default: []].append(position) }
}

/// The facts of every file, in the order the files were read.
struct ProjectFacts: Sendable {
    let files: [FileFacts]

    /// Whether any file raised `flag`.
    func any(_ flag: String) -> Bool { files.contains { $0.flags.contains(flag) } }

    /// The first mark called `name` in each file that has one: (file index, position).
    func firstMarks(_ name: String) -> [(file: Int, position: Position)] {
        files.indices.compactMap { index in files[index].marks[name]?.first.map { (index, $0) } }
    }
}

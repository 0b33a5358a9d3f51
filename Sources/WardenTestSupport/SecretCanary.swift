import Foundation

/// Finds secrets that leaked into text: the "canary" used by Warden's tests around whole flows.
///
/// A leak is any secret, or any 12-character substring of one, found in the scanned outputs (log lines, error
/// descriptions, CLI output).
///
/// ```swift
/// let canary = SecretCanary(secrets: [accessToken, refreshToken, clientSecret])
/// let leaks = canary.leaks(in: logLines + [String(describing: error)] + [cliOutput])
/// #expect(leaks.isEmpty)
/// ```
package struct SecretCanary: Sendable {
    /// One finding.
    package struct Leak: Sendable, CustomStringConvertible {
        /// Index of the secret in the canary's list (the secret itself is never printed).
        package let secretIndex: Int
        /// Index of the output in which it was found.
        package let outputIndex: Int
        package var description: String { "secret #\(secretIndex) leaked into output #\(outputIndex)" }
    }

    /// The length of substring that counts as a leak.
    package static let substringLength = 12

    private let secrets: [[Substring]]

    /// A canary for `secrets` (each should be at least 12 characters).
    package init(secrets: [String]) {
        self.secrets = secrets.map { secret in
            guard secret.count > Self.substringLength else { return [Substring(secret)] }
            var windows: [Substring] = []
            var start = secret.startIndex
            while let end = secret.index(start, offsetBy: Self.substringLength, limitedBy: secret.endIndex) {
                windows.append(secret[start..<end])
                start = secret.index(after: start)
            }
            return windows
        }
    }

    /// Every leak of every secret in `outputs`.
    package func leaks(in outputs: [String]) -> [Leak] {
        var found: [Leak] = []
        for (outputIndex, output) in outputs.enumerated() {
            for (secretIndex, windows) in secrets.enumerated() where windows.contains(where: { output.contains($0) }) {
                found.append(Leak(secretIndex: secretIndex, outputIndex: outputIndex))
            }
        }
        return found
    }
}

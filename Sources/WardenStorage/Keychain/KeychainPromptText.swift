import Foundation

/// The text a protected read's prompt shows: the app's, when it has something to show (not empty, not only white space
/// or control characters, the check LocalAuthentication's reasons get), else nil — the system's own text. A blank
/// `localizedReason` is never handed to `LAContext`, which raises an Objective-C exception (a crash) for a blank reason
/// where it evaluates one.
package enum KeychainPromptText {
    package static func presentable(_ prompt: String?) -> String? {
        guard let prompt,
            prompt.unicodeScalars.contains(where: {
                !$0.properties.isWhitespace && $0.properties.generalCategory != .control
            })
        else { return nil }
        return prompt
    }
}

import Foundation

/// Comparison whose running time does not depend on where the inputs differ.
///
/// Use it for every comparison of attacker-controlled input with a secret: OAuth `state`, MACs, signatures,
/// hashed nonces. Inputs of different lengths compare unequal (the length itself is not secret).
///
/// ```swift
/// guard ConstantTime.equals(Array(receivedState.utf8), Array(expectedState.utf8)) else { throw ... }
/// ```
public enum ConstantTime {
    /// `true` when both byte sequences are identical.
    public static func equals(_ lhs: some ContiguousBytes, _ rhs: some ContiguousBytes) -> Bool {
        lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                guard a.count == b.count else { return false }
                var difference: UInt8 = 0
                for index in 0..<a.count { difference |= a[index] ^ b[index] }
                return difference == 0
            }
        }
    }

    /// `true` when both strings have identical UTF-8 bytes.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}

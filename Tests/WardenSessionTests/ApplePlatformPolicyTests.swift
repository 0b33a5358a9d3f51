import Testing
import WardenSession

@Suite("Apple platform policies")
struct ApplePlatformPolicyTests {
    /// An empty reason makes `LAContext` raise an Objective-C exception (a crash): `BiometricGate` refuses it first.
    @Test func aBlankBiometricReasonIsRefusedBeforeLAContextSeesIt() {
        #expect(BiometricPromptReason.isPresentable("Confirm the payment"))
        for blank in ["", " ", "\n\t", "\u{0}", "\u{2003}"] {
            #expect(!BiometricPromptReason.isPresentable(blank), "\(Array(blank.unicodeScalars))")
        }
    }

    @Test func credentialStateReactions() {
        #expect(AppleIDCredentialReaction.reaction(to: .authorized) == .keepSession)
        #expect(AppleIDCredentialReaction.reaction(to: .revoked) == .signOut)
        #expect(AppleIDCredentialReaction.reaction(to: .notFound) == .signOut)
        #expect(AppleIDCredentialReaction.reaction(to: .transferred) == .reauthenticate)
    }

    @Test func faceIDUsageDescription() {
        #expect(
            UsageDescriptionCheck.faceIDUsageDescription(in: ["NSFaceIDUsageDescription": "Unlock your account"])
                == "Unlock your account")
        #expect(UsageDescriptionCheck.faceIDUsageDescription(in: ["NSFaceIDUsageDescription": "  "]) == nil)
        #expect(UsageDescriptionCheck.faceIDUsageDescription(in: [:]) == nil)
    }
}

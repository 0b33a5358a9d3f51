import Testing
import WardenSession

@Suite("Apple platform policies")
struct ApplePlatformPolicyTests {
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

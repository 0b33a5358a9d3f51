// WardenApple: the Apple layer. Every file outside `Decisions/` compiles only where its framework exists (checked
// once per whole file) and calls the framework and nothing clever. The decisions live in `Decisions/`, portable and
// compiled everywhere, so WardenAppleTests runs them on Linux: the browser and authorization slots
// (BrowserSessionSlot, AuthorizationRequestSlot), WebAuthenticationCallback, the ASAuthorization error mapping and
// outcomes, AppleIDCredentialReaction, BiometricPolicyChoice, UsageDescriptionCheck, RefreshTokenProtection,
// PrivacyMaskPolicy. Other portable pieces it uses live with their concept (PendingAuthorization, PinSet,
// AppleSignInNonce).

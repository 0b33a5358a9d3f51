// WardenApple: the Apple-only layer. Every file compiles only where its framework exists (checked once per
// whole file); on Linux this module is empty. Each file calls the framework and nothing clever: the decisions
// live in portable, tested types (PendingAuthorization, WebAuthenticationCallback, PinSet,
// AppleIDCredentialReaction, BiometricPolicyChoice, UsageDescriptionCheck, AppleSignInNonce).

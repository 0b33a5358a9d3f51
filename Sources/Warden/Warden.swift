// The umbrella module: `import Warden` brings in every portable module and, on Apple platforms, the Apple layer
// (WardenApple: the browser sheet, Keychain biometry, Secure Enclave keys, Sign in with Apple, passkeys, the
// privacy mask), so an app needs one product and one import. WardenApple compiles empty elsewhere.
@_exported import WardenCore
@_exported import WardenCrypto
@_exported import WardenJOSE
@_exported import WardenOAuth
@_exported import WardenPasskeys
@_exported import WardenSession
@_exported import WardenStorage

// `canImport`: a build that compiles the modules one by one in dependency order without WardenApple (a bare
// type-check of the portable modules) still compiles the umbrella.
#if canImport(WardenApple)
    @_exported import WardenApple
#endif

import Foundation
import Warden

/// What the sample signs in with. Replace the values with your provider's (the README's provider cookbook lists
/// what each one needs) and register ``redirectURI`` in its console.
enum SampleConfiguration {
    /// The provider: any preset (`.okta(issuer:)`, `.google(clientID:)`, `.entra(tenant:)`, `.keycloak(realmURL:)`).
    static let preset = ProviderPreset.auth0(domain: "example.us.auth0.com", audience: "https://api.example.com")
    /// The app's client ID at the provider (a public client: no secret).
    static let clientID = "YOUR_CLIENT_ID"
    /// The bundle identifier, as in Package.swift.
    static let bundleID = "com.example.wardensample"
    /// What the preset's console expects: for Auth0 `com.example.wardensample://example.us.auth0.com/ios/...`.
    static var redirectURI: String { preset.redirectURI(bundleID: bundleID) }
    /// The API the sample calls with the access token.
    static let api = URL(string: "https://api.example.com/me")!
    /// The Keychain service the session is stored under.
    static let service = "com.example.wardensample.tokens"
}

import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenJOSE

/// Multi-tenant issuers (Entra's `{tenantid}` template): a token's `iss` must be the template filled with its own
/// `tid`, byte for byte, from an allowed tenant.
@Suite("Tenant issuer templates")
struct TenantIssuerTests {
    static let t = Int(Date.fixed.timeIntervalSince1970)
    static let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    static let other = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    static let template = try! TenantIssuerTemplate.entra()

    static func validator(_ template: TenantIssuerTemplate = Self.template) -> IDTokenVerifier {
        IDTokenVerifier(
            issuer: template.template, clientID: "app", keys: Keys.ecSet, issuerTemplate: template, now: { .fixed })
    }

    static func token(iss: String, tid: String?) -> String {
        let tidMember = tid.map { #","tid":"\#($0)""# } ?? ""
        return Mint.token(
            header: #"{"alg":"ES256","kid":"ec1"}"#,
            payload: #"{"iss":"\#(iss)","aud":"app","sub":"u1","exp":\#(t + 300),"iat":\#(t)\#(tidMember)}"#,
            signer: .ec(Keys.ec))
    }

    static let tenantIssuer = "https://login.microsoftonline.com/\(tenant)/v2.0"

    @Test func aTokenFilledWithItsOwnTenantIsAccepted() throws {
        let claims = try Self.validator().verify(Self.token(iss: Self.tenantIssuer, tid: Self.tenant), nonce: nil)
        #expect(try claims.issuer == Self.tenantIssuer)
        let only = try TenantIssuerTemplate.entra(allowedTenants: [Self.tenant.uppercased()])
        #expect(throws: Never.self) {
            try Self.validator(only).verify(Self.token(iss: Self.tenantIssuer, tid: Self.tenant), nonce: nil)
        }
    }

    /// A provider that writes its tenant ID in upper case (the README's decision): accepted when `iss` is the template
    /// filled with that same `tid`, byte for byte, kept as the provider wrote it, and matched against `allowedTenants`
    /// whatever their case.
    @Test func anUpperCaseTenantIDIsKeptAsWritten() throws {
        let upper = Self.tenant.uppercased()
        let issuer = "https://login.microsoftonline.com/\(upper)/v2.0"
        let claims = try Self.validator().verify(Self.token(iss: issuer, tid: upper), nonce: nil)
        #expect(try claims.issuer == issuer)
        #expect(try claims.string("tid") == upper)
        let lowerAllowed = try TenantIssuerTemplate.entra(allowedTenants: [Self.tenant])
        #expect(
            try Self.validator(lowerAllowed).verify(Self.token(iss: issuer, tid: upper), nonce: nil).issuer == issuer)
        // The same tenant with iss in lower case and tid in upper case is not the template filled with its tid.
        #expect(throws: JOSEError(.issuerMismatch)) {
            try Self.validator().verify(Self.token(iss: Self.tenantIssuer, tid: upper), nonce: nil)
        }
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let iss: String
        let tid: String?
        let expected: JOSEError.Code
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(name: "iss of another tenant than tid", iss: tenantIssuer, tid: other, expected: .issuerMismatch),
        Bad(name: "no tid", iss: tenantIssuer, tid: nil, expected: .missingClaim),
        Bad(
            name: "tid not a GUID", iss: "https://login.microsoftonline.com/contoso/v2.0", tid: "contoso",
            expected: .invalidClaim),
        Bad(name: "the template itself", iss: template.template, tid: tenant, expected: .issuerMismatch),
        Bad(
            name: "another host", iss: "https://login.example.com/\(tenant)/v2.0", tid: tenant,
            expected: .issuerMismatch),
        Bad(
            name: "upper-case iss for a lower-case tid", iss: tenantIssuer.uppercased(), tid: tenant,
            expected: .issuerMismatch),
    ]

    @Test(arguments: bad) func refused(_ bad: Bad) {
        #expect(throws: JOSEError(bad.expected)) {
            try Self.validator().verify(Self.token(iss: bad.iss, tid: bad.tid), nonce: nil)
        }
    }

    /// A template is a plain issuer URL once filled: user information, a query or a fragment (or a placeholder
    /// outside the path) is refused when the template is configured, not matched against tokens later.
    @Test(arguments: [
        "https://login.example.com@evil.example/{tenantid}/v2.0", "https://user:pw@login.example.com/{tenantid}/v2.0",
        "https://login.example.com/{tenantid}/v2.0?x=1", "https://login.example.com/{tenantid}/v2.0#frag",
        "https://login.example.com/v2.0?tenant={tenantid}", "https://login.example.com/#/{tenantid}",
    ])
    func aTemplateWithUserQueryOrFragmentIsRefused(_ template: String) {
        #expect(throws: JOSEError(.invalidConfiguration)) { try TenantIssuerTemplate(template) }
    }

    /// U+212A KELVIN SIGN is canonically equivalent to "K", so Swift's `==` calls the two issuers equal; RFC 7519
    /// §7.3 compares code points.
    @Test func aCanonicallyEquivalentIssuerIsRefused() throws {
        let kiosk = try TenantIssuerTemplate("https://id.example.com/Kiosk/{tenantid}")
        let genuine = "https://id.example.com/Kiosk/\(Self.tenant)"
        let lookalike = "https://id.example.com/\u{212A}iosk/\(Self.tenant)"
        #expect(genuine == lookalike, "the premise: String == is canonical equivalence")
        #expect(throws: Never.self) {
            try Self.validator(kiosk).verify(Self.token(iss: genuine, tid: Self.tenant), nonce: nil)
        }
        #expect(throws: JOSEError(.issuerMismatch)) {
            try Self.validator(kiosk).verify(Self.token(iss: lookalike, tid: Self.tenant), nonce: nil)
        }
        #expect(kiosk.tenant(in: lookalike) == nil)
    }

    @Test func aTenantOutsideTheAllowedOnesIsRefused() throws {
        let only = try TenantIssuerTemplate.entra(allowedTenants: [Self.other])
        let error = #expect(throws: JOSEError.self) {
            try Self.validator(only).verify(Self.token(iss: Self.tenantIssuer, tid: Self.tenant), nonce: nil)
        }
        #expect(error?.code == .issuerMismatch && error?.reason.contains("allowed tenants") == true)
    }

    @Test func templateArithmetic() throws {
        #expect(Self.template.tenant(in: Self.tenantIssuer) == Self.tenant)
        #expect(Self.template.tenant(in: Self.tenantIssuer + "/") == nil)
        #expect(Self.template.tenant(in: "https://login.microsoftonline.com/common/v2.0") == nil)
        #expect(Self.template.issuer(forTenant: "common") == nil)
        let moved = try Self.template.at(origin: "http://127.0.0.1:8080/")
        #expect(moved.template == "http://127.0.0.1:8080/{tenantid}/v2.0")
        #expect(TenantIssuerTemplate.isTenantID(Self.tenant) && !TenantIssuerTemplate.isTenantID(Self.tenant + "0"))
        #expect(!TenantIssuerTemplate.isTenantID("9188040d_6c67-4c5b-b112-36a304b66dad"))
        #expect(!TenantIssuerTemplate.isTenantID("g188040d-6c67-4c5b-b112-36a304b66dad"))
    }
}

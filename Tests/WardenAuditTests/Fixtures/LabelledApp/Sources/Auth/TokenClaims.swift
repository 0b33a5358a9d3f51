//
//  TokenClaims.swift
//  Ledgerly
//

import Foundation
import JWTKit

struct AccessClaims: Decodable {
    var sub: String
    var exp: TimeInterval
    var iat: TimeInterval
    var scope: String
    var role: String?
}

enum MembershipTier {
    case free
    case premium
}

/// Reads claims out of tokens for UI decisions. Historically did not verify signatures.
enum TokenInspector {
    private static func base64URLDecode(_ segment: Substring) -> Data? {
        var base64 = segment
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 {
            base64.append("=")
        }
        return Data(base64Encoded: base64)
    }

    static func isAdmin(idToken: String) -> Bool {
        let segments = idToken.components(separatedBy: ".")
        guard segments.count == 3 else { return false }
        var base64 = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let payload = Data(base64Encoded: base64),
              let json = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            return false
        }
        if json["role"] as? String == "admin" {  // expect: jwt-unverified-decision
            return true
        }
        return false
    }

    static func requireFreshSession(accessToken: String) throws {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = base64URLDecode(parts[1]) else {
            throw APIError.unauthorized
        }
        let claims = try JSONDecoder().decode(AccessClaims.self, from: payload)
        guard claims.exp > Date().timeIntervalSince1970 else {  // expect: jwt-unverified-decision
            NotificationCenter.default.post(name: .sessionDidExpire, object: nil)
            throw APIError.unauthorized
        }
    }

    static func tier(for accessToken: String) -> MembershipTier {
        let parts = accessToken.split(separator: ".")
        guard parts.count > 1, let payload = base64URLDecode(parts[1]),
              let claims = try? JSONDecoder().decode(AccessClaims.self, from: payload) else {
            return .free
        }
        return claims.scope.contains("premium") ? .premium : .free  // expect: jwt-unverified-decision
    }
}

/// Current implementation: verifies the signature with the JWKS before any claim is used.
struct VerifiedTokenInspector {
    let verifier: JWTVerifier

    func isAdmin(idToken: String) throws -> Bool {
        let claims: AccessClaims = try verifier.verify(idToken)
        if claims.role == "admin" {  // twin: jwt-unverified-decision
            return true
        }
        return false
    }

    func tier(for accessToken: String) throws -> MembershipTier {
        let claims: AccessClaims = try verifier.verify(accessToken)
        return claims.scope.contains("premium") ? .premium : .free  // twin: jwt-unverified-decision
    }
}

struct JWTVerifier {
    let signers: JWTSigners
    var validator = ClaimValidator()

    func verify<Claims: Decodable>(_ token: String) throws -> Claims {
        let payload = try signers.verify(token, as: DecodedPayload<Claims>.self)
        try validator.validate(exp: payload.exp, iat: payload.iat)
        return payload.claims
    }
}

struct DecodedPayload<Claims: Decodable>: JWTPayload, Decodable {
    var claims: Claims
    var exp: Date
    var iat: Date

    func verify(using signer: JWTSigner) throws {}
}

struct ClaimValidator {
    var expLeeway: TimeInterval = 0
    var iatLeeway: TimeInterval = 0

    func validate(exp: Date, iat: Date, now: Date = Date()) throws {
        guard exp.addingTimeInterval(expLeeway) > now else { throw APIError.unauthorized }
        guard iat.addingTimeInterval(-iatLeeway) <= now else { throw APIError.unauthorized }
    }
}

enum TokenVerification {
    static func makeVerifier(signers: JWTSigners) -> JWTVerifier {
        var verifier = JWTVerifier(signers: signers)
        verifier.validator.expLeeway = 60  // twin: iat-positive-leeway
        verifier.validator.iatLeeway = 60  // expect: iat-positive-leeway
        return verifier
    }

    static func makeStrictVerifier(signers: JWTSigners) -> JWTVerifier {
        var verifier = JWTVerifier(signers: signers)
        verifier.validator.expLeeway = 30  // twin: iat-positive-leeway
        return verifier
    }

    static func idTokenRules(clientID: String) -> [IDTokenRule] {
        [
            .issuer("https://auth.ledgerly.example.com"),
            .audience(clientID),
            .expiresAt(leeway: 60),  // twin: iat-positive-leeway
            .issuedAt(leeway: 120),  // expect: iat-positive-leeway
        ]
    }
}

enum IDTokenRule {
    case issuer(String)
    case audience(String)
    case expiresAt(leeway: TimeInterval)
    case issuedAt(leeway: TimeInterval)
}

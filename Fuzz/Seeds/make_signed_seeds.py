#!/usr/bin/env python3
"""Writes the signed seeds of FuzzDPoPProof and FuzzPasskeyAssertion (run with the interop venv:
`$(scripts/python-env)/bin/python Fuzz/Seeds/make_signed_seeds.py`). The keys are fixed test keys (private scalars
below, never used elsewhere); the harnesses embed the public halves and the signed messages printed at the end.
ECDSA signatures are randomised, so re-running changes the seed bytes, never what they mean."""
import base64, hashlib, json, os, sys

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Corpus")


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def key(scalar: int) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(scalar, ec.SECP256R1())


def xy(private: ec.EllipticCurvePrivateKey) -> tuple[bytes, bytes]:
    numbers = private.public_key().public_numbers()
    return numbers.x.to_bytes(32, "big"), numbers.y.to_bytes(32, "big")


def write(target: str, name: str, data: bytes) -> None:
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as handle:
        handle.write(data)


# DPoP: proofs for POST https://server.example.com/token issued at IAT (the harness's clock is IAT + 10 s).
IAT = 1_764_000_000
dpop_key = key(0x1F2E3D4C5B6A79880123456789ABCDEF0123456789ABCDEF0123456789ABCDEF)
x, y = xy(dpop_key)
jwk = {"kty": "EC", "crv": "P-256", "x": b64u(x), "y": b64u(y)}


def proof(claims: dict, header: dict | None = None) -> bytes:
    header = header or {"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}
    signing = b64u(json.dumps(header, separators=(",", ":")).encode()) + "." + b64u(
        json.dumps(claims, separators=(",", ":")).encode())
    der = dpop_key.sign(signing.encode(), ec.ECDSA(hashes.SHA256()))
    r, s = utils.decode_dss_signature(der)
    return (signing + "." + b64u(r.to_bytes(32, "big") + s.to_bytes(32, "big"))).encode()


base = {"jti": "e1j3V_bKic8-LAEB", "htm": "POST", "htu": "https://server.example.com/token", "iat": IAT}
write("FuzzDPoPProof", "valid", proof(base))
write("FuzzDPoPProof", "valid_nonce_ath", proof(dict(base, jti="b2", nonce="eyJ7S_zG.eyJH0-Z.HX4w-7v",
                                                         ath=b64u(hashlib.sha256(b"Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU").digest()))))
write("FuzzDPoPProof", "wrong_htu", proof(dict(base, jti="c3", htu="https://server.example.com/other")))
write("FuzzDPoPProof", "future_iat", proof(dict(base, jti="d4", iat=IAT + 3600)))
write("FuzzDPoPProof", "private_member", proof(base, {"typ": "dpop+jwt", "alg": "ES256", "jwk": dict(jwk, d=b64u(b"\x01" * 32))}))
write("FuzzDPoPProof", "rsa_header", proof(base, {"typ": "dpop+jwt", "alg": "RS256", "jwk": {"kty": "RSA", "n": b64u(b"\xc1" * 512), "e": "AQAB"}}))

# Passkey: one assertion for rp example.com, challenge 00 01 02 03, credential 01 02 03 04, user handle "user-1".
CREDENTIAL = bytes([1, 2, 3, 4])
USER = b"user-1"
passkey_key = key(0x6B0F6A6A6C1D2E3F405162738495A6B7C8D9EAFB0C1D2E3F4051627384950A1B)
px, py = xy(passkey_key)
cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: px, -3: py})
authenticator_data = hashlib.sha256(b"example.com").digest() + bytes([0x05]) + (7).to_bytes(4, "big")
client_data = json.dumps({"type": "webauthn.get", "challenge": b64u(bytes([0, 1, 2, 3])),
                          "origin": "https://example.com", "crossOrigin": False}, separators=(",", ":")).encode()
signature = passkey_key.sign(authenticator_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))


def assertion(user_handle: bytes | None = USER, sig: bytes = signature) -> bytes:
    response = {"clientDataJSON": b64u(client_data), "authenticatorData": b64u(authenticator_data),
                "signature": b64u(sig)}
    if user_handle is not None:
        response["userHandle"] = b64u(user_handle)
    return json.dumps({"id": b64u(CREDENTIAL), "rawId": b64u(CREDENTIAL), "type": "public-key",
                       "clientExtensionResults": {}, "response": response}).encode()


write("FuzzPasskeyAssertion", "valid", assertion())
write("FuzzPasskeyAssertion", "valid_no_user_handle", assertion(None))
write("FuzzPasskeyAssertion", "other_user_handle", assertion(b"user-2"))
write("FuzzPasskeyAssertion", "bad_signature", assertion(sig=signature[:-1] + bytes([signature[-1] ^ 1])))

print("DPoP jwk:", json.dumps(jwk))
print("passkey COSE key (base64):", base64.b64encode(cose).decode())
print("passkey authenticatorData (base64):", base64.b64encode(authenticator_data).decode())
print("passkey clientDataJSON:", client_data.decode())

#!/usr/bin/env python3
"""Cross-checks `warden jwt verify` against tokens minted by Python peers (PyJWT and joserfc).

Every case states what a correct verifier must do; the script runs the warden binary and compares the exit
status (0 accepted, 1 rejected) and, for rejections, the reason code on stderr.

usage: jose_crosscheck.py WARDEN_BINARY
"""
import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile

import jwt  # PyJWT
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from joserfc import jwk as jrfc_jwk
from joserfc import jwt as jrfc_jwt

WARDEN = sys.argv[1]
NOW = 1_800_000_000
ISS, AUD = "https://id.example.com", "app"
work = tempfile.mkdtemp(prefix="warden-jose-")


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def claims(**extra):
    base = {"iss": ISS, "aud": AUD, "sub": "user-1", "exp": NOW + 300, "iat": NOW - 10}
    base.update(extra)
    return {k: v for k, v in base.items() if v is not None}


keys = {
    "rsa": rsa.generate_private_key(public_exponent=65537, key_size=2048),
    "rsa1024": rsa.generate_private_key(public_exponent=65537, key_size=1024),
    "p256": ec.generate_private_key(ec.SECP256R1()),
    "p384": ec.generate_private_key(ec.SECP384R1()),
    "p521": ec.generate_private_key(ec.SECP521R1()),
    "ed": ed25519.Ed25519PrivateKey.generate(),
}
hs_secret = os.urandom(64)


def public_jwk(name, kid):
    key = keys[name].public_key()
    data = json.loads(jwt.algorithms.get_default_algorithms()[
        {"rsa": "RS256", "rsa1024": "RS256", "p256": "ES256", "p384": "ES384", "p521": "ES512", "ed": "EdDSA"}[name]
    ].to_jwk(key))
    data["kid"] = kid
    return data


jwks = {"keys": [public_jwk(n, n) for n in ["rsa", "rsa1024", "p256", "p384", "p521", "ed"]]}
jwks_file = os.path.join(work, "jwks.json")
with open(jwks_file, "w") as f:
    json.dump(jwks, f)
oct_jwks_file = os.path.join(work, "oct.json")
with open(oct_jwks_file, "w") as f:
    json.dump({"keys": [{"kty": "oct", "kid": "hs", "k": b64u(hs_secret)}]}, f)


def pyjwt(alg, key_name, payload, headers=None, kid=None):
    headers = dict(headers or {})
    if kid is not None:
        headers["kid"] = kid
    key = hs_secret if key_name == "hs" else keys[key_name]
    return jwt.encode(payload, key, algorithm=alg, headers=headers)


def raw_token(header, payload, sign):
    signing_input = b64u(json.dumps(header).encode()) + "." + b64u(json.dumps(payload).encode())
    return signing_input + "." + b64u(sign(signing_input.encode()))


def joserfc_token(alg, key_name, payload, kid):
    pem = keys[key_name].private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    key = jrfc_jwk.import_key(pem, "OKP" if key_name == "ed" else ("EC" if key_name.startswith("p") else "RSA"))
    return jrfc_jwt.encode({"alg": alg, "kid": kid}, payload, key, algorithms=[alg])


rsa_pem = keys["rsa"].public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
cases = []


def case(name, token, expect, code=None, jwks_path=jwks_file, extra=()):
    cases.append((name, token, expect, code, jwks_path, list(extra)))


for alg, key in [("RS256", "rsa"), ("RS384", "rsa"), ("RS512", "rsa"), ("PS256", "rsa"), ("PS384", "rsa"),
                 ("PS512", "rsa"), ("ES256", "p256"), ("ES384", "p384"), ("ES512", "p521"), ("EdDSA", "ed")]:
    case(f"PyJWT {alg}", pyjwt(alg, key, claims(), kid=key), "accept")
for alg, key in [("RS256", "rsa"), ("PS256", "rsa"), ("ES256", "p256"), ("ES384", "p384"), ("EdDSA", "ed")]:
    case(f"joserfc {alg}", joserfc_token(alg, key, claims(), key), "accept")
for alg in ["HS256", "HS384", "HS512"]:
    case(f"PyJWT {alg}", pyjwt(alg, "hs", claims(), kid="hs"), "accept", jwks_path=oct_jwks_file)
case("PyJWT ES256 without kid (one fitting key)", pyjwt("ES256", "p256", claims()), "accept")
case("PyJWT aud array", pyjwt("ES256", "p256", claims(aud=["other", AUD]), kid="p256"), "accept")
case("PyJWT typ at+jwt", pyjwt("ES256", "p256", claims(), headers={"typ": "at+jwt"}, kid="p256"), "accept")
case("expired", pyjwt("ES256", "p256", claims(exp=NOW - 120), kid="p256"), "reject", "expired")
case("expired within leeway", pyjwt("ES256", "p256", claims(exp=NOW - 30), kid="p256"), "accept")
case("iat 1 s in the future", pyjwt("ES256", "p256", claims(iat=NOW + 1), kid="p256"), "reject", "issued_in_future")
case("nbf in the future", pyjwt("ES256", "p256", claims(nbf=NOW + 120), kid="p256"), "reject", "not_yet_valid")
case("no exp", pyjwt("ES256", "p256", claims(exp=None), kid="p256"), "reject", "missing_claim")
case("wrong audience", pyjwt("ES256", "p256", claims(aud="other"), kid="p256"), "reject", "audience_mismatch")
case("wrong issuer", pyjwt("ES256", "p256", claims(iss="https://evil.example.com"), kid="p256"), "reject", "issuer_mismatch")
case("alg none", pyjwt("none", "hs", claims()) if False else jwt.encode(claims(), None, algorithm="none"), "reject", "alg_none")
case("unknown kid", pyjwt("ES256", "p256", claims(), kid="rotated-away"), "reject", "unknown_kid")
case("kid of another key type", pyjwt("ES256", "p256", claims(), kid="rsa"), "reject", "key_algorithm_mismatch")
case("1024-bit RSA key (skipped from the JWKS)", pyjwt("RS256", "rsa1024", claims(), kid="rsa1024"), "reject", "unknown_kid")
case("HS256 signed with the RSA public PEM", raw_token({"alg": "HS256", "kid": "rsa"}, claims(),
     lambda m: hmac.new(rsa_pem, m, hashlib.sha256).digest()), "reject", "key_algorithm_mismatch")
case("crit header", pyjwt("ES256", "p256", claims(), headers={"crit": ["exp"]}, kid="p256"), "reject", "crit_unsupported")
case("b64 false", pyjwt("ES256", "p256", claims(), headers={"b64": False, "crit": ["b64"]}, kid="p256"), "reject", "crit_unsupported")
tampered = pyjwt("ES256", "p256", claims(), kid="p256").split(".")
tampered[1] = b64u(json.dumps(claims(sub="admin")).encode())
case("tampered payload", ".".join(tampered), "reject", "invalid_signature")
case("ES256 key, ES384 alg", pyjwt("ES384", "p384", claims(), kid="p256"), "reject", "key_algorithm_mismatch")
case("wrong HMAC secret", jwt.encode(claims(), os.urandom(64), algorithm="HS256", headers={"kid": "hs"}), "reject",
     "invalid_signature", jwks_path=oct_jwks_file)
case("string exp", raw_token({"alg": "HS256", "kid": "hs"}, claims(exp=str(NOW + 300)),
     lambda m: hmac.new(hs_secret, m, hashlib.sha256).digest()), "reject", "invalid_claim", jwks_path=oct_jwks_file)

failures = 0
for name, token, expect, code, jwks_path, extra in cases:
    result = subprocess.run([WARDEN, "jwt", "verify", "--jwks", jwks_path, "--iss", ISS, "--aud", AUD, "--now", str(NOW), *extra, "-"],
                            input=token, capture_output=True, text=True)
    ok = (result.returncode == 0) if expect == "accept" else (result.returncode == 1 and (code is None or f": {code}:" in result.stderr))
    if not ok:
        failures += 1
        print(f"FAIL {name}: expected {expect} {code or ''}, got exit {result.returncode}: {result.stderr.strip()}")
print(f"jose cross-check: {len(cases) - failures} passed, {failures} failed ({len(cases)} tokens from PyJWT {jwt.__version__} and joserfc)")
sys.exit(1 if failures else 0)

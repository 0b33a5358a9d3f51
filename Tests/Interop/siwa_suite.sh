#!/usr/bin/env bash
# Sign in with Apple against PyJWT: the client secret warden makes verifies in PyJWT with the .p8's public key and
# Apple's claims; identity tokens PyJWT signs (Apple's claim shapes, string booleans) validate in warden siwa verify,
# and a wrong nonce, audience or key is refused (exit 1).
# usage: siwa_suite.sh WARDEN PYTHON
set -uo pipefail
WARDEN=$1
PY=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PASS=0
FAIL=0
check() { if [[ $2 == 0 ]]; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: $1"; fi; }

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$WORK/key.p8" 2>/dev/null
SECRET=$("$WARDEN" siwa client-secret --team-id TEAM123456 --client-id com.example.app --key-id KEY1234567 \
    --key "$WORK/key.p8" --ttl 86400)
check "warden siwa client-secret" $?
"$PY" - "$WORK/key.p8" "$SECRET" <<'PYEOF'
import sys, time, jwt
from cryptography.hazmat.primitives.serialization import load_pem_private_key
key = load_pem_private_key(open(sys.argv[1], "rb").read(), None).public_key()
header = jwt.get_unverified_header(sys.argv[2])
assert header == {"alg": "ES256", "kid": "KEY1234567"} or (header["alg"] == "ES256" and header["kid"] == "KEY1234567"), header
claims = jwt.decode(sys.argv[2], key, algorithms=["ES256"], audience="https://appleid.apple.com", issuer="TEAM123456")
assert claims["sub"] == "com.example.app" and claims["exp"] - claims["iat"] == 86400, claims
assert abs(claims["iat"] - time.time()) < 60
PYEOF
check "PyJWT verifies the client secret (ES256, kid, iss, sub, aud, exp)" $?

# Identity tokens signed by PyJWT with an Apple-shaped claim set; the JWKS holds the public key.
"$PY" - "$WORK" <<'PYEOF'
import sys, json, time, hashlib, jwt
from cryptography.hazmat.primitives.asymmetric import ec
from jwt.algorithms import ECAlgorithm
work = sys.argv[1]
key = ec.generate_private_key(ec.SECP256R1())
jwk = json.loads(ECAlgorithm.to_jwk(key.public_key())); jwk.update({"kid": "apple-1", "alg": "ES256", "use": "sig"})
open(f"{work}/jwks.json", "w").write(json.dumps({"keys": [jwk]}))
now = int(time.time())
def token(nonce="raw-nonce", aud="com.example.app"):
    claims = {"iss": "https://appleid.apple.com", "aud": aud, "exp": now + 600, "iat": now, "sub": "001234.abc",
              "nonce": hashlib.sha256(nonce.encode()).hexdigest(), "email": "x@privaterelay.appleid.com",
              "email_verified": "true", "is_private_email": "true", "real_user_status": 2}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": "apple-1"})
open(f"{work}/good.jwt", "w").write(token())
open(f"{work}/wrong-nonce.jwt", "w").write(token(nonce="other"))
open(f"{work}/wrong-aud.jwt", "w").write(token(aud="com.attacker.app"))
other = ec.generate_private_key(ec.SECP256R1())
claims = jwt.decode(token(), options={"verify_signature": False})
open(f"{work}/wrong-key.jwt", "w").write(jwt.encode(claims, other, algorithm="ES256", headers={"kid": "apple-1"}))
PYEOF
verify() { "$WARDEN" siwa verify --jwks "$WORK/jwks.json" --client-id com.example.app --nonce raw-nonce "$(cat "$WORK/$1")"; }
OUT=$(verify good.jwt)
check "warden siwa verify accepts PyJWT's identity token" $?
echo "$OUT" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert d["is_private_email"] is True and d["real_user_status"] == 2 and d["sub"] == "001234.abc", d'
check "private relay e-mail and real_user_status surfaced" $?
for bad in wrong-nonce wrong-aud wrong-key; do
    verify $bad.jwt > /dev/null 2>&1
    [[ $? == 1 ]]; check "a token with a $bad is refused (exit 1)" $?
done
echo "siwa suite: $PASS passed, $FAIL failed (PyJWT $("$PY" -c 'import jwt; print(jwt.__version__)'))"
[[ $FAIL == 0 ]]

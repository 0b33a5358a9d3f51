#!/usr/bin/env bash
# DPoP both ways against Python peers: proofs joserfc signs (with its own RFC 7638 thumbprint) verify in
# `warden dpop verify` (and a wrong htu, method or ath is refused); proofs `warden dpop proof` makes verify in PyJWT
# with the header's jwk, carry RFC 9449's claims, and have the thumbprint joserfc computes.
# usage: dpop_suite.sh WARDEN PYTHON
set -uo pipefail
WARDEN=$1
PY=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PASS=0
FAIL=0
check() { if [[ $2 == 0 ]]; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: $1"; fi; }

# Peer → Warden.
"$PY" - "$WORK" <<'PYEOF'
import sys, json, time, hashlib, base64, secrets
from joserfc import jwt
from joserfc.jwk import ECKey
work = sys.argv[1]
key = ECKey.generate_key("P-256")
public = key.as_dict(private=False)
def ath(token): return base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()
def proof(htm="GET", htu="https://api.example.com/me", token="at-1", extra=None):
    claims = {"jti": secrets.token_urlsafe(16), "htm": htm, "htu": htu, "iat": int(time.time()), "ath": ath(token)}
    claims.update(extra or {})
    return jwt.encode({"typ": "dpop+jwt", "alg": "ES256", "jwk": public}, claims, key)
open(f"{work}/peer.jwt", "w").write(proof())
open(f"{work}/peer-other-url.jwt", "w").write(proof(htu="https://api.example.net/me"))
open(f"{work}/peer-nonce.jwt", "w").write(proof(extra={"nonce": "server-nonce"}))
open(f"{work}/peer.jkt", "w").write(key.thumbprint())
PYEOF
check "joserfc makes proofs" $?
JKT=$(cat "$WORK/peer.jkt")
OUT=$("$WARDEN" dpop verify --htm GET --htu https://api.example.com/me --access-token at-1 --jkt "$JKT" "$(cat "$WORK/peer.jwt")")
check "warden verifies joserfc's proof, bound to joserfc's thumbprint" $?
[[ $OUT == *"$JKT"* ]]; check "warden's thumbprint of the peer key equals joserfc's" $?
"$WARDEN" dpop verify --htm GET --htu https://api.example.com/me --access-token at-1 "$(cat "$WORK/peer-other-url.jwt")" >/dev/null 2>&1
[[ $? == 1 ]]; check "a peer proof for another URL is refused" $?
"$WARDEN" dpop verify --htm POST --htu https://api.example.com/me --access-token at-1 "$(cat "$WORK/peer.jwt")" >/dev/null 2>&1
[[ $? == 1 ]]; check "a peer proof for another method is refused" $?
"$WARDEN" dpop verify --htm GET --htu https://api.example.com/me --access-token at-2 "$(cat "$WORK/peer.jwt")" >/dev/null 2>&1
[[ $? == 1 ]]; check "a peer proof for another access token is refused" $?
"$WARDEN" dpop verify --htm GET --htu https://api.example.com/me --access-token at-1 --nonce server-nonce "$(cat "$WORK/peer-nonce.jwt")" >/dev/null
check "a peer proof with the server's nonce verifies" $?

# Warden → peer.
"$WARDEN" dpop keygen "$WORK/key.pem" > "$WORK/keygen.json"
check "warden dpop keygen" $?
PROOF=$("$WARDEN" dpop proof --key "$WORK/key.pem" --htm POST --htu "https://AS.example.com:443/token?x=1" --access-token at-9 --nonce n-7)
check "warden dpop proof" $?
"$PY" - "$PROOF" "$WORK/keygen.json" <<'PYEOF'
import sys, json, time, hashlib, base64, jwt
from jwt.algorithms import ECAlgorithm
from joserfc.jwk import ECKey
proof, keygen = sys.argv[1], json.load(open(sys.argv[2]))
header = jwt.get_unverified_header(proof)
assert header["typ"] == "dpop+jwt" and header["alg"] == "ES256", header
assert set(header["jwk"]) == {"kty", "crv", "x", "y"}, header["jwk"]
claims = jwt.decode(proof, ECAlgorithm.from_jwk(json.dumps(header["jwk"])), algorithms=["ES256"])
assert claims["htm"] == "POST" and claims["htu"] == "https://as.example.com/token", claims
assert claims["nonce"] == "n-7" and abs(claims["iat"] - time.time()) < 60, claims
assert claims["ath"] == base64.urlsafe_b64encode(hashlib.sha256(b"at-9").digest()).rstrip(b"=").decode()
assert len(base64.urlsafe_b64decode(claims["jti"] + "==")) == 16
assert ECKey.import_key(header["jwk"]).thumbprint() == keygen["jkt"], "thumbprint"
PYEOF
check "PyJWT verifies warden's proof; claims as RFC 9449 says; joserfc's thumbprint equals warden's jkt" $?
echo "dpop suite: $PASS passed, $FAIL failed (joserfc $("$PY" -c 'import joserfc; print(joserfc.__version__)'), PyJWT $("$PY" -c 'import jwt; print(jwt.__version__)'))"
[[ $FAIL == 0 ]]

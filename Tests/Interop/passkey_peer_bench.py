#!/usr/bin/env python3
"""Times py_webauthn verifying the ES256 sign-in exported by `warden bench passkey --export DIR`.
Prints JSON: {"py_webauthn_us": ...}."""
import json
import sys
import timeit

from webauthn import verify_authentication_response
from webauthn.helpers import base64url_to_bytes

data = json.load(open(sys.argv[1] + "/passkey.json"))
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
challenge = base64url_to_bytes(data["challenge"])
key = base64url_to_bytes(data["publicKey"])


def verify():
    verify_authentication_response(credential=data["response"], expected_challenge=challenge,
                                   expected_rp_id=data["rpId"], expected_origin=data["origin"],
                                   credential_public_key=key, credential_current_sign_count=data["signCount"],
                                   require_user_verification=True)


verify()
count, total = 0, 0.0
while total < seconds:
    total += timeit.timeit(verify, number=100)
    count += 100
print(json.dumps({"py_webauthn_us": total / count * 1e6}))

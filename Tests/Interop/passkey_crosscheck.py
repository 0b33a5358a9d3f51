#!/usr/bin/env python3
"""Runs every response of the software-authenticator corpus through py_webauthn and through `warden passkey`.

Both must agree on accept/reject; Warden must give the reason code its library gave when the corpus was made;
accepted sign-ins must report the same new sign count. Cases marked "stricter" are ones Warden refuses on
purpose and py_webauthn accepts: the script checks that py_webauthn really does accept them, so the list of
documented differences stays true.
usage: passkey_crosscheck.py WARDEN CORPUS.json"""
import json
import subprocess
import sys
import tempfile

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import base64url_to_bytes
from webauthn.helpers.structs import AttestationFormat

WARDEN, CORPUS = sys.argv[1], sys.argv[2]
RP, ORIGIN = "example.com", "https://example.com"


def write(text):
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    handle.write(text)
    handle.close()
    return handle.name


def py_verdict(case):
    challenge = base64url_to_bytes(case["challenge"])
    try:
        if case["ceremony"] == "registration":
            roots = {AttestationFormat(fmt): [pem.encode()] for fmt, pem in case.get("roots", {}).items()}
            verify_registration_response(credential=case["response"], expected_challenge=challenge,
                                         expected_rp_id=RP, expected_origin=ORIGIN, require_user_verification=True,
                                         pem_root_certs_bytes_by_fmt=roots or None)
            return "ok", None
        result = verify_authentication_response(credential=case["response"], expected_challenge=challenge,
                                                expected_rp_id=RP, expected_origin=ORIGIN,
                                                credential_public_key=base64url_to_bytes(case["publicKey"]),
                                                credential_current_sign_count=case["signCount"],
                                                require_user_verification=True)
        return "ok", result.new_sign_count
    except Exception as error:  # py_webauthn raises several exception types for rejections
        return "rejected", type(error).__name__


def warden_verdict(case):
    response = write(case["response"])
    if case["ceremony"] == "registration":
        command = [WARDEN, "passkey", "verify-registration", "--user-handle", "d2FyZGVu"]
        if case.get("roots"):
            command += ["--attestation-roots", write("".join(case["roots"].values()))]
    else:
        command = [WARDEN, "passkey", "verify-assertion", "--credential", write(case["record"])]
    command += ["--rp-id", RP, "--origin", ORIGIN, "--challenge", case["challenge"], "--require-uv", response]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode == 0:
        return "ok", run.stdout.strip()
    if run.returncode == 1 and run.stderr.startswith("warden: "):
        return run.stderr.split(":")[1].strip(), None
    return f"exit {run.returncode}: {run.stderr.strip()}", None


cases = json.load(open(CORPUS))["cases"]
failures = 0
stricter = 0
for case in cases:
    expected = case["expected"]
    py, py_detail = py_verdict(case)
    warden, output = warden_verdict(case)
    problems = []
    if warden != expected:
        problems.append(f"warden CLI said {warden}, the library said {expected}")
    if "stricter" in case:
        stricter += 1
        if py != "ok":
            problems.append(f"documented as stricter than py_webauthn, but py_webauthn rejected it ({py_detail})")
        if expected == "ok":
            problems.append("a 'stricter' case must be rejected by Warden")
    elif (py == "ok") != (expected == "ok"):
        problems.append(f"py_webauthn {'accepted' if py == 'ok' else 'rejected (' + str(py_detail) + ')'}, Warden {expected}")
    elif case["ceremony"] == "assertion" and expected == "ok" and str(py_detail) != output:
        problems.append(f"new sign count: py_webauthn {py_detail}, warden {output}")
    if problems:
        failures += 1
        print(f"FAIL {case['name']} ({case['ceremony']}): " + "; ".join(problems))
accepted = sum(1 for case in cases if case["expected"] == "ok")
print(f"passkeys: {len(cases)} responses ({accepted} valid, {len(cases) - accepted - stricter} tampered, "
      f"{stricter} where Warden is stricter): {len(cases) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Signs varied requests with oauthlib and with `warden oauth1 sign` and compares the signatures.
usage: oauth1_crosscheck.py WARDEN"""
import subprocess
import sys
import tempfile
import urllib.parse

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from oauthlib import oauth1

WARDEN = sys.argv[1]
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
key_file = tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False)
key_file.write(pem)
key_file.close()

cases = [
    ("GET", "https://api.example.com/1.1/statuses/home_timeline.json?count=5", None, "HMAC-SHA1", {}),
    ("POST", "https://api.example.com/1.1/statuses/update.json", "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21&include_entities=true", "HMAC-SHA1", {}),
    ("GET", "https://api.example.com/x?a=1&a=2&a=1", None, "HMAC-SHA1", {}),
    ("POST", "https://api.example.com/x?a=1&b=%20", "a=3&b=+&c=", "HMAC-SHA1", {}),
    ("GET", "https://api.example.com/%E2%82%AC/path?q=%E2%9C%93&r=%C3%A9", None, "HMAC-SHA1", {}),
    ("GET", "https://api.example.com/x?reserved=%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D", None, "HMAC-SHA256", {}),
    ("GET", "http://API.Example.COM:80/x", None, "HMAC-SHA1", {}),
    ("GET", "https://api.example.com:443/x", None, "HMAC-SHA1", {}),
    ("GET", "https://api.example.com:8443/x?y=z", None, "HMAC-SHA1", {}),
    ("GET", "http://api.example.com:8080/x", None, "HMAC-SHA512", {}),
    ("GET", "https://api.example.com/encoded%2Fslash/and%20space", None, "HMAC-SHA1", {}),
    ("GET", "https://api.example.com/x?empty=&novalue", None, "HMAC-SHA1", {}),
    ("DELETE", "https://api.example.com/item/42", None, "HMAC-SHA1", {}),
    ("put", "https://api.example.com/item/42", "name=new", "HMAC-SHA256", {}),
    ("GET", "https://api.example.com/two-legged", None, "HMAC-SHA1", {"two_legged": True}),
    ("GET", "https://api.example.com/x", None, "HMAC-SHA1", {"consumer_secret": "a&b=c%d+e"}),
    ("GET", "https://api.example.com/x", None, "HMAC-SHA1", {"token_secret": "t&s=%+"}),
    ("POST", "https://api.example.com/oauth/request_token", None, "HMAC-SHA1", {"callback": "https://client.example.com/cb?x=1&y=2", "two_legged": True}),
    ("POST", "https://api.example.com/oauth/access_token", None, "HMAC-SHA1", {"verifier": "pin-123 456"}),
    ("GET", "https://api.example.com/x?a=1", None, "RSA-SHA1", {}),
    ("GET", "https://api.example.com/x?a=1", None, "RSA-SHA256", {}),
    ("GET", "https://api.example.com/x?a=1", None, "PLAINTEXT", {}),
    ("POST", "https://api.example.com/x", "b=2&a=1&a=0", "HMAC-SHA512", {"realm": "Example Realm"}),
    ("GET", "https://api.example.com/x?oauth_extra=1&z=%7E", None, "HMAC-SHA1", {}),
]

failures = 0
for index, (method, url, body, signature_method, options) in enumerate(cases):
    consumer_secret = options.get("consumer_secret", "consumer secret")
    token_secret = None if options.get("two_legged") else options.get("token_secret", "token-secret")
    token = None if options.get("two_legged") else "token-value"
    client = oauth1.Client(
        "consumer-key", client_secret=consumer_secret if not signature_method.startswith("RSA") else None,
        resource_owner_key=token, resource_owner_secret=token_secret,
        signature_method=signature_method, rsa_key=pem if signature_method.startswith("RSA") else None,
        callback_uri=options.get("callback"), verifier=options.get("verifier"), realm=options.get("realm"),
        nonce="nonce-%d" % index, timestamp="1700000000")
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    _, signed_headers, _ = client.sign(url, http_method=method.upper(), body=body, headers=headers)
    expected = dict(urllib.parse.parse_qsl(signed_headers["Authorization"][len("OAuth "):].replace('", ', '"&').replace('"', "")))
    expected_signature = urllib.parse.unquote(expected["oauth_signature"])
    args = [WARDEN, "oauth1", "sign", "--method", method, "--url", url, "--consumer-key", "consumer-key",
            "--signature-method", signature_method, "--nonce", "nonce-%d" % index, "--timestamp", "1700000000"]
    if signature_method.startswith("RSA"):
        args += ["--rsa-key", key_file.name]
    else:
        args += ["--consumer-secret", consumer_secret]
    if token:
        args += ["--token", token, "--token-secret", token_secret]
    if body is not None:
        args += ["--form", body]
    for flag in ["callback", "verifier", "realm"]:
        if options.get(flag):
            args += ["--" + flag, options[flag]]
    result = subprocess.run(args, capture_output=True, text=True)
    got = dict(urllib.parse.parse_qsl(result.stdout.strip()[len("OAuth "):].replace('", ', '"&').replace('"', "")))
    got_signature = urllib.parse.unquote(got.get("oauth_signature", ""))
    if result.returncode != 0 or got_signature != expected_signature:
        failures += 1
        print(f"FAIL case {index} {method} {url} {signature_method}: warden={got_signature!r} oauthlib={expected_signature!r} {result.stderr.strip()}")
print(f"oauth1 cross-check: {len(cases) - failures} passed, {failures} failed ({len(cases)} requests vs oauthlib)")
sys.exit(1 if failures else 0)

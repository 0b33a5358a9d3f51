"""A scripted user agent: logs in as the test user, opens the authorization URL and follows the redirect to
warden's loopback listener, as a browser would. usage: user_agent.py URL"""
import sys
import urllib.parse

import requests

url = sys.argv[1]
parts = urllib.parse.urlsplit(url)
base = f"{parts.scheme}://{parts.netloc}"
session = requests.Session()
session.get(base + "/login-test/", timeout=10).raise_for_status()
response = session.get(url, allow_redirects=False, timeout=10)
location = response.headers.get("Location", "")
if response.status_code != 302 or not location.startswith("http://127.0.0.1"):
    print(f"user agent: unexpected {response.status_code} {response.text[:300]}", file=sys.stderr)
    sys.exit(1)
session.get(location, timeout=10)

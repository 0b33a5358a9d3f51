"""A scripted user agent: logs in as the test user, opens the URL (an authorization or a logout) and follows the
provider's redirects (its login page included) to warden's loopback listener, as a browser would.
usage: user_agent.py URL
UA_JAR=path keeps the cookies between runs (one browser); UA_STALE=1 makes the user's last authentication an hour
old before the URL is opened; UA_FORGE_STATE=1 replaces the state of the final redirect."""
import json
import os
import re
import sys
import urllib.parse

import requests

url = sys.argv[1]
parts = urllib.parse.urlsplit(url)
base = f"{parts.scheme}://{parts.netloc}"
jar = os.environ.get("UA_JAR")
session = requests.Session()
if jar and os.path.exists(jar):
    session.cookies.update(json.load(open(jar)))
if "sessionid" not in session.cookies:
    session.get(base + "/login-test/", timeout=10).raise_for_status()
if os.environ.get("UA_STALE"):
    session.get(base + "/age-login/", timeout=10).raise_for_status()
for _ in range(5):
    response = session.get(url, allow_redirects=False, timeout=10)
    location = urllib.parse.urljoin(url, response.headers.get("Location", ""))
    if response.status_code != 302 or not location:
        print(f"user agent: unexpected {response.status_code} {response.text[:300]}", file=sys.stderr)
        sys.exit(1)
    if urllib.parse.urlsplit(location).netloc != parts.netloc:  # warden's loopback listener
        if os.environ.get("UA_FORGE_STATE"):  # a page that fakes the provider's return
            location = re.sub(r"state=[^&]*", "state=forged", location)
        page = session.get(location, timeout=10)
        if os.environ.get("UA_PAGE"):  # what the listener answered, for the suite to check
            open(os.environ["UA_PAGE"], "w").write(page.text)
        break
    url = location
if jar:
    json.dump(requests.utils.dict_from_cookiejar(session.cookies), open(jar, "w"))

#!/usr/bin/env bash
# Interop with a real OpenID provider: django-oauth-toolkit on 127.0.0.1 (OIDC on, RS256, public client with
# PKCE required, refresh-token rotation with reuse protection). warden login runs the loopback flow with a
# scripted user agent; the suite checks discovery, the code exchange, the ID token (JWKS, nonce, at_hash), a
# rotating refresh whose new ID token is validated, that the old refresh token now fails with invalid_grant,
# revocation, max_age (which the provider ignores, so warden refuses the stale auth_time) and prompt=login, and an
# RP-initiated logout that ends the browser's session at the provider.
# usage: dot_suite.sh WARDEN PYTHON
set -uo pipefail
WARDEN=$1
PY=$2
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
PASS=0
FAIL=0
check() { if [[ $2 == 0 ]]; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: $1"; fi; }
cleanup() { [[ -n ${SERVER:-} ]] && kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/key.pem" 2>/dev/null
export DOT_KEY=$WORK/key.pem DOT_DB=$WORK/db.sqlite3 PYTHONPATH=$HERE/dot DJANGO_SETTINGS_MODULE=settings
"$PY" "$HERE/dot/setup_provider.py" >/dev/null || { echo "dot suite: 0 passed, 1 failed (setup)"; exit 1; }
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$PY" -m django runserver "127.0.0.1:$PORT" --noreload --nothreading > "$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/o/.well-known/openid-configuration" >/dev/null && break; sleep 0.2; done
ISSUER="http://127.0.0.1:$PORT/o"

export XDG_STATE_HOME=$WORK/state XDG_CONFIG_HOME=$WORK/config
STORE=(--store file --insecure-storage --account interop)
timeout 60 "$WARDEN" login --issuer "$ISSUER" --client-id warden-cli --scope "openid profile" \
    --browser "$PY $HERE/dot/user_agent.py" --revocation-endpoint "http://127.0.0.1:$PORT/o/revoke_token/" "${STORE[@]}" > "$WORK/login.out" 2> "$WORK/login.err"
check "warden login (discovery, PKCE code exchange, ID token with nonce and at_hash)" $?
grep -q "Signed in as" "$WORK/login.out"; check "the ID token's subject was verified" $?

stored() { "$WARDEN" store get --service dev.warden.cli.tokens "${STORE[@]}" | "$PY" -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
OLD_REFRESH=$(stored refreshToken)
[[ -n $OLD_REFRESH ]]; check "a refresh token was stored" $?
sql() { "$PY" -c "import sqlite3,sys; print(sqlite3.connect('$DOT_DB').execute(sys.argv[1]).fetchone()[0])" "$1"; }
OLD_ID_TOKEN=$(stored idToken)
ID_ROWS=$(sql 'select count(*) from oauth2_provider_idtoken')
"$WARDEN" token --min-ttl 7200 "${STORE[@]}" > "$WORK/token.out" 2> "$WORK/token.err"
check "warden token refreshes" $?
NEW_REFRESH=$(stored refreshToken)
[[ -n $NEW_REFRESH && $NEW_REFRESH != "$OLD_REFRESH" ]]; check "the provider rotated the refresh token and warden stored it" $?
# OIDC Core §12.2: the provider issued a new ID token with the refresh; warden validated it (signature, iss, sub
# equal to the sign-in's, aud, auth_time not moved back) before storing it in place of the sign-in's.
[[ $(sql 'select count(*) from oauth2_provider_idtoken') -gt $ID_ROWS && $(stored idToken) != "$OLD_ID_TOKEN" ]]
check "the refresh's new ID token (a new oauth2_provider_idtoken row) was validated and stored" $?
count_refresh_grants() { "$PY" -c "import sqlite3; print(sqlite3.connect('$DOT_DB').execute('select count(*) from oauth2_provider_refreshtoken').fetchone()[0])"; }
BEFORE=$(count_refresh_grants)
"$WARDEN" token --burst 50 --min-ttl 7200 "${STORE[@]}" > "$WORK/burst.out" 2> "$WORK/burst.err"
check "50 concurrent callers with an expired token get one token" $?
AFTER_BURST=$(count_refresh_grants)
LATEST_REFRESH=$(stored refreshToken)
[[ $((AFTER_BURST - BEFORE)) == 1 ]]; check "the provider's database shows exactly one refresh for the burst ($BEFORE -> $AFTER_BURST)" $?
"$WARDEN" logout "${STORE[@]}" > /dev/null 2>&1; check "warden logout" $?
AFTER=$(curl -s -X POST "http://127.0.0.1:$PORT/o/token/" -d grant_type=refresh_token -d client_id=warden-cli --data-urlencode "refresh_token=$LATEST_REFRESH")
[[ $AFTER == *invalid_grant* ]]; check "the revoked refresh token is refused" $?
"$WARDEN" store get --service dev.warden.cli.tokens "${STORE[@]}" > /dev/null 2>&1
[[ $? == 1 ]]; check "nothing is stored after logout" $?
REUSE=$(curl -s -X POST "http://127.0.0.1:$PORT/o/token/" -d grant_type=refresh_token -d client_id=warden-cli --data-urlencode "refresh_token=$OLD_REFRESH")
[[ $REUSE == *invalid_grant* ]]; check "the pre-rotation refresh token is refused with invalid_grant" $?
ID_TOKENS_BEFORE=$(sql 'select count(*) from oauth2_provider_idtoken')
REFRESH_BEFORE=$(sql 'select count(*) from oauth2_provider_refreshtoken')
LIVE_REFRESH_BEFORE=$(sql 'select count(*) from oauth2_provider_refreshtoken where revoked is null')
timeout 90 "$WARDEN" demo --json --issuer "$ISSUER" --client-id warden-cli --browser "$PY $HERE/dot/user_agent.py" \
    --revocation-endpoint "http://127.0.0.1:$PORT/o/revoke_token/" > "$WORK/demo.json" 2> "$WORK/demo.err"
check "warden demo --issuer against django-oauth-toolkit holds every link" $?
# The provider's own records prove the demo ran against it, not against the embedded provider.
[[ $(sql 'select count(*) from oauth2_provider_idtoken') -gt $ID_TOKENS_BEFORE ]]
check "the provider issued the demo's ID token (oauth2_provider_idtoken grew from $ID_TOKENS_BEFORE)" $?
[[ $(($(sql 'select count(*) from oauth2_provider_refreshtoken') - REFRESH_BEFORE)) == 2 ]]
check "the provider saw the demo's sign-in and exactly one refresh (two new refresh tokens)" $?
[[ $(sql 'select count(*) from oauth2_provider_refreshtoken where revoked is null') == "$LIVE_REFRESH_BEFORE" ]]
check "the demo's sign-out revoked its refresh token at the provider" $?
"$PY" - "$WORK/demo.json" "$ISSUER" <<'PYEOF'
import json, sys
document = json.load(open(sys.argv[1]))
names = [link["name"] for link in document["links"]]
assert document["ok"] and len(names) >= 5, names
assert any(sys.argv[2] in link["evidence"] for link in document["links"]), "no link names the provider"
PYEOF
check "the demo's evidence names the provider's URL ($ISSUER)" $?
# max_age, which django-oauth-toolkit does not enforce: an authentication an hour old is refused by warden
# (auth_time), and nothing is stored; prompt=login sends the browser through the provider's login page, whose
# fresh authentication passes.
UA_STALE=1 timeout 60 "$WARDEN" login --issuer "$ISSUER" --client-id warden-cli --scope "openid profile" --param max_age=60 \
    --browser "$PY $HERE/dot/user_agent.py" --store file --insecure-storage --account stale > "$WORK/stale.out" 2> "$WORK/stale.err"
[[ $? == 1 ]] && grep -q auth_time_too_old "$WORK/stale.err"; check "max_age=60 with an hour-old authentication is refused (auth_time_too_old)" $?
"$WARDEN" store get --service dev.warden.cli.tokens --store file --insecure-storage --account stale > /dev/null 2>&1
[[ $? == 1 ]]; check "the refused sign-in stored nothing" $?
LOGINS=$(sql "select last_login from auth_user where username='alice'")
UA_STALE=1 timeout 60 "$WARDEN" login --issuer "$ISSUER" --client-id warden-cli --scope "openid profile" --param max_age=60 --param prompt=login \
    --browser "$PY $HERE/dot/user_agent.py" --store file --insecure-storage --account fresh > "$WORK/fresh.out" 2> "$WORK/fresh.err"
check "prompt=login: the provider's login page re-authenticated and max_age=60 holds" $?
[[ $(sql "select last_login from auth_user where username='alice'") != "$LOGINS" ]]
check "the provider recorded the new authentication (auth_user.last_login moved)" $?
# RP-initiated logout: the browser (one cookie jar across runs) signs in, then warden logout --end-session opens
# the provider's end_session_endpoint with id_token_hint; the provider ends its session and sends the browser back
# with the state warden checks.
JAR=$WORK/browser-cookies.json
UA_JAR=$JAR timeout 60 "$WARDEN" login --issuer "$ISSUER" --client-id warden-cli --scope "openid profile" \
    --browser "$PY $HERE/dot/user_agent.py" --store file --insecure-storage --account rp > "$WORK/rp.out" 2> "$WORK/rp.err"
check "warden login with a persistent browser" $?
BROWSER_SESSION=$("$PY" -c "import json; print(json.load(open('$JAR')).get('sessionid', ''))")
[[ -n $BROWSER_SESSION && $(sql "select count(*) from django_session where session_key='$BROWSER_SESSION'") == 1 ]]
check "the browser holds a session at the provider" $?
UA_JAR=$JAR timeout 60 "$WARDEN" logout --end-session --browser "$PY $HERE/dot/user_agent.py" \
    --store file --insecure-storage --account rp > "$WORK/logout.out" 2> "$WORK/logout.err"
check "warden logout --end-session" $?
grep -q "browser session was ended" "$WORK/logout.out"; check "the provider came back to the post-logout redirect with the request's state" $?
[[ $(sql "select count(*) from django_session where session_key='$BROWSER_SESSION'") == 0 ]]
check "the provider deleted the browser's session (django_session)" $?
# A forged return from the logout (a page faking the provider's redirect) is not taken for an ended session: the
# listener answers it with a state_mismatch page and keeps waiting for the real return, which never comes here.
timeout 60 "$WARDEN" login --issuer "$ISSUER" --client-id warden-cli --scope "openid profile" \
    --browser "$PY $HERE/dot/user_agent.py" --store file --insecure-storage --account forged > /dev/null 2>&1
UA_FORGE_STATE=1 UA_PAGE=$WORK/forged.page timeout 60 "$WARDEN" logout --end-session \
    --browser "$PY $HERE/dot/user_agent.py" --timeout 5 --store file --insecure-storage --account forged \
    > "$WORK/forged.out" 2> "$WORK/forged.err"
[[ $? == 1 ]] && grep -q end_session_failed "$WORK/forged.err" && grep -q state_mismatch "$WORK/forged.page" &&
    grep -q "local tokens deleted" "$WORK/forged.out" && ! grep -q "browser session was ended" "$WORK/forged.out"
check "a logout return with a forged state is ignored (state_mismatch page; exit 1, not ended) after the local sign-out" $?
if [[ $FAIL != 0 ]]; then cat "$WORK/demo.json" "$WORK/demo.err" "$WORK"/stale.* "$WORK"/fresh.* "$WORK"/rp.* "$WORK"/logout.* 2>/dev/null; echo "--- burst stderr"; cat "$WORK/burst.err" 2>/dev/null; echo "--- login stderr"; cat "$WORK/login.err"; echo "--- token stderr"; cat "$WORK/token.err"; tail -20 "$WORK/server.log"; fi
echo "dot suite: $PASS passed, $FAIL failed (django-oauth-toolkit $("$PY" -c 'import oauth2_provider; print(oauth2_provider.__version__)'))"
[[ $FAIL == 0 ]]

#!/usr/bin/env bash
# Secret Service behaviours that need their own D-Bus session: a locked collection is reported as `locked`
# (exit 1, transient) without hanging on an unlock prompt; an absent service is `service_unavailable` (exit 2).
# usage: keyring_suite.sh WARDEN PYTHON
set -uo pipefail
WARDEN=$1
PASS=0
FAIL=0
check() {
    if [[ $2 == 0 ]]; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL: $1"; fi
}
OUT=$(mktemp)
timeout 90 dbus-run-session -- bash -c "
    export HOME=\$(mktemp -d)
    eval \"\$(printf 'pw' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)\"
    '$WARDEN' store set --service dev.warden.locked --account a <<< 'value' || echo 'set failed'
    '$WARDEN' store get --service dev.warden.locked --account a >/dev/null && echo 'unlocked-read=ok'
    /usr/bin/python3 -c \"
import dbus
bus = dbus.SessionBus()
service = dbus.Interface(bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets'), 'org.freedesktop.Secret.Service')
service.Lock([dbus.ObjectPath('/org/freedesktop/secrets/collection/login')])
\"
    '$WARDEN' store get --service dev.warden.locked --account a; echo \"locked-exit=\$?\"
" > "$OUT" 2>&1 < /dev/null
grep -q "unlocked-read=ok" "$OUT"; check "the unlocked keyring is readable" $?
grep -q "locked-exit=75" "$OUT"; check "a locked keyring exits 75 (transient: retry)" $?
grep -q "warden: locked:" "$OUT"; check "a locked keyring says 'locked'" $?
DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus timeout 30 "$WARDEN" store get --service x --account a > "$OUT" 2>&1
STATUS=$?
[[ $STATUS == 2 ]]; check "no Secret Service is exit 2" $?
grep -q "warden: service_unavailable:" "$OUT"; check "no Secret Service says 'service_unavailable'" $?
rm -f "$OUT"
echo "keyring suite: $PASS passed, $FAIL failed"
[[ $FAIL == 0 ]]

"""A member's login through the sandbox's Vipps at a confidential web client (authorize, the
provider, the callback, the code exchange, userinfo with the caller's own traceparent, a refresh),
keeping every secret it saw so that check_traces.py can look for them in the spans.

Usage: traced_login.py BASE_URL CLIENT_SECRET SECRETS_OUT.json   (the client is "web-traced")
"""
import base64
import hashlib
import json
import secrets
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/lib")
from sandbox_login import browser, call  # noqa: E402

BASE, SECRET, OUT = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
CLIENT, REDIRECT = "web-traced", "https://portal.tracing.example/callback"
seen = {"client_secret": SECRET}


def query_of(location):
    return {name: values[0] for name, values in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).items()}


verifier = secrets.token_urlsafe(48)
seen.update(verifier=verifier, state=secrets.token_urlsafe(16), nonce=secrets.token_urlsafe(16))
seen["code_challenge"] = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
one = browser()
status, headers, body = call(f"{BASE}/oauth/authorize?" + urllib.parse.urlencode({
    "client_id": CLIENT, "redirect_uri": REDIRECT, "response_type": "code", "scope": "openid",
    "code_challenge": seen["code_challenge"], "code_challenge_method": "S256", "state": seen["state"],
    "nonce": seen["nonce"], "idp_hint": "vipps",
}), through=one)
assert status in (302, 303), (status, body[:300])
assert not headers["Location"].startswith(REDIRECT), headers["Location"]
status, headers, body = call(headers["Location"] + "&sandbox_user=kari&sandbox_action=approve", through=one)
provider = query_of(headers["Location"])
seen.update(provider_code=provider["code"], provider_state=provider["state"])
status, headers, body = call(headers["Location"], through=one)
assert status in (302, 303) and headers["Location"].startswith(REDIRECT), (status, body[:300])
seen["code"] = query_of(headers["Location"])["code"]

status, _, body = call(f"{BASE}/oauth/token", {
    "grant_type": "authorization_code", "client_id": CLIENT, "client_secret": SECRET, "code": seen["code"],
    "redirect_uri": REDIRECT, "code_verifier": verifier,
})
assert status == 200, body
tokens = json.loads(body)
seen.update(access_token=tokens["access_token"], refresh_token=tokens["refresh_token"], id_token=tokens["id_token"])

# The caller's own trace: Portvakt's span for this request must be its child.
seen["caller_trace_id"], seen["caller_span_id"] = secrets.token_hex(16), secrets.token_hex(8)
request = urllib.request.Request(f"{BASE}/oauth/userinfo", headers={
    "Authorization": f"Bearer {tokens['access_token']}",
    "traceparent": f"00-{seen['caller_trace_id']}-{seen['caller_span_id']}-01",
})
with urllib.request.urlopen(request, timeout=10) as answer:
    assert answer.status == 200

# Hostile trace headers (a tracestate whose letters carry combining marks, a malformed
# traceparent) are ignored, not parsed into a crash or a log line.
hostile = urllib.request.Request(f"{BASE}/health/live", headers={
    "traceparent": "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",
    "tracestate": ("a\ufe0f" * 67 + "=1").encode("utf-8").decode("latin-1"),
    "Authorization": f"Bearer {tokens['access_token']}",
})
with urllib.request.urlopen(hostile, timeout=10) as answer:
    assert answer.status == 200

status, _, body = call(f"{BASE}/oauth/token", {
    "grant_type": "refresh_token", "client_id": CLIENT, "client_secret": SECRET, "refresh_token": tokens["refresh_token"],
})
assert status == 200, body
refreshed = json.loads(body)
seen.update(refreshed_access_token=refreshed["access_token"], refreshed_refresh_token=refreshed["refresh_token"])

with open(OUT, "w") as out:
    json.dump(seen, out)
print("traced_login: signed in, called userinfo, refreshed")

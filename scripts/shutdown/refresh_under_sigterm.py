#!/usr/bin/env python3
"""SIGTERM during load loses no acknowledged write.

`load BASE PID STATE`: logs in 8 sandbox sessions (Vipps, no browser), rotates their refresh
tokens from 8 threads, sends SIGTERM to the server while they run, keeps going until the server
stops answering, and writes each session's last acknowledged refresh token to STATE.
`verify BASE STATE`: after a restart, each last acknowledged token must still refresh (200):
a rotation the server acknowledged was committed, and one it did not acknowledge is repeated.
"""
import base64, hashlib, json, os, secrets, signal, sys, threading, time
import urllib.parse, urllib.request, urllib.error

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

opener = urllib.request.build_opener(NoRedirect)

def call(url, form=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()

def login(base, user):
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    redirect = "no.portvakt.app:/oauth/callback"
    query = urllib.parse.urlencode({
        "client_id": "no.portvakt.app", "redirect_uri": redirect, "response_type": "code", "scope": "openid",
        "code_challenge": challenge, "code_challenge_method": "S256", "state": secrets.token_urlsafe(8),
        "nonce": secrets.token_urlsafe(8), "idp_hint": "vipps",
    })
    status, headers, _ = call(f"{base}/oauth/authorize?{query}")
    provider = headers["Location"]
    status, headers, _ = call(provider + f"&sandbox_user={user}&sandbox_action=approve")
    status, headers, _ = call(headers["Location"])
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(headers["Location"]).query)["code"][0]
    status, _, body = call(f"{base}/oauth/token", {
        "grant_type": "authorization_code", "client_id": "no.portvakt.app", "code": code,
        "redirect_uri": redirect, "code_verifier": verifier,
    })
    assert status == 200, body
    return json.loads(body)["refresh_token"]

def refresh(base, token):
    return call(f"{base}/oauth/token", {"grant_type": "refresh_token", "client_id": "no.portvakt.app", "refresh_token": token})

def load(base, pid, state):
    tokens = [login(base, "kari") for _ in range(8)]
    acknowledged = list(tokens)
    counts = [0] * len(tokens)
    refused = []

    def worker(index):
        while True:
            try:
                status, _, body = refresh(base, acknowledged[index])
            except Exception:
                return  # the server is gone: this request was never acknowledged
            if status == 503:
                return
            if status != 200:
                refused.append(f"session {index}: {status} {body[:200]}")
                return
            acknowledged[index] = json.loads(body)["refresh_token"]
            counts[index] += 1

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(len(tokens))]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    before = sum(counts)
    os.kill(pid, signal.SIGTERM)
    for thread in threads:
        thread.join(timeout=60)
    if refused:
        sys.exit("a refresh was refused during shutdown: " + "; ".join(refused))
    with open(state, "w") as file:
        json.dump(acknowledged, file)
    print(f"{sum(counts)} rotations acknowledged ({before} before SIGTERM, {sum(counts) - before} while draining)")

def verify(base, state):
    with open(state) as file:
        acknowledged = json.load(file)
    for index, token in enumerate(acknowledged):
        status, _, body = refresh(base, token)
        if status != 200:
            sys.exit(f"session {index}: the last acknowledged refresh token answers {status} after the restart: {body[:200]}")
    print(f"all {len(acknowledged)} sessions go on from their last acknowledged token")

if __name__ == "__main__":
    if sys.argv[1] == "load":
        load(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        verify(sys.argv[2], sys.argv[3])

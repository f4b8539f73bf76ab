#!/usr/bin/env python3
"""A signal during load loses no acknowledged write.

`load BASE PID STATE SIGNAL`: logs in 8 sandbox sessions (Vipps, no browser), rotates their
refresh tokens from 8 threads while 2 more threads log in (audited), sends SIGNAL (TERM or KILL)
to the server while they run, keeps going until the server stops answering, and writes each
session's last acknowledged refresh token to STATE.
`verify BASE STATE`: after a restart, each last acknowledged token must still refresh (200):
a rotation the server acknowledged was committed, and one it did not acknowledge is repeated.
"""
import json, os, signal, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from sandbox_login import call, login  # noqa: E402

def refresh(base, token):
    return call(f"{base}/oauth/token", {"grant_type": "refresh_token", "client_id": "no.portvakt.app", "refresh_token": token})

def load(base, pid, state, signal_name):
    tokens = [login(base, "kari")["refresh_token"] for _ in range(8)]
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

    stopped = threading.Event()

    def logins():
        while not stopped.is_set():
            try:
                login(base, "kari")
            except Exception:
                return  # the server is gone

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(len(tokens))]
    threads += [threading.Thread(target=logins) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    before = sum(counts)
    os.kill(pid, getattr(signal, "SIG" + signal_name))
    for thread in threads[:len(tokens)]:
        thread.join(timeout=60)
    stopped.set()
    for thread in threads[len(tokens):]:
        thread.join(timeout=60)
    if refused:
        sys.exit("a refresh was refused during shutdown: " + "; ".join(refused))
    with open(state, "w") as file:
        json.dump(acknowledged, file)
    print(f"{sum(counts)} rotations acknowledged ({before} before SIG{signal_name}, {sum(counts) - before} after it)")

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
        load(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        verify(sys.argv[2], sys.argv[3])

#!/usr/bin/env python3
"""A signal during load loses no acknowledged write.

`load BASE PID STATE SIGNAL [STARTED]`: logs in 8 sandbox sessions (Vipps, no browser), rotates their
refresh tokens from 8 threads while 2 more threads log in (audited), sends SIGNAL (TERM or KILL)
to the server once every session has rotated twice and the file STARTED exists (the unlock load
beside it has unlocked once; never before: a run that rotated or unlocked nothing proves nothing), keeps going until the server stops answering, and writes each session's last
acknowledged refresh token to STATE and the moment of the signal to STATE.signalled (so the
exit is timed from the signal). A worker that fails before the signal fails the run.
`unlocks-ended UNLOCKS STATE.signalled`: no device of the unlock load stopped before the signal.
`verify BASE STATE...`: after a restart, each last acknowledged token in each STATE (this load's,
the unlock load's) must still refresh (200): a rotation or unlock the server acknowledged was
committed, and one it did not acknowledge is repeated.
"""
import json, os, signal, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from sandbox_login import call, login  # noqa: E402

def refresh(base, token):
    return call(f"{base}/oauth/token", {"grant_type": "refresh_token", "client_id": "no.portvakt.app", "refresh_token": token})

def load(base, pid, state, signal_name, started=None):
    tokens = [login(base, "kari")["refresh_token"] for _ in range(8)]
    acknowledged = list(tokens)
    counts = [0] * len(tokens)
    refused = []
    progress = threading.Condition()
    signalled = threading.Event()

    def worker(index):
        while True:
            try:
                status, _, body = refresh(base, acknowledged[index])
            except Exception as error:
                if not signalled.is_set():
                    refused.append(f"session {index}: no answer before the signal ({error})")
                with progress:
                    progress.notify_all()
                return  # after the signal the server is gone: this request was never acknowledged
            if status == 503 and signalled.is_set():
                return
            if status != 200:
                refused.append(f"session {index}: {status} {body[:200]}")
                with progress:
                    progress.notify_all()
                return
            acknowledged[index] = json.loads(body)["refresh_token"]
            with progress:
                counts[index] += 1
                progress.notify_all()

    stopped = threading.Event()

    def logins():
        while not stopped.is_set():
            try:
                login(base, "kari")
            except Exception:
                return  # the server is gone

    # Daemons: a run that fails before the signal ends without waiting for them.
    threads = [threading.Thread(target=worker, args=(index,), daemon=True) for index in range(len(tokens))]
    threads += [threading.Thread(target=logins, daemon=True) for _ in range(2)]
    for thread in threads:
        thread.start()
    # Load first: every session rotates twice before the signal, or the run fails.
    with progress:
        if not progress.wait_for(lambda: min(counts) >= 2 or refused, timeout=60) or refused:
            stopped.set()
            sys.exit("no load before the signal: " + ("; ".join(refused) or f"rotations {counts} after 60 s"))
    deadline = time.time() + 60
    while started and not os.path.exists(started):
        if time.time() > deadline:
            stopped.set()
            sys.exit(f"no unlock beside the load after 60 s ({started} never appeared)")
        with progress:
            progress.wait(timeout=0.1)  # the rotations go on meanwhile
    with progress:
        before = sum(counts)
    with open(state + ".signalled", "w") as file:
        file.write(f"{time.time():.3f}")
    signalled.set()
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

def verify(base, *states):
    for state in states:
        with open(state) as file:
            saved = json.load(file)
        # The unlock load's (portvakt-load --until-server-stops): a device whose last grant got no
        # answer may have been replaced by it (committed before the kill): 200, or ended as such.
        strict, lenient = (saved, []) if isinstance(saved, list) else (saved["acknowledged"], saved["maybe_replaced"])
        for index, token in enumerate(strict + lenient):
            status, _, body = refresh(base, token)
            replaced = index >= len(strict) and status == 400 and '"session_expired"' in body
            if status != 200 and not replaced:
                sys.exit(f"{os.path.basename(state)}, session {index}: the last acknowledged refresh token answers {status} after the restart: {body[:200]}")
        print(f"{os.path.basename(state)}: all {len(strict) + len(lenient)} sessions go on from their last acknowledged token"
              + (f" ({len(lenient)} whose last unlock went unanswered allowed to be replaced by it)" if lenient else ""))

def unlocks_ended_after_signal(unlocks, signalled):
    """Every device of the unlock load ran until the server went away, none stopped before."""
    with open(unlocks) as file:
        ended = json.load(file)["ended_at"]
    with open(signalled) as file:
        signal_at = float(file.read())
    early = [round(signal_at - at, 3) for at in ended if at < signal_at]
    if early or not ended:
        sys.exit(f"{len(early)} of {len(ended)} devices stopped unlocking before the signal (seconds before: {early})")

if __name__ == "__main__":
    if sys.argv[1] == "load":
        load(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], *sys.argv[6:7])
    elif sys.argv[1] == "unlocks-ended":
        unlocks_ended_after_signal(sys.argv[2], sys.argv[3])
    else:
        verify(sys.argv[2], *sys.argv[3:])

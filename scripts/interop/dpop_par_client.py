"""An independent client of Portvakt written from docs/client-protocol.md alone (no code of ours):
`requests` for HTTP, `jwcrypto` for the P-256 keys and their raw `r || s` ES256 signatures,
Authlib's JOSE for the ID token. Every request is made as the document describes it (its section
in the comments); what only a test needs is marked `# harness:`.

As the development app `no.portvakt.app` it logs in through the browser (PAR with a proof, the
browser's trip with only `request_uri`, `state` and `iss` checked, the code redeemed with a
proof), asks /v1/me, refreshes, registers a device key, replays an offline queue with
idempotency keys (a write waiting for its step-up), steps up with the device key, unlocks with
it, logs in again by a BankID order, and logs out (device revoked, refresh token revoked).
The server must refuse what the document says it refuses: a proof without the nonce, a replayed
proof, a wrong htm and htu, a stale and a future iat, a proof by another key, a missing and a
wrong ath, the bound token as Bearer, the refresh token with another key and without a proof, a
request_uri used twice and one older than 60 seconds, an authorization request without PAR,
a used unlock challenge, a reused idempotency key, and every token of a session after logout.

Usage: dpop_par_client.py BASE_URL   (a `portvakt-server dev` with the sandbox's providers)
"""
import base64
import hashlib
import json
import secrets
import sys
import time
import uuid
import warnings
from urllib.parse import parse_qs, quote, urlsplit, urlunsplit

import requests
from jwcrypto import jwa, jwk

warnings.filterwarnings("ignore", message=".*authlib.jose module is deprecated.*")
from authlib.jose import JsonWebKey, jwt as authlib_jwt

# §1: the base URL (trailing `/` removed), the development client and its redirect URI.
BASE = sys.argv[1].rstrip("/")
CLIENT_ID = "no.portvakt.app"
REDIRECT_URI = "no.portvakt.app:/oauth/callback"
BANKID_RETURN_URL = "no.portvakt.app:/bankid/return"
LANGUAGE = "nb"
# harness: the sandbox's test person (docs/sandbox.md, "Test users"): an administrator in `nhf`.
SANDBOX_USER = "ingrid"
failures = []
dpop_answers = {"with_nonce": 0, "without": 0}


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)
    return condition


def require(condition, what):
    """A step the rest depends on: on failure say which, and stop (exit 1)."""
    if not check(condition, what):
        print(f"dpop/par interop: stopped at: {what}", file=sys.stderr)
        sys.exit(1)


def invariant(condition, what):
    """What every proof or assertion must be: silent unless it fails (then as ``require``)."""
    if not condition:
        require(False, what)


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64_json(value):
    """§2, §6.2: base64url of the JSON, keys sorted, no spaces, slashes unescaped."""
    return b64(json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8"))


def unverified_part(token, index):
    """The JSON of one part of a compact JWS, read without verifying it (§2: the app reads its
    own access token's payload only to choose Bearer or DPoP)."""
    part = token.split(".")[index]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def form(pairs):
    """§1: `name=value` joined by `&`, each value percent-encoded keeping only A–Z a–z 0–9 - . _ ~."""
    return "&".join(f"{name}={quote(value, safe='')}" for name, value in pairs)


def path_segment(value):
    """§6: an id in a path, percent-encoded (unreserved characters kept)."""
    return quote(value, safe="")


def htu(url):
    """§2: the URL without query and fragment, scheme and host lower case, no :443/:80, empty path → /."""
    parts = urlsplit(url)
    scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
    if (scheme == "https" and netloc.endswith(":443")) or (scheme == "http" and netloc.endswith(":80")):
        netloc = netloc.rsplit(":", 1)[0]
    return urlunsplit((scheme, netloc, parts.path or "/", "", ""))


def error_of(response):
    try:
        return response.json().get("error")
    except ValueError:
        return None


def message_of(response):
    try:
        return response.json().get("message_id")
    except ValueError:
        return None


def described(response):
    return f"{response.status_code} {error_of(response)}/{message_of(response)} {response.headers.get('WWW-Authenticate', '')}".strip()


class P256Key:
    """A P-256 key: the public JWK's 32-byte x and y (43 base64url characters each), the RFC 7638
    thumbprint over exactly {"crv","kty","x","y"}, and raw 64-byte r || s ES256 signatures (§2)."""

    def __init__(self):
        self.key = jwk.JWK.generate(kty="EC", crv="P-256")
        public = self.key.export_public(as_dict=True)
        self.x, self.y = public["x"], public["y"]
        invariant(len(self.x) == 43 and len(self.y) == 43, "a P-256 key's x and y are 43 base64url characters")
        self.canonical_jwk = '{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}' % (self.x, self.y)
        self.thumbprint = b64(hashlib.sha256(self.canonical_jwk.encode("ascii")).digest())

    def sign(self, signing_input):
        signature = jwa.JWA.signing_alg("ES256").sign(self.key, signing_input.encode("ascii"))
        invariant(len(signature) == 64, "an ES256 signature is the raw 64-byte r || s")
        return b64(signature)

    def compact(self, header_segment, payload_segment):
        signing_input = f"{header_segment}.{payload_segment}"
        return f"{signing_input}.{self.sign(signing_input)}"


class ProofKey(P256Key):
    """§2: the installation's DPoP key and the latest non-empty DPoP-Nonce the server sent."""

    def __init__(self):
        super().__init__()
        self.nonce = None
        self.header = b64(('{"alg":"ES256","jwk":%s,"typ":"dpop+jwt"}' % self.canonical_jwk).encode("ascii"))

    def proof(self, method, url, access_token=None, iat=None):
        """The payload's keys sorted; `ath` only with an access token, `nonce` once one is known."""
        claims = {"jti": b64(secrets.token_bytes(16)), "htm": method, "htu": htu(url), "iat": int(time.time() if iat is None else iat)}
        if access_token is not None:
            claims["ath"] = b64(hashlib.sha256(access_token.encode("ascii")).digest())
        if self.nonce:
            claims["nonce"] = self.nonce
        proof = self.compact(self.header, b64_json(claims))
        invariant(len(proof) <= 4096, "a DPoP proof is at most 4096 bytes")
        return proof


def is_bound(access_token):
    """§2: a bound token carries cnf.jkt; it goes as `DPoP` with a proof, any other as `Bearer`."""
    try:
        return bool(unverified_part(access_token, 1).get("cnf", {}).get("jkt"))
    except (ValueError, IndexError, AttributeError):
        return False


def asks_for_nonce(response):
    """§2: a 400 whose JSON error is use_dpop_nonce, or a 401 whose challenge says error="use_dpop_nonce"."""
    if response.status_code == 401:
        return 'error="use_dpop_nonce"' in response.headers.get("WWW-Authenticate", "")
    return response.status_code == 400 and error_of(response) == "use_dpop_nonce"


class Portvakt:
    """Portvakt's HTTP API as §1 and §2 describe the app's requests."""

    def __init__(self, key):
        self.key = key

    def url(self, path):
        return f"{BASE}/{path}"

    def request(self, method, path, *, form_fields=None, json_body=None, access_token=None, proof=False, headers=None):
        """One request; a bound access token goes as `DPoP` with a proof carrying `ath`, `proof`
        adds a proof without a token (/oauth/*). Asked for a new nonce, it signs once more with
        a new proof; the second answer is final. The first answer is kept as `.first`."""
        url = self.url(path)
        body, content_type = None, None
        if form_fields is not None:
            body, content_type = form(form_fields).encode("ascii"), "application/x-www-form-urlencoded"
        elif json_body is not None:
            body, content_type = json.dumps(json_body, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), "application/json"
        bound = access_token is not None and is_bound(access_token)
        first = None
        for attempt in (1, 2):
            sent = {"Accept": "application/json"}
            if content_type:
                sent["Content-Type"] = content_type
            sent.update(headers or {})
            if access_token is not None:
                sent["Authorization"] = f"{'DPoP' if bound else 'Bearer'} {access_token}"
            if proof or bound:
                sent["DPoP"] = self.key.proof(method, url, access_token if bound else None)
            response = requests.request(method, url, headers=sent, data=body, allow_redirects=False, timeout=10)
            nonce = response.headers.get("DPoP-Nonce")
            if "DPoP" in sent:
                dpop_answers["with_nonce" if nonce else "without"] += 1
            if nonce:
                self.key.nonce = nonce
            if attempt == 1 and "DPoP" in sent and asks_for_nonce(response):
                first = response
                continue
            break
        response.first = first
        return response


class Session:
    """§5: the tokens of one session, refreshed when the access token has 30 s or less left."""

    def __init__(self, api, answer):
        self.api = api
        self.store(answer)

    def store(self, answer):
        self.access_token = answer["access_token"]
        self.refresh_token = answer["refresh_token"]
        self.expires_at = time.time() + answer["expires_in"]
        self.ended = False

    def token(self):
        if self.expires_at - time.time() <= 30:
            self.refresh()
        return self.access_token

    def refresh(self):
        """§5: `invalid_grant` ends the session; any other failure keeps it (try later)."""
        answer = self.api.request("POST", "oauth/token", proof=True, form_fields=[
            ("grant_type", "refresh_token"), ("client_id", CLIENT_ID), ("refresh_token", self.refresh_token),
        ])
        if answer.status_code == 200:
            self.store(answer.json())
        elif answer.status_code == 400 and error_of(answer) == "invalid_grant":
            self.ended = True
        return answer


def token_answer_ok(answer, what, id_token=True, device_trust=True, scope="openid"):
    """§3.4 / §5 / §6.2: the token endpoint's answer: the scopes the session was granted (a device
    unlock's session carries every claim of Portvakt's own app, issue 59)."""
    require(answer.status_code == 200, f"{what}: 200 from /oauth/token ({described(answer)})")
    body = answer.json()
    check(body.get("token_type") == "DPoP" and answer.headers.get("Cache-Control") == "no-store",
          f"{what}: token_type DPoP, Cache-Control no-store")
    check(all(isinstance(body.get(name), int) for name in ("expires_in", "session_expires_in")) and body.get("scope") == scope,
          f"{what}: expires_in, session_expires_in, scope {scope}")
    check(("id_token" in body) == id_token, f"{what}: {'an' if id_token else 'no'} id_token")
    check(("device_trust_expires_in" in body) == device_trust, f"{what}: {'a' if device_trust else 'no'} device_trust_expires_in")
    return body


def pkce_pair():
    """§3: a verifier of 32 random bytes, base64url (43 characters), and its S256 challenge."""
    verifier = b64(secrets.token_bytes(32))
    return verifier, b64(hashlib.sha256(verifier.encode("ascii")).digest())


def push(api, idp_hint="bankid"):
    """§3.1: PAR with a proof. The verifier, state and nonce are kept for the answer."""
    verifier, challenge = pkce_pair()
    login = {"verifier": verifier, "state": b64(secrets.token_bytes(16)), "nonce": b64(secrets.token_bytes(16))}
    answer = api.request("POST", "oauth/par", proof=True, form_fields=[
        ("client_id", CLIENT_ID), ("redirect_uri", REDIRECT_URI), ("response_type", "code"), ("scope", "openid"),
        ("code_challenge", challenge), ("code_challenge_method", "S256"), ("state", login["state"]), ("nonce", login["nonce"]),
        ("ui_locales", LANGUAGE), ("idp_hint", idp_hint),
    ])
    require(answer.status_code == 201, f"PAR: 201 ({described(answer)})")
    body = answer.json()
    require(body.get("request_uri", "").startswith("urn:ietf:params:oauth:request_uri:") and body.get("expires_in") == 60,
            f"PAR: request_uri and expires_in 60 ({body})")
    login["request_uri"] = body["request_uri"]
    return login, answer


def authorize_url(request_uri):
    """§3.2: what the browser opens."""
    return f"{BASE}/oauth/authorize?client_id={quote(CLIENT_ID, safe='')}&request_uri={quote(request_uri, safe='')}"


def browser(url, cookies=None):
    """harness: the in-app browser, one hop at a time, so the script sees each redirect."""
    return requests.get(url, cookies=cookies, allow_redirects=False, timeout=10)


def callback_fields(location):
    """§3.3: the answer at the redirect URI (not followed: the app's scheme), its query decoded."""
    require(location.startswith(REDIRECT_URI + "?"), f"the browser ends at the redirect URI ({location[:120]})")
    return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}


def browser_login(login):
    """§3.2–§3.3 through the sandbox's BankID; returns the callback's fields."""
    hop = browser(authorize_url(login["request_uri"]))
    require(hop.status_code == 303 and "Location" in hop.headers, f"authorize with request_uri: 303 to BankID ({hop.status_code} {hop.text[:200]})")
    # harness: the login's binding to this browser (a cookie), which Portvakt's callback asks for.
    cookies = hop.cookies
    # harness: the sandbox's BankID page takes the test person and the choice in the query.
    hop = browser(hop.headers["Location"] + f"&sandbox_user={SANDBOX_USER}&sandbox_action=approve")
    require(hop.status_code in (302, 303) and "Location" in hop.headers, f"the sandbox's BankID answers with a redirect ({hop.status_code})")
    hop = browser(hop.headers["Location"], cookies=cookies)
    require(hop.status_code == 303 and "Location" in hop.headers, f"Portvakt's callback: 303 to the app ({hop.status_code} {hop.text[:200]})")
    return callback_fields(hop.headers["Location"])


def exchange(api, code, verifier):
    """§3.4: the code with the verifier and a proof."""
    return api.request("POST", "oauth/token", proof=True, form_fields=[
        ("grant_type", "authorization_code"), ("client_id", CLIENT_ID), ("code", code),
        ("redirect_uri", REDIRECT_URI), ("code_verifier", verifier),
    ])


def challenge(api, device_id, purpose, action=None, access_token=None):
    """§6.2 / §7: a single-use challenge; an unlock's anonymous, a step-up's with the user's token."""
    body = {"purpose": purpose}
    if action:
        body["action"] = action
    return api.request("POST", f"v1/devices/{path_segment(device_id)}/challenges", json_body=body, access_token=access_token)


def device_assertion(device_key, device_id, issued, purpose, action=None):
    """§6.2: the DeviceAssertion, signed by the device key (the biometric prompt on a phone)."""
    payload = {"aud": issued["audience"], "challenge": issued["challenge"], "iat": int(time.time()), "iss": device_id, "purpose": purpose}
    if action:
        payload["action"] = action
    assertion = device_key.compact(b64_json({"alg": "ES256", "kid": device_id, "typ": "JWT"}), b64_json(payload))
    invariant(len(assertion) <= 4096, "a device assertion is at most 4096 bytes")
    return assertion


def unlock_grant(api, assertion):
    """§6.2: the unlock grant (RFC 7523 shape) with a proof of the proof key."""
    return api.request("POST", "oauth/token", proof=True, form_fields=[
        ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", CLIENT_ID), ("assertion", assertion),
    ])


def me(api, access_token):
    """§10."""
    return api.request("GET", f"v1/me?ui_locales={LANGUAGE}", access_token=access_token)


def replay(api, queue, session, user_id):
    """§8: the user's writes in order, each with a fresh access token and its Idempotency-Key."""
    report = {"sent": [], "refused": [], "stopped": None}
    for write in [w for w in queue if w["user_id"] == user_id]:
        answer = api.request(write["method"], write["path"], json_body=write["body"], access_token=session.token(),
                             headers={"Idempotency-Key": write["id"]})
        status = answer.status_code
        if 200 <= status < 300:
            queue.remove(write)
            report["sent"].append((write, answer))
        elif status == 401 and write["step_up"]:
            report["stopped"] = ("needs_step_up", write, answer)
            break
        elif status in (401, 408, 429) or status >= 500:
            report["stopped"] = ("unavailable", write, answer)
            break
        else:
            queue.remove(write)
            report["refused"].append((write, answer))
    return report


def queued(path, body, user_id, step_up=None):
    """§8: one queued write; its id is a lowercase UUID and also its Idempotency-Key."""
    return {"id": str(uuid.uuid4()).lower(), "method": "POST", "path": path, "body": body, "step_up": step_up,
            "user_id": user_id, "created_at": int(time.time())}


def main():
    proof_key = ProofKey()
    api = Portvakt(proof_key)

    # §1: discovery names the fixed paths the client uses (the app itself does not read it).
    discovery = requests.get(f"{BASE}/.well-known/openid-configuration", headers={"Accept": "application/json"}, timeout=10).json()
    check(discovery.get("issuer") == BASE and all(discovery.get(name) == f"{BASE}/{path}" for name, path in [
        ("authorization_endpoint", "oauth/authorize"), ("pushed_authorization_request_endpoint", "oauth/par"),
        ("token_endpoint", "oauth/token"), ("revocation_endpoint", "oauth/revoke"), ("jwks_uri", ".well-known/jwks.json"),
    ]), "discovery: the issuer is the base URL and names the fixed paths")
    check(discovery.get("dpop_signing_alg_values_supported") == ["ES256"] and discovery.get("authorization_response_iss_parameter_supported") is True,
          "discovery: DPoP ES256, iss in the authorization response")

    # §3.1, §2: the first proof has no nonce yet: refused once with the nonce, then accepted.
    started = time.time()
    late, first_par = push(api)
    check(first_par.first is not None and first_par.first.status_code == 400 and error_of(first_par.first) == "use_dpop_nonce"
          and bool(first_par.first.headers.get("DPoP-Nonce")), "a proof without a nonce: 400 use_dpop_nonce with DPoP-Nonce, then the retry works")

    # §3.2: an authorization request with its parameters in the query is refused for this client.
    verifier, code_challenge = pkce_pair()
    state = b64(secrets.token_bytes(16))
    front = browser(f"{BASE}/oauth/authorize?" + form([
        ("client_id", CLIENT_ID), ("redirect_uri", REDIRECT_URI), ("response_type", "code"), ("scope", "openid"),
        ("code_challenge", code_challenge), ("code_challenge_method", "S256"), ("state", state), ("ui_locales", LANGUAGE), ("idp_hint", "bankid"),
    ]))
    refusal = callback_fields(front.headers.get("Location", "")) if front.status_code == 303 else {}
    check(refusal.get("error") == "invalid_request" and refusal.get("message_id") == "invalid_login_request"
          and refusal.get("state") == state and refusal.get("iss") == BASE, f"authorize without PAR: 303 invalid_request + invalid_login_request ({front.status_code})")

    # §3.1–§3.4: the login.
    login, _ = push(api)
    answer = browser_login(login)
    require(answer.get("state") == login["state"], "the callback's state is the one stored")
    require(answer.get("iss") == BASE, "the callback's iss is the base URL (RFC 9207)")
    require("code" in answer, f"the callback carries a code ({answer.get('error')} {answer.get('message_id')})")
    check(browser(authorize_url(login["request_uri"])).status_code == 400, "a request_uri used twice: 400")
    tokens = token_answer_ok(exchange(api, answer["code"], login["verifier"]), "code exchange")
    session = Session(api, tokens)
    access_payload = unverified_part(tokens["access_token"], 1)
    access_header = unverified_part(tokens["access_token"], 0)
    check(access_header.get("typ") == "at+jwt" and access_header.get("alg") == "ES256", "the access token is an ES256 at+jwt")
    check(access_payload.get("cnf", {}).get("jkt") == proof_key.thumbprint, "the access token carries cnf.jkt, our key's RFC 7638 thumbprint")
    jwks = JsonWebKey.import_key_set(requests.get(f"{BASE}/.well-known/jwks.json", headers={"Accept": "application/json"}, timeout=10).json())
    id_claims = authlib_jwt.decode(tokens["id_token"], jwks, claims_options={
        "iss": {"essential": True, "value": BASE}, "aud": {"essential": True, "value": CLIENT_ID},
        "nonce": {"essential": True, "value": login["nonce"]}, "exp": {"essential": True},
    })
    id_claims.validate(leeway=5)
    check(id_claims.header.get("alg") == "ES256" and id_claims["sub"] == access_payload["sub"], "the ID token: ES256, iss, aud, nonce, the token's sub")
    user_id = access_payload["sub"]

    # §10: who is signed in.
    profile = me(api, session.token())
    require(profile.status_code == 200, f"GET /v1/me?ui_locales=nb with DPoP and a proof ({described(profile)})")
    body = profile.json()
    check(body.get("home_screen") in ("organisation_admin", "coordinator_overview", "peer_mentor_activities", "no_organisation")
          and isinstance(body.get("notices"), list) and body["user"]["id"] == user_id and "device_id" not in body["session"],
          f"/v1/me: home_screen, notices, user, session ({body.get('home_screen')})")
    require(body.get("organisations"), "/v1/me: the test person has an organisation")
    organisation = body["organisations"][0]["slug"]

    # §2: a resource refuses a proof with an old nonce with a 401 challenge and the new nonce; the retry works.
    proof_key.nonce = "not-the-servers-nonce"
    profile = me(api, session.token())
    check(profile.first is not None and profile.first.status_code == 401
          and 'DPoP error="use_dpop_nonce"' in profile.first.headers.get("WWW-Authenticate", "") and bool(profile.first.headers.get("DPoP-Nonce"))
          and profile.status_code == 200, "a resource: 401 use_dpop_nonce with DPoP-Nonce, then the retry works")

    # §2: the proofs the server refuses (each request below breaks one rule on purpose).
    me_url, access = api.url(f"v1/me?ui_locales={LANGUAGE}"), session.token()

    def refused(headers, what, error="invalid_dpop_proof"):
        response = requests.get(me_url, headers={"Accept": "application/json", **headers}, timeout=10)
        challenge_header = response.headers.get("WWW-Authenticate", "")
        check(response.status_code == 401 and error_of(response) == error and challenge_header.startswith(f'DPoP error="{error}"')
              and 'algs="ES256"' in challenge_header, f"refused: {what} ({described(response)})")

    proof = proof_key.proof("GET", me_url, access)
    first = requests.get(me_url, headers={"Accept": "application/json", "Authorization": f"DPoP {access}", "DPoP": proof}, timeout=10)
    check(first.status_code == 200, "a fresh proof is accepted")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof}, "the same proof again (replayed jti)")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof_key.proof("POST", me_url, access)}, "a proof with the wrong htm")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof_key.proof("GET", api.url("v1/activities"), access)}, "a proof with the wrong htu")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof_key.proof("GET", me_url, access, iat=time.time() - 300)}, "a stale iat")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof_key.proof("GET", me_url, access, iat=time.time() + 300)}, "a future iat")
    thief = ProofKey()
    thief.nonce = proof_key.nonce
    refused({"Authorization": f"DPoP {access}", "DPoP": thief.proof("GET", me_url, access)}, "a proof by another key")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof_key.proof("GET", me_url)}, "a proof without ath")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof_key.proof("GET", me_url, access + "x")}, "a proof with a wrong ath")
    refused({"Authorization": f"Bearer {access}"}, "the bound token as Bearer", error="invalid_token")

    # §5: the refresh token is bound to the key; rotated; a lost answer's repeat gives the same successor.
    refresh_form = [("grant_type", "refresh_token"), ("client_id", CLIENT_ID), ("refresh_token", session.refresh_token)]
    stolen = Portvakt(thief).request("POST", "oauth/token", proof=True, form_fields=refresh_form)
    check(stolen.status_code == 400 and error_of(stolen) == "invalid_grant" and message_of(stolen) is None,
          f"the refresh token with another key: 400 invalid_grant, no message_id ({described(stolen)})")
    bare = api.request("POST", "oauth/token", form_fields=refresh_form)
    check(bare.status_code == 400 and error_of(bare) == "invalid_dpop_proof", f"the refresh token without a proof: 400 invalid_dpop_proof ({described(bare)})")
    old_refresh_token = session.refresh_token
    refreshed = token_answer_ok(session.refresh(), "refresh", id_token=False, device_trust=False)
    check(refreshed["refresh_token"] != old_refresh_token, "the session still refreshes with the right key (rotated)")
    repeat = api.request("POST", "oauth/token", proof=True, form_fields=refresh_form)
    check(repeat.status_code == 200 and repeat.json().get("refresh_token") == session.refresh_token,
          "a refresh repeated (its answer lost) gives the same successor")
    check(me(api, session.token()).status_code == 200, "the refreshed access token works with proofs")

    # §6.1: the device key, registered within 5 minutes of the BankID login.
    device_key = P256Key()
    registration = {"name": "Interop test phone", "platform": "android", "biometric_kind": "fingerprint",
                    "public_key": {"kty": "EC", "crv": "P-256", "x": device_key.x, "y": device_key.y}}
    registered = api.request("POST", "v1/devices", json_body=registration, access_token=session.token())
    require(registered.status_code == 201, f"POST /v1/devices: 201 ({described(registered)})")
    device = registered.json()
    device_id = device["id"]
    check(device.get("platform") == "android" and device.get("biometric_kind") == "fingerprint" and device.get("current") is False
          and "created_at" in device, "the registered device: platform, biometric_kind, current false, created_at")
    twice = api.request("POST", "v1/devices", json_body=registration, access_token=session.token())
    check(twice.status_code == 409 and error_of(twice) == "conflict", f"the same key again: 409 conflict ({described(twice)})")

    # §8: the offline queue. The activity is sent; the expense waits for its step-up.
    queue = [
        queued("v1/activities", {"organisation": organisation, "kind": "visit", "occurred_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                 "duration_minutes": 45, "note": "Interop test"}, user_id),
        queued("v1/expenses", {"organisation": organisation, "amount_ore": 12500, "description": "Bus ticket (interop test)"}, user_id,
               step_up="expenses.submit"),
    ]
    activity, expense = queue
    report = replay(api, queue, session, user_id)
    require([write["id"] for write, _ in report["sent"]] == [activity["id"]] and report["sent"][0][1].status_code == 201,
            "replay: the activity is sent (201) and leaves the queue")
    activity_row = report["sent"][0][1].json()
    stop = report["stopped"]
    require(stop is not None and stop[0] == "needs_step_up" and stop[1] is expense and queue == [expense],
            "replay: the expense answers 401 and waits for a step-up")
    waiting = stop[2]
    check(error_of(waiting) == "insufficient_user_authentication" and message_of(waiting) == "step_up_required"
          and waiting.headers.get("WWW-Authenticate", "").startswith('DPoP error="insufficient_user_authentication"')
          and 'step_up_action="expenses.submit"' in waiting.headers.get("WWW-Authenticate", ""),
          f"the expense's 401: insufficient_user_authentication + step_up_required, step_up_action ({described(waiting)})")
    again = api.request("POST", activity["path"], json_body=activity["body"], access_token=session.token(), headers={"Idempotency-Key": activity["id"]})
    check(again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true" and again.json()["id"] == activity_row["id"],
          "the activity again with its key: 201, Idempotent-Replayed, the first row")
    changed = dict(activity["body"], duration_minutes=46)
    reused = api.request("POST", activity["path"], json_body=changed, access_token=session.token(), headers={"Idempotency-Key": activity["id"]})
    check(reused.status_code == 422 and error_of(reused) == "idempotency_key_reused", f"the key with another body: 422 idempotency_key_reused ({described(reused)})")

    # §7: the password step-up (the test person has no password), and what neither step-up opens.
    no_password = api.request("POST", "v1/step-up/password", json_body={"action": "expenses.submit", "password": "not a password"}, access_token=session.token())
    check(no_password.status_code == 400 and error_of(no_password) == "access_denied" and message_of(no_password) == "no_password_set",
          f"password step-up without a password: 400 access_denied + no_password_set ({described(no_password)})")
    fresh = api.request("POST", "v1/step-up/password", json_body={"action": "personnummer.read", "password": "not a password"}, access_token=session.token())
    check(fresh.status_code == 401 and error_of(fresh) == "insufficient_user_authentication" and message_of(fresh) == "fresh_login_required"
          and 'max_age="300"' in fresh.headers.get("WWW-Authenticate", ""), f"personnummer.read: 401 fresh_login_required ({described(fresh)})")

    # §7: the step-up with the device key, then the waiting expense with the elevated token.
    issued = challenge(api, device_id, "step-up", "expenses.submit", access_token=session.token())
    require(issued.status_code == 201, f"a step-up challenge: 201 ({described(issued)})")
    issued = issued.json()
    check(issued.get("purpose") == "step-up" and issued.get("action") == "expenses.submit" and issued.get("audience") == BASE
          and issued.get("device_id") == device_id and issued.get("expires_in") == 60, "the step-up challenge: purpose, action, audience, device_id, expires_in 60")
    stepped = api.request("POST", "v1/step-up", json_body={"assertion": device_assertion(device_key, device_id, issued, "step-up", "expenses.submit")},
                          access_token=session.token())
    require(stepped.status_code == 200, f"POST /v1/step-up: 200 ({described(stepped)})")
    elevated = stepped.json()
    check(elevated.get("action") == "expenses.submit" and elevated.get("token_type") == "DPoP" and elevated.get("expires_in") == 120
          and unverified_part(elevated["access_token"], 1).get("step_up") == "expenses.submit", "the elevated token: action, DPoP, expires_in 120, step_up claim")
    sent = api.request(expense["method"], expense["path"], json_body=expense["body"], access_token=elevated["access_token"], headers={"Idempotency-Key": expense["id"]})
    check(sent.status_code == 201 and sent.json().get("amount_ore") == 12500, f"the expense with the elevated token: 201 ({described(sent)})")
    if sent.status_code == 201:
        queue.remove(expense)
    repeated = api.request(expense["method"], expense["path"], json_body=expense["body"], access_token=elevated["access_token"], headers={"Idempotency-Key": expense["id"]})
    check(repeated.status_code == 201 and repeated.headers.get("Idempotent-Replayed") == "true", "the expense again with its key: 201, Idempotent-Replayed")
    check(queue == [], "the queue is empty")

    # §6.2: the unlock (a relaunch): an anonymous challenge, the assertion, the unlock grant.
    issued = challenge(api, device_id, "unlock")
    require(issued.status_code == 201, f"an unlock challenge without token or proof: 201 ({described(issued)})")
    issued = issued.json()
    check(issued.get("purpose") == "unlock" and "action" not in issued and issued.get("audience") == BASE and issued.get("expires_in") == 60,
          "the unlock challenge: purpose unlock, no action, audience, expires_in 60")
    assertion = device_assertion(device_key, device_id, issued, "unlock")
    unlocked = Session(api, token_answer_ok(unlock_grant(api, assertion), "unlock grant", scope="openid profile email organisations"))
    check(unverified_part(unlocked.access_token, 1).get("cnf", {}).get("jkt") == proof_key.thumbprint, "the unlocked session is bound to the proof key")
    used = unlock_grant(api, assertion)
    check(used.status_code == 400 and error_of(used) == "invalid_grant" and message_of(used) == "biometric_unlock_failed",
          f"the same assertion again: 400 invalid_grant + biometric_unlock_failed ({described(used)})")
    profile = me(api, unlocked.token())
    check(profile.status_code == 200 and profile.json()["session"].get("device_id") == device_id
          and profile.json()["session"].get("amr") == ["hwk", "fpt"], "/v1/me after the unlock: device_id and amr hwk, fpt")
    listed = api.request("GET", "v1/devices", access_token=unlocked.token())
    ours = [entry for entry in listed.json().get("devices", [])] if listed.status_code == 200 else []
    check([entry["id"] for entry in ours if entry.get("current")] == [device_id] and all("last_used_at" in entry for entry in ours if entry["id"] == device_id),
          "GET /v1/devices: ours is current, with last_used_at")

    # §4: a new login by a BankID order on this phone.
    order_verifier, order_challenge = pkce_pair()
    started_order = api.request("POST", "bankid/orders", json_body={
        "client_id": CLIENT_ID, "redirect_uri": REDIRECT_URI, "code_challenge": order_challenge, "code_challenge_method": "S256",
        "return_url": BANKID_RETURN_URL, "ui_locales": LANGUAGE, "dpop_jkt": proof_key.thumbprint,
    })
    require(started_order.status_code == 201, f"POST /bankid/orders: 201 ({described(started_order)})")
    order = started_order.json()
    session_ref = order["sessionId"]
    check(order.get("launchURL") == f"bankid:///?autostarttoken={quote(order['autoStartToken'], safe='')}&redirect={quote(BANKID_RETURN_URL, safe='')}"
          and order.get("pollInterval") == 2 and order.get("qrCodeUri") == f"{BASE}/bankid/orders/qr" and 0 < order.get("expiresIn", 0) <= 180,
          "the order: launchURL with the return URL, pollInterval, qrCodeUri, expiresIn")
    frame = api.request("POST", "bankid/orders/qr", json_body={"sessionId": session_ref, "format": "data"})
    check(frame.status_code == 200 and frame.json().get("qrData", "").startswith("bankid.") and isinstance(frame.json().get("seconds"), int),
          "a QR frame: qrData bankid.…, seconds")
    pending = api.request("POST", "bankid/orders/collect", json_body={"sessionId": session_ref})
    check(pending.status_code == 200 and pending.json().get("status") == "pending" and pending.json().get("messageId", "").startswith("bankid_"),
          f"collect before the BankID app: pending with a messageId ({pending.text[:120]})")
    # harness: "opening" launchURL: the sandbox's simulated BankID app takes the autostart token.
    approved = requests.post(f"{BASE}/sandbox/bankid/app", data={"autostarttoken": order["autoStartToken"], "user": SANDBOX_USER, "action": "approve"},
                             headers={"Accept": "application/json"}, timeout=10)
    require(approved.status_code == 200, f"harness: the sandbox's BankID app approves ({approved.status_code} {approved.text[:120]})")
    collected = None
    for _ in range(5):
        time.sleep(order["pollInterval"])
        collected = api.request("POST", "bankid/orders/collect", json_body={"sessionId": session_ref})
        if collected.status_code != 200 or collected.json().get("status") != "pending":
            break
    require(collected.status_code == 200 and collected.json().get("status") == "complete" and collected.json().get("code"),
            f"collect: complete with a code ({collected.text[:160]})")
    order_code = collected.json()["code"]
    order_session = Session(api, token_answer_ok(exchange(api, order_code, order_verifier), "the order's code exchange"))
    again = api.request("POST", "bankid/orders/collect", json_body={"sessionId": session_ref})
    check(again.status_code == 200 and again.json().get("status") == "complete" and again.json().get("code") == order_code,
          "collect after the end: the same answer")
    ended = api.request("POST", "bankid/orders/qr", json_body={"sessionId": session_ref, "format": "data"})
    check(ended.status_code == 410, f"a QR frame of an ended order: 410 ({described(ended)})")
    cancelled = api.request("POST", "bankid/orders/cancel", json_body={"sessionId": session_ref})
    check(cancelled.status_code == 200 and cancelled.json().get("status") == "complete", "cancel after the end: harmless, the order's state")
    unknown = api.request("POST", "bankid/orders/collect", json_body={"sessionId": b64(secrets.token_bytes(32))})
    check(unknown.status_code == 404 and message_of(unknown) == "bankid_order_not_found", f"an unknown sessionId: 404 bankid_order_not_found ({described(unknown)})")
    check(me(api, order_session.token()).status_code == 200, "the order's session opens /v1/me")

    # §9: logout of the order's session: the device first (while a token is at hand), then the refresh token.
    removed = api.request("DELETE", f"v1/devices/{path_segment(device_id)}", access_token=order_session.token())
    check(removed.status_code == 204 and removed.content == b"", f"DELETE /v1/devices/<id>: 204 ({described(removed)})")
    revoked = api.request("POST", "oauth/revoke", proof=True, form_fields=[("client_id", CLIENT_ID), ("token", order_session.refresh_token)])
    check(revoked.status_code == 200 and revoked.content == b"", f"POST /oauth/revoke: 200, empty ({described(revoked)})")
    # Afterwards nothing of it works: the device, the session it unlocked, the session's tokens.
    gone = challenge(api, device_id, "unlock")
    check(gone.status_code == 404 and error_of(gone) == "not_found" and message_of(gone) == "device_not_recognised",
          f"an unlock challenge for the revoked device: 404 device_not_recognised ({described(gone)})")
    after = me(api, unlocked.access_token)
    check(after.status_code == 401 and error_of(after) == "invalid_token" and message_of(after) == "session_expired",
          f"the session the device unlocked ended with it ({described(after)})")
    after = me(api, order_session.access_token)
    check(after.status_code == 401 and error_of(after) == "invalid_token" and message_of(after) == "session_expired",
          f"after logout the access token is refused ({described(after)})")
    after = order_session.refresh()
    check(after.status_code == 400 and error_of(after) == "invalid_grant" and message_of(after) == "session_expired" and order_session.ended,
          f"after logout the refresh token is refused: the session is over ({described(after)})")

    # §9: the first login's session too, and a token Portvakt never issued.
    revoked = api.request("POST", "oauth/revoke", proof=True, form_fields=[("client_id", CLIENT_ID), ("token", session.refresh_token)])
    after = me(api, session.access_token)
    check(revoked.status_code == 200 and after.status_code == 401 and message_of(after) == "session_expired", "the first session revoked")
    unknown = api.request("POST", "oauth/revoke", proof=True, form_fields=[("client_id", CLIENT_ID), ("token", b64(secrets.token_bytes(32)))])
    check(unknown.status_code == 200, "revoking an unknown token: 200")
    check(dpop_answers["without"] == 0, f"every answer to a request with a proof carried DPoP-Nonce ({dpop_answers})")
    proof_key.nonce = None  # §9: last, forget the nonce (and the key).

    # §3.2: the request_uri pushed first, used after its 60 seconds.
    time.sleep(max(0.0, 61 - (time.time() - started)))
    check(browser(authorize_url(late["request_uri"])).status_code == 400, "a request_uri older than 60 seconds: 400")

    if failures:
        print(f"dpop/par interop: {len(failures)} checks failed: {failures}", file=sys.stderr)
        sys.exit(1)
    print("dpop/par interop: no.portvakt.app as docs/client-protocol.md describes it: PAR + DPoP login, /v1/me, refresh, "
          "device key, offline queue with step-up, unlock, BankID order, logout; every refusal checked")


if __name__ == "__main__":
    main()

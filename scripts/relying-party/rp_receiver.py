"""A small web application that signs people in at Portvakt as three confidential clients
(client_secret_post), for scripts/relying-party-test.sh:

- second-rp, first party, with a back-channel logout receiver (OIDC Back-Channel Logout 1.0);
- third-party, which a person is asked to consent to;
- hlf-only, which admits only HLF's members.

It does what a relying party's server does, and lets the test choose how:

  GET  /login?client=C[&prompt=none][&pkce=none][&idp_hint=bankid][&redeem=without_verifier|with_verifier]
       starts a login (state, nonce, PKCE S256 unless pkce=none) and redirects to Portvakt.
       redeem=without_verifier leaves code_verifier out of the token request although a challenge
       was sent; with_verifier adds one although none was sent (both are RFC 9700 §2.1.1 downgrades).
  GET  /cb, /cb3, /cb4
       the redirect URIs: checks state and iss (RFC 9207), redeems the code and validates the ID
       token (signature against jwks_uri, iss, aud, exp, iat, nonce); answers a JSON page saying how
       it went. An ID token of second-rp's records its sid and refresh token.
  POST /backchannel
       logout_token (form field): verified, then recorded; 200, or 400 with the reason.
  GET  /received       the logout tokens verified and those refused, as JSON.
  POST /refresh?sid=S  uses the refresh token of the login with that sid; JSON status and error.
  GET  /health         200.

Every code and token it handles is appended to the config's secrets_file (one a line), so the test
can look for them in Portvakt's log.

Usage: rp_receiver.py CONFIG_JSON (issuer, rp, clients {id: {secret, redirect_uri, scope}}, secrets_file)
"""
import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jwcrypto import jwk, jws

TIMEOUT = 10
BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout"
CLOCK_SKEW = 60

config = json.load(open(sys.argv[1]))
ISSUER = config["issuer"]
CLIENTS = config["clients"]
BY_PATH = {urllib.parse.urlsplit(client["redirect_uri"]).path: client_id for client_id, client in CLIENTS.items()}

lock = threading.Lock()
provider_lock = threading.Lock()
pending = {}        # state → the login it started
sessions = {}       # sid → {"client", "sub", "refresh_token"}, from second-rp's ID tokens
received = {"verified": [], "rejected": []}
seen_jti = set()
_provider = {}


class Rejected(Exception):
    pass


def remember_secret(value):
    if value:
        with lock, open(config["secrets_file"], "a") as file:
            file.write(value + "\n")


def fetch_json(url, form=None):
    """GET, or POST a form; returns (status, parsed JSON or None)."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None


def provider(refresh_keys=False):
    """Portvakt's discovery document and signing keys, fetched once (the keys again on an unknown kid)."""
    with provider_lock:
        if "metadata" not in _provider:
            status, metadata = fetch_json(ISSUER + "/.well-known/openid-configuration")
            if status != 200 or not metadata or metadata.get("issuer") != ISSUER:
                raise Rejected(f"discovery answered {status} or named another issuer")
            _provider["metadata"] = metadata
        if refresh_keys or "keys" not in _provider:
            status, keys = fetch_json(_provider["metadata"]["jwks_uri"])
            if status != 200 or not keys:
                raise Rejected(f"jwks_uri answered {status}")
            _provider["keys"] = jwk.JWKSet.from_json(json.dumps(keys))
        return _provider["metadata"], _provider["keys"]


def verified_payload(raw):
    """The header and claims of a JWS signed by one of Portvakt's keys, with an algorithm its discovery offers."""
    token = jws.JWS()
    try:
        token.deserialize(raw)
    except Exception as error:
        raise Rejected(f"not a compact JWS ({type(error).__name__})")
    header = token.jose_header
    metadata, keys = provider()
    alg = header.get("alg")
    if alg not in metadata.get("id_token_signing_alg_values_supported", ["RS256"]):
        raise Rejected(f"alg {alg!r} is not one Portvakt signs with")
    key = keys.get_key(header.get("kid")) or provider(refresh_keys=True)[1].get_key(header.get("kid"))
    if key is None:
        raise Rejected(f"kid {header.get('kid')!r} is not in jwks_uri")
    try:
        token.verify(key, alg=alg)
    except Exception:
        raise Rejected("the signature does not verify with Portvakt's key")
    return header, json.loads(token.payload)


def check_common(claims, client_id, now):
    """iss, aud, iat and exp, as OIDC Core §3.1.3.7 checks them for an ID token."""
    if claims.get("iss") != ISSUER:
        raise Rejected(f"iss is {claims.get('iss')!r}, not {ISSUER}")
    audience = claims.get("aud")
    if client_id not in (audience if isinstance(audience, list) else [audience]):
        raise Rejected(f"aud is {audience!r}, not {client_id}")
    if not isinstance(claims.get("iat"), (int, float)) or claims["iat"] > now + CLOCK_SKEW:
        raise Rejected("iat is missing or in the future")
    if "exp" in claims and claims["exp"] < now - CLOCK_SKEW:
        raise Rejected("the token has expired")


def validate_id_token(raw, client_id, nonce):
    _, claims = verified_payload(raw)
    now = time.time()
    check_common(claims, client_id, now)
    if not isinstance(claims.get("exp"), (int, float)):
        raise Rejected("exp is missing")
    if claims.get("nonce") != nonce:
        raise Rejected("nonce is not the one the login sent")
    if not claims.get("sub"):
        raise Rejected("sub is missing")
    return claims


def validate_logout_token(raw):
    """OIDC Back-Channel Logout 1.0 §2.6, for second-rp; returns the claims."""
    header, claims = verified_payload(raw)
    if header.get("typ") != "logout+jwt":
        raise Rejected(f"typ is {header.get('typ')!r}, not logout+jwt (§2.4)")
    now = time.time()
    check_common(claims, "second-rp", now)
    if not claims.get("jti"):
        raise Rejected("jti is missing")
    events = claims.get("events")
    if not isinstance(events, dict) or not isinstance(events.get(BACKCHANNEL_EVENT), dict):
        raise Rejected(f"events has no {BACKCHANNEL_EVENT} object")
    if "nonce" in claims:
        raise Rejected("a logout token must not carry a nonce (it could pass for an ID token)")
    with lock:
        if claims["jti"] in seen_jti:
            raise Rejected("this jti was received before (a replay)")
        seen_jti.add(claims["jti"])
        known = claims.get("sid") in sessions
    if not known:
        raise Rejected(f"sid {claims.get('sid')!r} is not the sid of an ID token second-rp received")
    return claims


def s256(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


DEFAULT_SCOPE = {"third-party": "openid profile email organisations"}


def start_login(query):
    client_id = query.get("client", "")
    if client_id not in CLIENTS:
        return 400, {"error": f"unknown client {client_id!r}"}, None
    metadata, _ = provider()
    state, nonce, verifier = secrets.token_urlsafe(16), secrets.token_urlsafe(16), secrets.token_urlsafe(48)
    fields = {
        "response_type": "code", "client_id": client_id, "redirect_uri": CLIENTS[client_id]["redirect_uri"],
        "scope": query.get("scope", DEFAULT_SCOPE.get(client_id, "openid profile")), "state": state, "nonce": nonce,
    }
    with_pkce = query.get("pkce", "S256") != "none"
    if with_pkce:
        fields.update(code_challenge=s256(verifier), code_challenge_method="S256")
    for name in ("prompt", "idp_hint"):
        if name in query:
            fields[name] = query[name]
    redeem = query.get("redeem", "as_sent")
    sent_verifier = {"as_sent": verifier if with_pkce else None, "without_verifier": None, "with_verifier": verifier}[redeem]
    with lock:
        pending[state] = {"client": client_id, "nonce": nonce, "verifier": sent_verifier}
    return 302, None, metadata["authorization_endpoint"] + "?" + urllib.parse.urlencode(fields)


def finish_login(client_id, query):
    """The redirect URI: the JSON page the person's browser lands on."""
    with lock:
        login = pending.pop(query.get("state", ""), None)
    page = {"client": client_id}
    if login is None or login["client"] != client_id:
        return 400, dict(page, problem="unknown state: this application did not start that login")
    if query.get("iss") != ISSUER:
        return 400, dict(page, problem=f"iss in the authorization response is {query.get('iss')!r}, not {ISSUER} (RFC 9207)")
    if "error" in query:
        return 200, dict(page, error=query["error"], error_description=query.get("error_description"))
    code = query.get("code")
    if not code:
        return 400, dict(page, problem="neither code nor error")
    remember_secret(code)
    metadata, _ = provider()
    form = {
        "grant_type": "authorization_code", "code": code, "redirect_uri": CLIENTS[client_id]["redirect_uri"],
        "client_id": client_id, "client_secret": CLIENTS[client_id]["secret"],
    }
    if login["verifier"]:
        form["code_verifier"] = login["verifier"]
    status, tokens = fetch_json(metadata["token_endpoint"], form)
    page["token_status"] = status
    if status != 200 or not tokens:
        page["token_error"] = (tokens or {}).get("error")
        page["token_error_description"] = (tokens or {}).get("error_description")
        return 200, page
    for name in ("access_token", "refresh_token", "id_token"):
        remember_secret(tokens.get(name))
    try:
        claims = validate_id_token(tokens.get("id_token") or "", client_id, login["nonce"])
    except Rejected as problem:
        return 200, dict(page, problem=f"the ID token was refused: {problem}")
    page.update(id_token=claims, refresh_token=bool(tokens.get("refresh_token")), scope=tokens.get("scope"))
    if client_id == "second-rp" and claims.get("sid"):
        with lock:
            sessions[claims["sid"]] = {"client": client_id, "sub": claims["sub"], "refresh_token": tokens.get("refresh_token")}
    return 200, page


def refresh(sid):
    with lock:
        session = sessions.get(sid)
    if session is None:
        return 404, {"problem": f"no login with sid {sid!r}"}
    if not session["refresh_token"]:
        return 200, {"status": None}
    metadata, _ = provider()
    client_id = session["client"]
    status, answer = fetch_json(metadata["token_endpoint"], {
        "grant_type": "refresh_token", "refresh_token": session["refresh_token"],
        "client_id": client_id, "client_secret": CLIENTS[client_id]["secret"],
    })
    if status == 200 and answer:
        for name in ("access_token", "refresh_token", "id_token"):
            remember_secret(answer.get(name))
    return 200, {"status": status, "error": (answer or {}).get("error")}


def backchannel(form):
    raw = form.get("logout_token", "")
    remember_secret(raw)
    try:
        claims = validate_logout_token(raw)
    except Rejected as problem:
        with lock:
            received["rejected"].append({"reason": str(problem)})
        print(f"backchannel: refused a logout token: {problem}", file=sys.stderr, flush=True)
        return 400, {"error": "invalid_request", "error_description": str(problem)}
    with lock:
        received["verified"].append(claims)
    print(f"backchannel: verified a logout token for sid {claims.get('sid')}", file=sys.stderr, flush=True)
    return 200, None


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        try:
            if url.path == "/health":
                self.answer(200, {"ok": True})
            elif url.path == "/login":
                status, page, location = start_login(query)
                self.answer(status, page, location)
            elif url.path in BY_PATH:
                self.answer(*finish_login(BY_PATH[url.path], query))
            elif url.path == "/received":
                with lock:
                    snapshot = json.loads(json.dumps(received))
                self.answer(200, snapshot)
            else:
                self.answer(404, {"error": "not found"})
        except Rejected as problem:
            self.answer(502, {"problem": str(problem)})

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        try:
            if url.path == "/backchannel":
                self.answer(*backchannel(form))
            elif url.path == "/refresh":
                self.answer(*refresh(dict(urllib.parse.parse_qsl(url.query)).get("sid", "")))
            else:
                self.answer(404, {"error": "not found"})
        except Rejected as problem:
            self.answer(502, {"problem": str(problem)})

    def answer(self, status, page, location=None):
        body = json.dumps(page).encode() if page is not None else b""
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_request(self, code="-", size="-"):
        # The path without its query: codes and states stay out of this log too.
        print(f"{self.command} {urllib.parse.urlsplit(self.path).path} {code}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    port = urllib.parse.urlsplit(config["rp"]).port
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()

"""An independent client of Portvakt's FAPI 2.0 shape (no code of ours): `requests` for HTTP,
`jwcrypto` for the DPoP key and proofs (RFC 9449), Authlib's JOSE for the ID token.

As the public client `portvakt-cli` it pushes the authorization request (PAR, RFC 9126), follows
the browser's trip through the sandbox's BankID with only `request_uri`, redeems the code with a
proof, calls /v1/me and /oauth/userinfo with `Authorization: DPoP` and proofs, and refreshes.
Then the server must refuse: a replayed proof, a wrong htm and htu, a stale and a future iat,
a proof by another key, a missing and a wrong ath, the bound token as Bearer, the refresh token
with another key (the session still works for the right key afterwards), a request_uri used twice
and one older than 60 seconds, and an authorization request without PAR.

Usage: dpop_par_client.py BASE_URL
"""
import base64
import hashlib
import json
import secrets
import sys
import time
import warnings
from urllib.parse import parse_qs, urlencode, urlparse

import requests
from jwcrypto import jwk, jwt as jwcrypto_jwt

warnings.filterwarnings("ignore", message=".*authlib.jose module is deprecated.*")
from authlib.jose import JsonWebKey, jwt as authlib_jwt

BASE = sys.argv[1].rstrip("/")
CLIENT = "portvakt-cli"
REDIRECT = "http://127.0.0.1:9/callback"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


class DPoPKey:
    """A P-256 key and the server's latest nonce."""

    def __init__(self):
        self.key = jwk.JWK.generate(kty="EC", crv="P-256")
        self.nonce = None

    @property
    def thumbprint(self):
        return self.key.thumbprint()

    def proof(self, method, url, access_token=None, iat=None, nonce=None):
        claims = {"jti": secrets.token_urlsafe(16), "htm": method, "htu": url, "iat": int(iat if iat is not None else time.time())}
        if access_token is not None:
            claims["ath"] = b64(hashlib.sha256(access_token.encode()).digest())
        if (nonce or self.nonce) is not None:
            claims["nonce"] = nonce or self.nonce
        token = jwcrypto_jwt.JWT(header={"typ": "dpop+jwt", "alg": "ES256", "jwk": self.key.export_public(as_dict=True)}, claims=claims)
        token.make_signed_token(self.key)
        return token.serialize()

    def send(self, method, url, access_token=None, **kwargs):
        """One request with a fresh proof, once more with the nonce the server asked for."""
        for _ in (1, 2):
            headers = {"DPoP": self.proof(method, url, access_token)}
            if access_token:
                headers["Authorization"] = f"DPoP {access_token}"
            response = requests.request(method, url, headers=headers, allow_redirects=False, timeout=10, **kwargs)
            self.nonce = response.headers.get("DPoP-Nonce", self.nonce)
            if not asks_for_nonce(response):
                return response
        return response


def asks_for_nonce(response):
    if response.status_code == 401:
        return 'error="use_dpop_nonce"' in response.headers.get("WWW-Authenticate", "")
    return response.status_code == 400 and error_of(response) == "use_dpop_nonce"


def error_of(response):
    try:
        return response.json().get("error")
    except ValueError:
        return None


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def authorization_parameters():
    verifier = secrets.token_urlsafe(48)
    parameters = {
        "client_id": CLIENT, "redirect_uri": REDIRECT, "response_type": "code", "scope": "openid",
        "code_challenge": b64(hashlib.sha256(verifier.encode()).digest()), "code_challenge_method": "S256",
        "state": secrets.token_urlsafe(12), "nonce": secrets.token_urlsafe(12), "idp_hint": "bankid",
    }
    return parameters, verifier


def push(metadata, key):
    parameters, verifier = authorization_parameters()
    answer = key.send("POST", metadata["pushed_authorization_request_endpoint"], data=parameters)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["request_uri"].startswith("urn:ietf:params:oauth:request_uri:") and body["expires_in"] == 60, body
    return body["request_uri"], parameters, verifier


def authorize(metadata, request_uri):
    return requests.get(metadata["authorization_endpoint"] + "?" + urlencode({"client_id": CLIENT, "request_uri": request_uri}),
                        allow_redirects=False, timeout=10)


def main():
    metadata = requests.get(f"{BASE}/.well-known/openid-configuration", timeout=10).json()
    check(metadata.get("dpop_signing_alg_values_supported") == ["ES256"], "discovery: dpop_signing_alg_values_supported ES256")
    check(metadata.get("pushed_authorization_request_endpoint") == f"{metadata['issuer']}/oauth/par", "discovery: the PAR endpoint")
    check(metadata.get("authorization_response_iss_parameter_supported") is True, "discovery: iss in the authorization response")
    check("require_pushed_authorization_requests" in metadata, "discovery: require_pushed_authorization_requests")
    key = DPoPKey()
    started = time.time()
    late_request_uri, _, _ = push(metadata, key)

    # Without PAR the app's and the CLI's requests are refused (back to the redirect URI with the error).
    parameters, _ = authorization_parameters()
    front = requests.get(metadata["authorization_endpoint"] + "?" + urlencode(parameters), allow_redirects=False, timeout=10)
    refusal = parse_qs(urlparse(front.headers.get("Location", "")).query)
    check(front.status_code == 303 and refusal.get("error") == ["invalid_request"], "authorize without PAR is refused (invalid_request)")

    # The login: PAR with a proof, the browser's trip with request_uri only, the code with a proof.
    request_uri, parameters, verifier = push(metadata, key)
    hop = authorize(metadata, request_uri)
    assert hop.status_code == 303, f"authorize with request_uri answered {hop.status_code}: {hop.text[:200]}"
    browser = hop.cookies  # the login's binding to this browser, which the callback asks for
    hop = requests.get(hop.headers["Location"] + "&sandbox_user=ingrid&sandbox_action=approve", allow_redirects=False, timeout=10)
    hop = requests.get(hop.headers["Location"], cookies=browser, allow_redirects=False, timeout=10)
    query = parse_qs(urlparse(hop.headers["Location"]).query)
    assert query["state"] == [parameters["state"]] and query["iss"] == [metadata["issuer"]], hop.headers["Location"]
    again = authorize(metadata, request_uri)
    check(again.status_code == 400, "a request_uri used twice is refused")

    token_url = metadata["token_endpoint"]
    answer = key.send("POST", token_url, data={"grant_type": "authorization_code", "client_id": CLIENT, "code": query["code"][0],
                                               "redirect_uri": REDIRECT, "code_verifier": verifier})
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    check(tokens["token_type"] == "DPoP", "the token response says token_type DPoP")
    jwks = JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=10).json())
    id_claims = authlib_jwt.decode(tokens["id_token"], jwks, claims_options={
        "iss": {"essential": True, "value": metadata["issuer"]}, "aud": {"essential": True, "value": CLIENT},
        "nonce": {"essential": True, "value": parameters["nonce"]},
    })
    id_claims.validate(leeway=5)
    access_claims = authlib_jwt.decode(tokens["access_token"], jwks)
    check(access_claims.get("cnf", {}).get("jkt") == key.thumbprint, "the access token carries cnf.jkt of our key (RFC 7638)")

    access = tokens["access_token"]
    me_url, userinfo_url = f"{BASE}/v1/me", metadata["userinfo_endpoint"]
    check(key.send("GET", me_url, access).status_code == 200, "GET /v1/me with DPoP and a proof")
    check(key.send("GET", userinfo_url, access).status_code == 200, "GET /oauth/userinfo with DPoP and a proof")

    def refused(headers, what, error="invalid_dpop_proof"):
        response = requests.get(me_url, headers=headers, timeout=10)
        challenge = response.headers.get("WWW-Authenticate", "")
        check(response.status_code == 401 and challenge.startswith(f'DPoP error="{error}"') and 'algs="ES256"' in challenge,
              f"refused: {what} ({response.status_code} {challenge})")

    proof = key.proof("GET", me_url, access)
    first = requests.get(me_url, headers={"Authorization": f"DPoP {access}", "DPoP": proof}, timeout=10)
    check(first.status_code == 200, "a fresh proof is accepted")
    refused({"Authorization": f"DPoP {access}", "DPoP": proof}, "the same proof again (replay)")
    refused({"Authorization": f"DPoP {access}", "DPoP": key.proof("POST", me_url, access)}, "a proof with the wrong htm")
    refused({"Authorization": f"DPoP {access}", "DPoP": key.proof("GET", f"{BASE}/v1/activities", access)}, "a proof with the wrong htu")
    refused({"Authorization": f"DPoP {access}", "DPoP": key.proof("GET", me_url, access, iat=time.time() - 300)}, "a stale iat")
    refused({"Authorization": f"DPoP {access}", "DPoP": key.proof("GET", me_url, access, iat=time.time() + 300)}, "a future iat")
    thief = DPoPKey()
    thief.nonce = key.nonce
    refused({"Authorization": f"DPoP {access}", "DPoP": thief.proof("GET", me_url, access)}, "a proof by another key")
    refused({"Authorization": f"DPoP {access}", "DPoP": key.proof("GET", me_url)}, "a proof without ath")
    refused({"Authorization": f"DPoP {access}", "DPoP": key.proof("GET", me_url, access + "x")}, "a proof with a wrong ath")
    refused({"Authorization": f"Bearer {access}"}, "the bound token as Bearer", error="invalid_token")

    refresh_form = {"grant_type": "refresh_token", "client_id": CLIENT, "refresh_token": tokens["refresh_token"]}
    stolen = thief.send("POST", token_url, data=refresh_form)
    check(stolen.status_code == 400 and error_of(stolen) in ("invalid_grant", "invalid_dpop_proof"), f"the refresh token with another key ({stolen.status_code} {error_of(stolen)})")
    bare = requests.post(token_url, data=refresh_form, timeout=10)
    check(bare.status_code == 400 and error_of(bare) == "invalid_dpop_proof", "the refresh token without a proof")
    refreshed = key.send("POST", token_url, data=refresh_form)
    check(refreshed.status_code == 200 and refreshed.json()["refresh_token"] != tokens["refresh_token"],
          "afterwards the session still refreshes with the right key (rotated)")
    check(key.send("GET", me_url, refreshed.json()["access_token"]).status_code == 200, "the refreshed access token works with proofs")

    # The request_uri pushed first, used after its 60 seconds.
    time.sleep(max(0.0, 61 - (time.time() - started)))
    check(authorize(metadata, late_request_uri).status_code == 400, "a request_uri older than 60 seconds is refused")

    if failures:
        print(f"dpop/par interop: {len(failures)} checks failed: {failures}", file=sys.stderr)
        sys.exit(1)
    print("dpop/par interop: PAR + DPoP login as portvakt-cli (jwcrypto proofs), /v1/me and userinfo with proofs, refresh bound to the key, every refusal checked")


if __name__ == "__main__":
    main()

"""Two independent OIDC clients (no code of ours), each with its library's defaults, sign a member
in at Portvakt as confidential web applications (issue 46 item 2):

- requests-oauth2client 1.8: discovery, code + PKCE, client_secret_post (its default), the ID
  token validated by the library (RS256, OIDC Core §3.1.3.7), introspection, refresh, revocation.
- Authlib: code + PKCE, client_secret_basic (its default), the ID token checked with Authlib's
  JOSE against the JWKS, introspection, refresh, revocation.

Each client then sees its session gone: the revoked refresh token no longer refreshes and its
access token introspects inactive.

Usage: confidential_clients.py BASE_URL RQ_SECRET AUTHLIB_SECRET
"""
import sys
import warnings
from urllib.parse import urlencode

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/lib")
from sandbox_login import browser, call  # noqa: E402

warnings.filterwarnings("ignore", message=".*authlib.jose module is deprecated.*")
import requests  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from authlib.jose import JsonWebKey, jwt  # noqa: E402
from authlib.common.security import generate_token  # noqa: E402
from requests_oauth2client import OAuth2Client  # noqa: E402

BASE, RQ_SECRET, AUTHLIB_SECRET = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
CALLBACK = "https://portal.interop.example/callback"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def browser_trip(authorize_url, user="kari"):
    """The member's browser: Portvakt → the sandbox's Vipps (Kari approves) → Portvakt → the client."""
    one = browser()
    status, headers, body = call(authorize_url, through=one)
    assert status == 303, (status, body[:300])
    status, headers, _ = call(headers["Location"] + f"&sandbox_user={user}&sandbox_action=approve", through=one)
    status, headers, body = call(headers["Location"], through=one)
    assert status == 303 and headers["Location"].startswith(CALLBACK), (status, body[:300])
    return headers["Location"]


def with_requests_oauth2client():
    client = OAuth2Client.from_discovery_endpoint(issuer=BASE, client_id="web-rq", client_secret=RQ_SECRET, testing=True, redirect_uri=CALLBACK)
    check(client.id_token_signed_response_alg == "RS256", "requests-oauth2client expects RS256 ID tokens by default")
    request = client.authorization_request(scope="openid", idp_hint="vipps")
    response = request.validate_callback(browser_trip(str(request.uri)))
    token = client.authorization_code(response)  # validates the ID token: signature, iss, aud, nonce, exp
    check(token.id_token is not None and token.id_token.alg == "RS256", "requests-oauth2client: code + PKCE + client_secret_post, RS256 ID token validated")
    active = client.introspect_token(token)
    check(active.get("active") is True and active.get("client_id") == "web-rq", "requests-oauth2client: the access token introspects active")
    refreshed = client.refresh_token(token)
    check(refreshed.refresh_token and refreshed.refresh_token != token.refresh_token, "requests-oauth2client: refresh rotates the refresh token")
    client.revoke_refresh_token(refreshed)
    check(client.introspect_token(refreshed).get("active") is False, "requests-oauth2client: after revocation the access token is inactive")
    try:
        client.refresh_token(refreshed)
        check(False, "requests-oauth2client: a revoked refresh token is refused")
    except Exception as error:  # the library raises its InvalidGrant
        check("invalid_grant" in repr(error) or "InvalidGrant" in type(error).__name__, f"requests-oauth2client: a revoked refresh token is refused ({type(error).__name__})")


def with_authlib():
    discovery = requests.get(f"{BASE}/.well-known/openid-configuration", timeout=10).json()
    keys = JsonWebKey.import_key_set(requests.get(discovery["jwks_uri"], timeout=10).json())
    session = OAuth2Session("web-authlib", AUTHLIB_SECRET, scope="openid", redirect_uri=CALLBACK, code_challenge_method="S256")
    verifier, nonce = generate_token(48), generate_token(20)
    uri, state = session.create_authorization_url(discovery["authorization_endpoint"], code_verifier=verifier, nonce=nonce, idp_hint="vipps")
    token = session.fetch_token(discovery["token_endpoint"], authorization_response=browser_trip(uri), code_verifier=verifier)
    claims = jwt.decode(token["id_token"], keys, claims_options={
        "iss": {"essential": True, "value": discovery["issuer"]}, "aud": {"essential": True, "value": "web-authlib"},
        "nonce": {"essential": True, "value": nonce},
    })
    claims.validate()
    check(claims.header["alg"] == "RS256" and claims["sub"], "Authlib: code + PKCE + client_secret_basic, RS256 ID token verified with the JWKS")
    introspected = session.introspect_token(discovery["introspection_endpoint"], token=token["access_token"]).json()
    check(introspected.get("active") is True and introspected.get("sub") == claims["sub"], "Authlib: the access token introspects active, for the same person")
    refreshed = session.refresh_token(discovery["token_endpoint"], refresh_token=token["refresh_token"])
    check(refreshed.get("access_token") and refreshed["refresh_token"] != token["refresh_token"], "Authlib: refresh rotates the refresh token")
    revoked = session.revoke_token(discovery["revocation_endpoint"], token=refreshed["refresh_token"], token_type_hint="refresh_token")
    check(revoked.status_code == 200, "Authlib: revocation answers 200")
    after = session.introspect_token(discovery["introspection_endpoint"], token=refreshed["access_token"]).json()
    check(after == {"active": False}, "Authlib: after revocation the access token is inactive and nothing else is said")
    wrong = OAuth2Session("web-authlib", "not-the-secret-0123456789-0123456789")
    refused = wrong.introspect_token(discovery["introspection_endpoint"], token=refreshed["access_token"])
    check(refused.status_code == 401 and refused.json().get("error") == "invalid_client", "Authlib: a wrong secret is 401 invalid_client")


with_requests_oauth2client()
with_authlib()
if failures:
    print(f"{len(failures)} failed", file=sys.stderr)
    sys.exit(1)

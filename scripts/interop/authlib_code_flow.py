"""An independent OIDC relying party (Authlib) against the sandbox's simulated Vipps and BankID,
the first half of the interop suite.

For each provider: discovery, authorization code flow with PKCE S256, client_secret_basic, and
ID token verification against the provider's JWKS with Authlib's own JOSE code (iss, aud, exp,
nonce). Then two faults must be caught: a forged signature, and a wrong nonce.

Portvakt's own OIDC provider, which requires PAR and DPoP of the app and the CLI, is checked by
dpop_par_client.py (Authlib has no DPoP client).

Usage: authlib_code_flow.py BASE_URL ADMIN_TOKEN     (BASE_URL like http://127.0.0.1:8080)
"""
import secrets
import warnings
import sys
from urllib.parse import parse_qs, urlparse

import requests

warnings.filterwarnings("ignore", message=".*authlib.jose module is deprecated.*")
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.jose.errors import JoseError
from authlib.oauth2.rfc7636 import create_s256_code_challenge

BASE, ADMIN = sys.argv[1].rstrip("/"), sys.argv[2]
REDIRECT = "http://127.0.0.1:9/authlib/callback"
PROVIDERS = {
    "vipps": ("/sandbox/vipps/access-management-1.0/access/.well-known/openid-configuration",
              "openid name phoneNumber birthDate email nin"),
    "bankid": ("/sandbox/bankid/auth/realms/current/.well-known/openid-configuration",
               "openid profile nnin_altsub"),
}
admin = {"Authorization": f"Bearer {ADMIN}"}


def set_faults(provider, faults):
    r = requests.put(f"{BASE}/sandbox/admin/faults/{provider}", json={"faults": faults}, headers=admin, timeout=10)
    r.raise_for_status()


def login(provider, client_id, secret):
    """Runs the code flow; returns (verified claims, token response, metadata)."""
    discovery_path, scope = PROVIDERS[provider]
    metadata = requests.get(BASE + discovery_path, timeout=10).json()
    session = OAuth2Session(client_id, secret, scope=scope, redirect_uri=REDIRECT,
                            code_challenge_method="S256", token_endpoint_auth_method="client_secret_basic")
    verifier = generate_token(64)
    nonce = secrets.token_urlsafe(16)
    url, state = session.create_authorization_url(metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce,
                                                  sandbox_user="kari", sandbox_action="approve")
    answer = requests.get(url, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, f"{provider}: authorize answered {answer.status_code}"
    location = answer.headers["Location"]
    assert location.startswith(REDIRECT + "?"), location
    assert parse_qs(urlparse(location).query)["state"] == [state]
    token = session.fetch_token(metadata["token_endpoint"], authorization_response=location, code_verifier=verifier)
    jwks = JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=10).json())
    claims = jwt.decode(token["id_token"], jwks, claims_options={
        "iss": {"essential": True, "value": metadata["issuer"]},
        "aud": {"essential": True, "value": client_id},
        "exp": {"essential": True},
        "nonce": {"essential": True, "value": nonce},
    })
    claims.validate(leeway=5)
    assert create_s256_code_challenge(verifier) in url
    return claims, token, metadata


def main():
    for provider in PROVIDERS:
        client_id, secret = f"authlib-{provider}", secrets.token_urlsafe(24)
        registration = {"provider": provider, "client_id": client_id, "client_secret": secret, "redirect_uris": [REDIRECT]}
        requests.post(f"{BASE}/sandbox/admin/clients", json=registration, headers=admin, timeout=10).raise_for_status()
        set_faults(provider, [])

        claims, token, metadata = login(provider, client_id, secret)
        if provider == "vipps":
            info = requests.get(metadata["userinfo_endpoint"], headers={"Authorization": f"Bearer {token['access_token']}"}, timeout=10).json()
            assert info["sub"] == claims["sub"] and len(info["nin"]) == 11 and "nin" not in claims, "vipps userinfo"
        else:
            assert claims["acr"] == "urn:bankid:bid;LOA=4" and len(claims["nnin_altsub"]) == 11, "bankid claims"
        print(f"authlib: {provider} code flow with PKCE completed, ID token verified (sub {claims['sub']})")

        for fault in ["bad_signature", "wrong_nonce"]:
            set_faults(provider, [fault])
            try:
                login(provider, client_id, secret)
            except JoseError as error:
                print(f"authlib: {provider} with fault {fault} refused ({type(error).__name__})")
            else:
                raise AssertionError(f"{provider}: authlib accepted an ID token with fault {fault}")
            finally:
                set_faults(provider, [])


if __name__ == "__main__":
    main()

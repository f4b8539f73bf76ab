"""Plain-HTTP helpers for the scripts: a login through the sandbox's pages, as a browser that
does not follow redirects would make it (no browser needed)."""
import base64, hashlib, json, re, secrets
import http.cookiejar, urllib.parse, urllib.request, urllib.error

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

def browser():
    """An opener that keeps its own cookies, as one browser would (the claim is bound to it)."""
    return urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

opener = urllib.request.build_opener(NoRedirect)

def call(url, form=None, through=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data)
    try:
        with (through or opener).open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()

def login(base, user, provider="vipps"):
    """Logs `user` in through the sandbox; returns the token response."""
    verifier, code = _code(base, user, provider)
    status, _, body = call(f"{base}/oauth/token", {
        "grant_type": "authorization_code", "client_id": "no.portvakt.app", "code": code,
        "redirect_uri": REDIRECT, "code_verifier": verifier,
    })
    assert status == 200, body
    return json.loads(body)

def refused_login(base, user, provider="vipps"):
    """Logs `user` in through the sandbox expecting Portvakt to refuse; returns the app's error fields."""
    fields = _callback(base, user, provider)[1]
    assert "error" in fields and "code" not in fields, fields
    return {name: values[0] for name, values in fields.items()}

REDIRECT = "no.portvakt.app:/oauth/callback"

def _code(base, user, provider):
    verifier, fields = _callback(base, user, provider)
    return verifier, fields["code"][0]

def _callback(base, user, provider):
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    redirect = REDIRECT
    query = urllib.parse.urlencode({
        "client_id": "no.portvakt.app", "redirect_uri": redirect, "response_type": "code", "scope": "openid",
        "code_challenge": challenge, "code_challenge_method": "S256", "state": secrets.token_urlsafe(8),
        "nonce": secrets.token_urlsafe(8), "idp_hint": provider,
    })
    one_browser = browser()
    status, headers, _ = call(f"{base}/oauth/authorize?{query}", through=one_browser)
    provider_page = headers["Location"]
    status, headers, _ = call(provider_page + f"&sandbox_user={user}&sandbox_action=approve", through=one_browser)
    status, headers, body = call(headers["Location"], through=one_browser)
    claim = re.search(r'name="claim" value="([^"]+)"', body) if status == 200 else None
    if claim:  # S15: no member record; the person says they are not a member
        status, headers, _ = call(f"{base}/oauth/claim/cancel", {"claim": claim.group(1)}, through=one_browser)
    return verifier, urllib.parse.parse_qs(urllib.parse.urlsplit(headers["Location"]).query)


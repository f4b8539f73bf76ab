"""The browser and the scenario of scripts/relying-party-test.sh: people sign in at web applications
that are not Portvakt's own, through Portvakt and the sandbox's BankID and Vipps.

The browser is plain HTTP that follows redirects itself (as scripts/lib/sandbox_login.py does) with
one cookie jar per browser, shared by Apache, Portvakt (and its sandbox) and the Python relying
party (scripts/relying-party/rp_receiver.py), which all listen on 127.0.0.1. It asks for English.

0. Kari's first sign-in is with Vipps (her record carries no personnummer for BankID to find).
a. The course site (Apache, mod_auth_openidc at its defaults: no PKCE before 2.4.15) signs Kari in with BankID.
b. Single sign-on: second-rp with prompt=none gets a code at once; a fresh browser gets login_required.
c. Consent: a third party asks the first time, not the second; a deny is access_denied.
d. Logout everywhere: signing out at the course site reaches second-rp over the back channel.
e. hlf-only refuses Kari (NHF) with a page and admits Jonas (HLF).
f. PKCE downgrades (RFC 9700 §2.1.1) are refused at the token endpoint.

Each check prints one line; the first that fails says what the person would have seen and exits 1.
Codes and tokens the browser saw (in redirects, the course site's session, its logout request) are
appended to the config's browser_secrets_file.

Usage: flows.py CONFIG_JSON (issuer, apache, apache_pkce: none, S256 or unknown, rp, browser_secrets_file)
"""
import base64
import html
import html.parser
import http.cookiejar
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = 10
config = json.load(open(sys.argv[1]))
ISSUER, APACHE, RP = config["issuer"], config["apache"], config["rp"]
LOGGED_OUT = APACHE + "/loggedout.html"


def fail(what, page=None, detail=None):
    print(f"FAIL {what}", file=sys.stderr)
    if page is not None:
        print(f"     the person saw: {page.seen()}", file=sys.stderr)
    if detail:
        print(f"     {detail}", file=sys.stderr)
    sys.exit(1)


def check(condition, what, page=None, detail=None):
    if not condition:
        fail(what, page, detail)
    print(f"ok   {what}", flush=True)


def remember_secret(value):
    if value:
        with open(config["browser_secrets_file"], "a") as file:
            file.write(value + "\n")


def query_of(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url or "").query))


class Page:
    """One answer the browser got."""

    def __init__(self, url, status, headers, body):
        self.url, self.status, self.headers, self.body = url, status, headers, body
        location = headers.get("Location")
        self.location = urllib.parse.urljoin(url, location) if location and 300 <= status < 400 else None
        if self.location and "code" in query_of(self.location):
            remember_secret(query_of(self.location)["code"])

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return {}

    def seen(self):
        if self.location:
            return f"{self.status} redirect from {self.url} to {self.location}"
        title = re.search(r"<title>(.*?)</title>", self.body, re.S)
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", self.body, flags=re.S))).strip()
        if title:
            text = text.replace(html.unescape(title.group(1).strip()), "", 1).strip()
        heading = f" “{html.unescape(title.group(1).strip())}”" if title else ""
        return f"{self.status} at {self.url}{heading}: {text[:400] or '(empty)'}"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    def __init__(self, who):
        self.who = who
        self.opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.pages = []

    def get(self, url):
        return self._send(urllib.request.Request(url, headers=self._headers()))

    def post(self, url, form, origin):
        headers = dict(self._headers(), Origin=origin)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return self._send(urllib.request.Request(url, data=urllib.parse.urlencode(form).encode(), headers=headers))

    @staticmethod
    def _headers():
        return {"Accept": "text/html,application/json;q=0.9,*/*;q=0.8", "Accept-Language": "en", "User-Agent": "portvakt-relying-party-test"}

    def _send(self, request):
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                page = Page(request.full_url, response.status, response.headers, response.read().decode(errors="replace"))
        except urllib.error.HTTPError as error:
            page = Page(request.full_url, error.code, error.headers, error.read().decode(errors="replace"))
        except OSError as error:
            fail(f"{self.who}: {request.full_url} did not answer ({error})")
        self.pages.append(page)
        return page


class Forms(html.parser.HTMLParser):
    """The page's forms: action, method, hidden fields and submit buttons."""

    def __init__(self, body):
        super().__init__()
        self.forms = []
        self.feed(body)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action", ""), "method": (attrs.get("method") or "get").lower(), "fields": {}, "buttons": []})
        elif self.forms and tag == "input" and attrs.get("name"):
            kind = (attrs.get("type") or "text").lower()
            if kind == "submit":
                self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value", "")))
            elif kind == "hidden":
                self.forms[-1]["fields"][attrs["name"]] = attrs.get("value", "")
        elif self.forms and tag == "button" and attrs.get("name") and (attrs.get("type") or "submit").lower() == "submit":
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value", "")))


def consent_form(page):
    if page.status != 200 or page.location:
        return None
    for form in Forms(page.body).forms:
        if form["method"] == "post" and urllib.parse.urlsplit(urllib.parse.urljoin(page.url, form["action"])).path == "/oauth/consent":
            return form
    return None


def answer_consent(browser, page, decision):
    """Presses the consent page's button for `decision` (allow or deny)."""
    form = consent_form(page)
    button = next(((name, value) for name, value in form["buttons"] if value == decision), ("decision", decision))
    fields = dict(form["fields"])
    fields[button[0]] = button[1]
    origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(page.url))
    return browser.post(urllib.parse.urljoin(page.url, form["action"]), fields, origin)


def is_method_page(page):
    url = urllib.parse.urlsplit(page.url)
    return page.status == 200 and url.path == "/oauth/authorize" and "idp_hint" not in query_of(page.url) and "idp_hint=bankid" in html.unescape(page.body)


def at_sandbox_provider(url):
    parts = urllib.parse.urlsplit(url)
    return url.startswith(ISSUER + "/sandbox/") and "sandbox_action" not in query_of(url) and parts.path.endswith(("/auth", "/oauth2/auth"))


def sign_in(browser, url, user, method="bankid", until=None):
    """The person goes from `url` as a browser would: on Portvakt's method page they pick `method`
    (the same authorize URL with idp_hint, as its link is), at the sandbox's provider they approve as
    `user`. Stops at the first redirect to `until` (not followed) or at any other page."""
    page = browser.get(url)
    for _ in range(20):
        if page.location:
            if until and page.location.startswith(until):
                return page
            target = page.location
            if at_sandbox_provider(target):
                target += f"&sandbox_user={user}&sandbox_action=approve"
            page = browser.get(target)
        elif is_method_page(page):
            page = browser.get(page.url + "&idp_hint=" + method)
        else:
            return page
    fail(f"{browser.who}: sent from address to address more than 20 times", page)


def rp_login(browser, client, **fields):
    """The relying party's own start: its redirect to Portvakt's authorize URL."""
    page = browser.get(f"{RP}/login?" + urllib.parse.urlencode(dict(fields, client=client)))
    if page.status != 302 or not page.location or not page.location.startswith(ISSUER + "/oauth/authorize?"):
        fail(f"{client} could not start a login", page)
    return page.location


def redirect_with(page, prefix, field):
    """Whether `page` redirects to `prefix` with `field` in its query."""
    return page.location is not None and page.location.startswith(prefix) and field in query_of(page.location)


def contains_key(value, key):
    if isinstance(value, dict):
        return key in value or any(contains_key(inner, key) for inner in value.values())
    if isinstance(value, list):
        return any(contains_key(inner, key) for inner in value)
    return False


def jwt_claims(token):
    """A JWT's claims unverified (the access token is Portvakt's to read; this only looks for claims)."""
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, AttributeError):
        return {}


def rp_call(path, form=None):
    request = urllib.request.Request(RP + path, data=urllib.parse.urlencode(form or {}).encode() if form is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return json.loads(response.read())
    except (OSError, ValueError) as error:
        fail(f"the relying party did not answer {path} ({error})")


def first_vipps_sign_in(user):
    """Kari's record carries no personnummer, so BankID alone finds no member: her first sign-in is
    with Vipps, whose phone number finds her record and gives her account its number. The code is
    left unredeemed; this browser is thrown away."""
    browser = Browser(f"{user}'s phone")
    end = sign_in(browser, rp_login(browser, "second-rp", idp_hint="vipps"), user, until=RP + "/cb")
    check(redirect_with(end, RP + "/cb", "code"), f"{user}'s first sign-in, with Vipps, makes her account", end)


def course_site(browser):
    """a."""
    first = browser.get(APACHE + "/protected/")
    check(first.status == 302 and first.location and first.location.startswith(ISSUER + "/oauth/authorize?"),
          "a. the course site (Apache) sends an anonymous visitor to Portvakt", first)
    asked = query_of(first.location)
    # Its default changed in 2.4.15: no PKCE before (Debian 12's 2.4.12), S256 after.
    if config["apache_pkce"] == "none":
        check("code_challenge" not in asked and "code_challenge_method" not in asked,
              "a. mod_auth_openidc at its defaults (before 2.4.15) sends no PKCE challenge", first)
    elif config["apache_pkce"] == "S256":
        check(asked.get("code_challenge_method") == "S256" and asked.get("code_challenge"),
              "a. mod_auth_openidc at its defaults (2.4.15 and later) sends a PKCE S256 challenge", first)
    else:
        print(f"note mod_auth_openidc's version is unknown; it sent {'a' if 'code_challenge' in asked else 'no'} PKCE challenge", flush=True)
    check(asked.get("nonce") and asked.get("client_id") == "apache-rp" and asked.get("scope") == "openid profile",
          "a. … but a nonce, as client apache-rp, for openid profile", first)
    methods = browser.get(first.location)
    check(is_method_page(methods), "a. Portvakt shows Kari how she can sign in (the method page, with BankID)", methods)
    end = sign_in(browser, methods.url + "&idp_hint=bankid", "kari", until=APACHE + "/protected/redirect_uri")
    check(consent_form(end) is None, "a. Kari is not asked to consent to the course site, a first-party service", end)
    check(redirect_with(end, APACHE + "/protected/redirect_uri", "code") and "iss" in query_of(end.location),
          "a. after BankID, Portvakt sends Kari back to the course site with a code and iss", end)
    back = browser.get(end.location)
    check(back.status == 302 and back.location and back.location.startswith(APACHE + "/protected/"),
          "a. the course site redeems the code and validates the ID token", back)
    inside = browser.get(APACHE + "/protected/")
    check(inside.status == 200 and "Course site" in inside.body, "a. Kari is on the course site's protected page", inside)
    info = browser.get(APACHE + "/protected/redirect_uri?info=json")
    session = info.json()
    check(info.status == 200 and isinstance(session.get("id_token"), dict), "a. the course site shows its session (OIDCInfoHook)", info)
    remember_secret(session.get("access_token"))
    id_token, userinfo = session["id_token"], session.get("userinfo") or {}
    names = {id_token.get("name"), userinfo.get("name")} - {None}
    check(names == {"Kari Nordmann"}, f"a. the course site knows her name, Kari Nordmann (ID token, userinfo: {sorted(names)})", info)
    claims = {"ID token": id_token, "userinfo": userinfo, "access token": jwt_claims(session.get("access_token"))}
    for claim in ("email", "org"):
        holders = [where for where, values in claims.items() if contains_key(values, claim)]
        check(not holders, f"a. no {claim} claim for scope openid profile (found in: {', '.join(holders) or 'none'})", info)
    missing = [claim for claim in ("sid", "auth_time", "acr", "amr") if claim not in id_token]
    check(not missing, f"a. the ID token carries sid, auth_time, acr and amr (missing: {', '.join(missing) or 'none'})", info)


def single_sign_on(browser):
    """b. Returns the sid of second-rp's ID token and whether it got a refresh token."""
    authorize = rp_login(browser, "second-rp", prompt="none")
    check("code_challenge" in query_of(authorize), "b. second-rp asks with prompt=none and PKCE S256")
    answer = browser.get(authorize)
    check(answer.status == 303 and redirect_with(answer, RP + "/cb?", "code"),
          "b. with prompt=none, Portvakt signs Kari in at second-rp at once (303 to its redirect URI, no page)", answer)
    landed = browser.get(answer.location)
    result = landed.json()
    check(landed.status == 200 and result.get("token_status") == 200 and not result.get("problem"),
          f"b. second-rp redeems the code (client_secret_post) and validates the ID token ({result.get('problem') or result.get('token_error') or 'ok'})", landed)
    sid = (result.get("id_token") or {}).get("sid")
    check(sid, "b. second-rp's ID token has a sid", landed)
    stranger = Browser("a browser that never signed in")
    answer = stranger.get(rp_login(stranger, "second-rp", prompt="none"))
    check(redirect_with(answer, RP + "/cb?", "error") and query_of(answer.location)["error"] == "login_required"
          and "code" not in query_of(answer.location), "b. a browser without a session gets error=login_required", answer)
    landed = stranger.get(answer.location)
    check(landed.json().get("error") == "login_required", "b. … which second-rp accepts as an answer (state and iss)", landed)
    check(not any(consent_form(page) for page in browser.pages), "b. no consent page for second-rp, a first-party service")
    return sid, result.get("refresh_token")


def to_consent(browser, page):
    """Portvakt sends a signed-in browser on to its consent page (a 303 to /oauth/consent)."""
    if page.location and urllib.parse.urlsplit(urllib.parse.urljoin(page.url, page.location)).path == "/oauth/consent":
        return browser.get(urllib.parse.urljoin(page.url, page.location))
    return page


def consent(browser):
    """c."""
    page = to_consent(browser, browser.get(rp_login(browser, "third-party")))
    check(consent_form(page) is not None, "c. the first time Kari meets a third-party service, Portvakt asks her to consent", page)
    answer = answer_consent(browser, page, "allow")
    check(answer.status == 303 and redirect_with(answer, RP + "/cb3?", "code"), "c. when she allows it, the third party gets a code", answer)
    landed = browser.get(answer.location)
    check(landed.json().get("token_status") == 200 and not landed.json().get("problem"),
          f"c. the third party redeems it ({landed.json().get('problem') or landed.json().get('token_error') or 'ok'})", landed)
    again = browser.get(rp_login(browser, "third-party"))
    check(again.status == 303 and redirect_with(again, RP + "/cb3?", "code"), "c. the second time, Portvakt does not ask again", again)
    browser.get(again.location)

    nora = Browser("Nora's browser")
    page = to_consent(nora, sign_in(nora, rp_login(nora, "third-party"), "nora", method="vipps", until=RP))
    check(consent_form(page) is not None, "c. Nora, signing in with Vipps, is asked to consent to the third party", page)
    answer = answer_consent(nora, page, "deny")
    check(redirect_with(answer, RP + "/cb3?", "error") and query_of(answer.location)["error"] == "access_denied"
          and "code" not in query_of(answer.location), "c. when she denies it, the third party hears access_denied and gets no code", answer)
    nora.get(answer.location)


def logout_everywhere(browser, sid, had_refresh_token):
    """d."""
    out = browser.get(APACHE + "/protected/redirect_uri?logout=" + urllib.parse.quote(LOGGED_OUT, safe=""))
    asked = query_of(out.location)
    check(out.location is not None and out.location.startswith(ISSUER + "/oauth/end-session?") and asked.get("id_token_hint")
          and asked.get("post_logout_redirect_uri") == LOGGED_OUT,
          "d. signing out at the course site sends Kari to Portvakt's end_session_endpoint with id_token_hint and post_logout_redirect_uri", out)
    remember_secret(asked["id_token_hint"])
    back = browser.get(out.location)
    check(back.status == 303 and back.location and back.location.split("?")[0] == LOGGED_OUT,
          "d. Portvakt ends her session and sends her back to the course site's signed-out page", back)
    bye = browser.get(back.location)
    check(bye.status == 200 and "Signed out" in bye.body, "d. the course site says she is signed out", bye)
    again = browser.get(APACHE + "/protected/")
    check(again.status == 302, "d. the course site no longer lets her in without signing in", again)

    def arrived(received):
        return any(claims.get("sid") == sid for claims in received["verified"])

    deadline = time.monotonic() + 20
    received = rp_call("/received")
    while not arrived(received) and time.monotonic() < deadline:
        time.sleep(0.2)
        received = rp_call("/received")
    check(arrived(received), "d. within 20 s, second-rp gets a verified logout_token (logout+jwt, iss, aud, iat, jti, the event, "
          "no nonce) for the sid of its sign-in", detail=f"second-rp's receiver verified tokens for sids "
          f"{[claims.get('sid') for claims in received['verified']]} and refused {received['rejected']}; it waited for {sid}")
    if had_refresh_token:
        refreshed = rp_call("/refresh?" + urllib.parse.urlencode({"sid": sid}), {})
        check(refreshed.get("status") == 400 and refreshed.get("error") == "invalid_grant",
              f"d. second-rp's refresh token is refused with invalid_grant (status {refreshed.get('status')}, {refreshed.get('error')})")
    else:
        print("note second-rp got no refresh token at sign-in; there was none to try after the logout", flush=True)
    answer = browser.get(rp_login(browser, "second-rp", prompt="none"))
    check(redirect_with(answer, RP + "/cb?", "error") and query_of(answer.location)["error"] == "login_required",
          "d. after the logout, prompt=none at second-rp in the same browser gets login_required", answer)
    browser.get(answer.location)


def organisation_bound():
    """e."""
    kari = Browser("Kari's laptop")
    end = sign_in(kari, rp_login(kari, "hlf-only", idp_hint="bankid"), "kari", until=RP)
    check(not any(redirect_with(page, RP, "code") for page in kari.pages),
          "e. hlf-only never gets a code for Kari, a member of NHF only", end)
    check(end.status == 403 and "This service is for members of Hørselshemmedes Landsforbund" in end.body,
          "e. Portvakt shows Kari a 403 page: “This service is for members of Hørselshemmedes Landsforbund”", end)
    jonas = Browser("Jonas's browser")
    end = sign_in(jonas, rp_login(jonas, "hlf-only", idp_hint="bankid"), "jonas", until=RP + "/cb4")
    check(redirect_with(end, RP + "/cb4?", "code"), "e. Jonas, a member of HLF, gets a code at hlf-only", end)
    landed = jonas.get(end.location)
    check(landed.json().get("token_status") == 200 and not landed.json().get("problem"), "e. hlf-only redeems it", landed)


def downgrade():
    """f. Each in a browser of its own, so every code comes from a full login."""
    cases = [
        ({"redeem": "without_verifier"}, 400, "f. a code issued for a code_challenge is refused without code_verifier (invalid_grant)"),
        ({"pkce": "none"}, 200, "f. a confidential client with a nonce and no PKCE redeems its code without a verifier"),
        ({"pkce": "none", "redeem": "with_verifier"}, 400, "f. a code issued without a challenge is refused when a code_verifier is added (invalid_grant)"),
    ]
    for number, (fields, status, what) in enumerate(cases, 1):
        jonas = Browser(f"Jonas's browser {number}")
        authorize = rp_login(jonas, "second-rp", idp_hint="bankid", **fields)
        end = sign_in(jonas, authorize, "jonas", until=RP + "/cb")
        check(redirect_with(end, RP + "/cb?", "code"), f"f. Jonas gets a code ({'no PKCE, a nonce' if fields.get('pkce') == 'none' else 'PKCE S256'})", end)
        result = jonas.get(end.location).json()
        outcome = (result.get("token_status"), result.get("token_error"))
        check(outcome == ((200, None) if status == 200 else (400, "invalid_grant")) and not result.get("problem"),
              f"{what} (token endpoint: {outcome[0]} {outcome[1] or ''}{result.get('problem') or ''})")


first_vipps_sign_in("kari")
browser = Browser("Kari's browser")
course_site(browser)
sid, had_refresh_token = single_sign_on(browser)
consent(browser)
logout_everywhere(browser, sid, had_refresh_token)
organisation_bound()
downgrade()

#!/usr/bin/env python3
"""The web portal in real Chromium, driven by the keyboard alone, checked by axe-core.

`portal_suite.py BASE AXE_JS SCREENSHOTS SET_PASSWORD_CMD...`

Flows (every click is Tab/Shift-Tab to the control, then Enter or Space; focus must be visible):
start page → "Try it" as Kari through the sandbox Vipps page → My account → Download my data
(S17.1) → remove a phone
(registered beforehand through the API) → sign out; the same as Ola with BankID; the password
login; a form without its CSRF token and one from a foreign Origin are refused; a session that
ended sends the person to a page that says so; BankID on another device and the way back; the
administrators' pages (admin_flows.py); claiming a membership by an emailed code (claim_flow.py); a web application's consent, My account's applications and the members-only page (relying_party_pages.py). axe-core runs on every page and state reached,
in Bokmål and English, at 1280 and 320 px: 0 violations of the WCAG 2.0/2.1/2.2 A and AA rules.
"""
import base64, json, os, re, subprocess, sys, time, urllib.parse

from cryptography.hazmat.primitives.asymmetric import ec
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from sandbox_login import call, login  # noqa: E402
import admin_flows  # noqa: E402
import claim_flow  # noqa: E402
import relying_party_pages  # noqa: E402

BASE, AXE_JS, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
SET_PASSWORD = sys.argv[4:]
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
axe_source = open(AXE_JS).read()
report = []  # (page, language, width, violations)
os.makedirs(SHOTS, exist_ok=True)


def fail(message):
    print(f"browser suite FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=nb"]:
        options.add_argument(argument)
    # A Norwegian browser: Accept-Language decides until the person picks a language.
    options.add_experimental_option("prefs", {"intl.accept_languages": "nb-NO,nb,en"})
    service = webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(20)
    return driver


def resize(driver, width):
    driver.set_window_size(width, 900)
    inner = driver.execute_script("return window.innerWidth")
    if inner != width:  # the window frame: make the viewport itself the width asked for
        driver.set_window_size(width + (width - inner), 900)


def axe(driver, page):
    """Runs axe-core on the current page; returns the WCAG A/AA violations."""
    driver.execute_script(axe_source)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then(r => done(r.violations.map(v => "
        "({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))));",
        WCAG_TAGS)
    return result


def language_links(driver):
    """The page's language switch: the address of the page in each other language, by language."""
    return {a.get_attribute("hreflang"): a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a[hreflang]")}


def check_languages(driver, page):
    """axe at 1280 and 320 px; screenshots of each."""
    lang = driver.execute_script("return document.documentElement.lang")
    for width in [1280, 320]:
        resize(driver, width)
        violations = axe(driver, page)
        scroll = driver.execute_script("return document.documentElement.scrollWidth")
        if scroll > width + 1:
            violations.append({"id": "reflow (WCAG 1.4.10)", "impact": "serious", "nodes": [f"page is {scroll}px wide at {width}px"]})
        report.append((page, lang, width, violations))
        driver.save_screenshot(os.path.join(SHOTS, f"{page}-{lang}-{width}.png"))
        if violations:
            fail(f"{page} ({lang}, {width}px): {json.dumps(violations, ensure_ascii=False)}")
    resize(driver, 1280)


def check_page(driver, page):
    """The page as it is, then (through its own language switch) in each other language, then back."""
    check_languages(driver, page)
    first = driver.execute_script("return document.documentElement.lang")
    switch = language_links(driver)
    if not switch:
        return  # a page that answers a form: checked in the language it was asked in
    # The simulated BankID and Vipps (their banner) speak what the real ones offer: Bokmål and English.
    offered = {"nb", "en"} if driver.find_elements(By.CSS_SELECTOR, "p.banner") else {"nb", "nn", "en"}
    if set(switch) | {first} != offered:
        fail(f"{page}: the language switch offers {sorted(switch)} from {first}, not the rest of {sorted(offered)}")
    for language, address in switch.items():
        driver.get(address)
        if driver.execute_script("return document.documentElement.lang") != language:
            fail(f"{page}: the switch to {language} did not lead to {language}")
        check_languages(driver, page)
    back = language_links(driver).get(first)
    if not back:
        fail(f"{page}: no way back to {first}")
    driver.get(back)
    if driver.execute_script("return document.documentElement.lang") != first:
        fail(f"{page}: the language switch did not lead back")


def focused(driver):
    return driver.switch_to.active_element


def focus_visible(driver):
    return driver.execute_script(
        "const e = document.activeElement; const s = getComputedStyle(e);"
        "return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';")


def tab_to(driver, describe, matches, limit=80, backwards=False):
    """Presses Tab (or Shift-Tab) until the focused element matches; its focus must be visible."""
    for _ in range(limit):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            ActionChains(driver).send_keys(Keys.TAB).perform()
        element = focused(driver)
        if matches(element):
            if not focus_visible(driver):
                fail(f"focus on {describe} is not visible")
            return element
    fail(f"Tab never reached {describe}")


def press(driver, describe, matches, key=Keys.ENTER, backwards=False):
    tab_to(driver, describe, matches, backwards=backwards)
    leave_page(driver, describe, key)


def leave_page(driver, describe, key=Keys.ENTER):
    """Presses `key` on the focused control and waits until the page it leads to has loaded:
    every control of these pages goes to another page (a link, or a form the server answers)."""
    page = driver.find_element(By.TAG_NAME, "html")
    ActionChains(driver).send_keys(key).perform()
    # While the browser navigates, ChromeDriver may answer a question about the old page with an
    # error other than "stale" (its context is being torn down): that means "ask again".
    during_navigation = dict(poll_frequency=0.1, ignored_exceptions=(WebDriverException,))
    try:
        WebDriverWait(driver, 15, **during_navigation).until(expected_conditions.staleness_of(page))
        WebDriverWait(driver, 15, **during_navigation).until(lambda d: d.execute_script("return document.readyState") == "complete")
    except TimeoutException:
        fail(f"{describe} did not lead to another page: still at {driver.current_url}")


def wait_until(driver, condition, seconds=5):
    """What `condition(driver)` returns once it is truthy (WebDriverWait asks it again until
    then); None after `seconds`: the event the test waits for, never a fixed pause."""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=(WebDriverException,)).until(condition)
    except TimeoutException:
        return None


def href_contains(text):
    return lambda e: text in (e.get_attribute("href") or "")


def text_is(text):
    return lambda e: e.text.strip() == text or (e.get_attribute("value") or "") == text


def posts_to(driver, action):
    """The focused control submits a form to `action`."""
    return lambda e: driver.execute_script("const f = arguments[0].closest('form'); return f ? f.getAttribute('action') : null", e) == action


def start(driver, language="nb"):
    driver.get(f"{BASE}/language?to={language}&back=%2F")
    # The skip link is the first stop and leads to the main content.
    skip = tab_to(driver, "the skip link", href_contains("#main"), limit=2)
    if "main" not in (skip.get_attribute("href") or ""):
        fail("no skip link")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    if driver.execute_script("return document.activeElement.id") != "main":
        fail("the skip link does not move focus to the main content")


def status_text(driver):
    elements = driver.find_elements(By.CSS_SELECTOR, "[role=status]")
    return elements[0].text if elements else ""


def register_device(person):
    """A phone key for `person`, registered through the API after a fresh login."""
    tokens = login(BASE, person)
    key = ec.generate_private_key(ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    b64 = lambda n: base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode()
    body = json.dumps({"name": f"{person.title()}s iPhone", "platform": "ios", "biometric_kind": "face",
                       "public_key": {"kty": "EC", "crv": "P-256", "x": b64(numbers.x), "y": b64(numbers.y)}}).encode()
    import urllib.request
    request = urllib.request.Request(f"{BASE}/v1/devices", data=body, method="POST", headers={
        "Authorization": f"Bearer {tokens['access_token']}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 201


def try_it(driver, person, method, page_prefix):
    """Start page → Try it → the sandbox's page (person preselected) → Approve → My account, in a
    browser signed in nowhere (a browser signed in at Portvakt is answered by that sign-in)."""
    driver.delete_all_cookies()
    start(driver)
    if page_prefix == "vipps":
        check_page(driver, "start")
        start(driver)
    press(driver, f"Try it with {method} for {person}", href_contains(f"method={method}&person={person}"))
    if "/sandbox/" not in driver.current_url:
        fail(f"Try it did not reach the sandbox's {method} page: {driver.current_url}")
    checked = driver.find_element(By.CSS_SELECTOR, "input[type=radio]:checked").get_attribute("value")
    if checked != person:
        fail(f"the sandbox page preselected {checked}, not {person}")
    check_page(driver, f"sandbox-{method}")
    press(driver, "Approve", lambda e: e.get_attribute("value") == "approve", key=Keys.SPACE)
    if not driver.current_url.startswith(f"{BASE}/account"):
        fail(f"after approving, the browser is at {driver.current_url}")


def account_flow(driver, person, method):
    register_device(person)
    try_it(driver, person, method, method)
    heading = driver.find_element(By.TAG_NAME, "h1").text
    if heading != "Min konto":
        fail(f"My account heading is {heading!r}")
    body = driver.find_element(By.TAG_NAME, "main").text
    for expected in [f"{person.title()}s iPhone", "Denne nettleseren"]:
        if expected not in body:
            fail(f"My account does not show {expected!r}")
    if "peer_mentor" in body or "coordinator" in body:
        fail("My account shows a role id instead of words")
    check_page(driver, f"account-{method}")
    download_my_data(driver, person)
    # Remove the phone with the keyboard: Space on its button.
    press(driver, "Remove the phone", lambda e: e.tag_name == "button" and "iPhone" in (e.get_attribute("aria-label") or ""), key=Keys.SPACE, backwards=True)
    if "Telefonen er fjernet" not in status_text(driver):
        fail(f"no status after removing the phone: {status_text(driver)!r}")
    if not driver.title.startswith("Telefonen er fjernet"):
        fail(f"the page title does not say what happened: {driver.title!r}")
    if f"{person.title()}s iPhone" in driver.find_element(By.TAG_NAME, "main").text:
        fail("the removed phone is still listed")
    check_page(driver, f"account-device-removed-{method}")
    # Sign out, reached backwards from the end of the page.
    press(driver, "Sign out", posts_to(driver, "/portal/logout"), backwards=True)
    if "Du er logget ut" not in status_text(driver):
        fail(f"signing out did not say so: {driver.current_url} {status_text(driver)!r}")
    check_page(driver, "signed-out")
    driver.get(f"{BASE}/account")
    if "Du er ikke logget inn" not in driver.find_element(By.TAG_NAME, "h1").text:
        fail("after signing out, My account is still shown")


def download_my_data(driver, person):
    """S17.1: "Download my data" is reached with the keyboard; the file holds the member's data, the number masked."""
    link = tab_to(driver, "Download my data", href_contains("/account/data"))
    if link.text.strip() != "Last ned dataene mine":
        fail(f"the download link says {link.text!r}")
    import urllib.request
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    with urllib.request.urlopen(urllib.request.Request(link.get_attribute("href"), headers={"Cookie": cookie}), timeout=10) as response:
        if "attachment" not in response.headers.get("Content-Disposition", ""):
            fail("the data is not offered as a file")
        data = json.loads(response.read())
    number = data["profile"].get("personnummer") or ""
    if not number.endswith("*****") or len(number) != 11:
        fail(f"the downloaded personnummer is not masked: {number[:6]}…")
    if not data["memberships"] or person.title() not in data["profile"]["name"]:
        fail("the download does not hold the member's account and memberships")


def password_flow(driver):
    subprocess.run(SET_PASSWORD + ["--email", "per@sandbox.portvakt.test"], input=b"browser-password-123\n", check=True, capture_output=True)
    start(driver)
    press(driver, "Sign in with email and password", href_contains("method=password"))
    check_page(driver, "password-form")
    tab_to(driver, "the email field", lambda e: e.get_attribute("id") == "email").send_keys("per@sandbox.portvakt.test")
    tab_to(driver, "the password field", lambda e: e.get_attribute("id") == "password").send_keys("wrong password")
    leave_page(driver, "a wrong password")
    if not driver.find_elements(By.CSS_SELECTOR, "[role=alert]"):
        fail("a wrong password is not announced")
    check_page(driver, "password-wrong")
    field = driver.find_element(By.ID, "password")
    field.clear()
    field.send_keys("browser-password-123")
    leave_page(driver, "the right password")
    if not driver.current_url.startswith(f"{BASE}/account") or "Per Johansen" not in driver.find_element(By.TAG_NAME, "main").text:
        fail(f"the password login did not reach My account: {driver.current_url}")
    if "E-post og passord" not in driver.find_element(By.TAG_NAME, "main").text:
        fail("My account does not say the sign-in was with email and password")


class PlainBrowser:
    """Another browser over plain HTTP: its own cookies, following redirects itself."""

    def __init__(self):
        self.cookies = {}

    def go(self, url, form=None):
        import urllib.request, urllib.error
        from sandbox_login import NoRedirect
        for _ in range(10):
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            data = None
            if form is not None:
                data, headers["Origin"] = urllib.parse.urlencode(form).encode(), BASE
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            try:
                response = urllib.request.build_opener(NoRedirect).open(urllib.request.Request(url, data=data, headers=headers), timeout=10)
            except urllib.error.HTTPError as error:
                response = error
            for line in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = line.partition("=")
                value = rest.split(";")[0]
                if value and "max-age=0" not in line.lower():
                    self.cookies[name] = value
                else:
                    self.cookies.pop(name, None)
            location = response.headers.get("Location")
            if response.status not in (301, 302, 303, 307, 308) or not location:
                return response.status, response.read().decode()
            url, form = urllib.parse.urljoin(url, location), None
        fail(f"more than 10 redirects from {url}")

    def sign_in(self, email, password):
        status, page = self.go(f"{BASE}/portal/login?method=password")
        flow = re.search(r'name="flow" value="([^"]+)"', page)
        if status != 200 or not flow:
            fail(f"the other browser got no password form: {status}")
        status, page = self.go(f"{BASE}/oauth/password", {"flow": flow.group(1), "email": email, "password": password})
        if status != 200 or "Min konto" not in page:
            fail(f"the other browser's password sign-in did not reach My account: {status}")

    def signed_in(self):
        status, page = self.go(f"{BASE}/account")
        return status == 200 and "Min konto" in page


def refused_forms(driver):
    """With the signed-in browser's cookie: no CSRF token, a wrong one, a foreign Origin."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    import urllib.request, urllib.error
    def post(path, form, origin=None):
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        if origin:
            headers["Origin"] = origin
        request = urllib.request.Request(f"{BASE}{path}", data=urllib.parse.urlencode(form).encode(), method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
    # The witness: Per signed in in another browser too, whose sign-in the forged "sign out
    # everywhere else" would end.
    elsewhere = PlainBrowser()
    elsewhere.sign_in("per@sandbox.portvakt.test", "browser-password-123")
    driver.get(f"{BASE}/account")
    token = driver.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    for form, origin in [({}, None), ({"csrf": "forged"}, None), ({"csrf": token}, "https://evil.example")]:
        status, body = post("/account/sessions/end-others", form, origin)
        if status != 403 or "Ingenting er endret" not in body:
            fail(f"a form without its token or from another site answered {status}")
    driver.get(f"{BASE}/account")
    if "Min konto" not in driver.find_element(By.TAG_NAME, "h1").text:
        fail("a refused form ended the session")
    if not elsewhere.signed_in():
        fail("a refused \"sign out everywhere else\" ended the other browser's sign-in")
    # The same form, sent by Per himself: the other browser's sign-in ends, this one stays.
    press(driver, "Sign out everywhere else", posts_to(driver, "/account/sessions/end-others"), key=Keys.SPACE)
    if "Du er logget ut alle andre steder" not in status_text(driver):
        fail(f"signing out everywhere else is not announced: {status_text(driver)!r}")
    if elsewhere.signed_in():
        fail("\"sign out everywhere else\" left the other browser signed in")
    # The refusal page itself, in the browser.
    driver.execute_script("document.querySelector('input[name=csrf]').value = 'stale'")
    press(driver, "Sign out", posts_to(driver, "/portal/logout"))
    if "Ingenting er endret" not in driver.find_element(By.TAG_NAME, "main").text:
        fail("a form with a stale token was not refused in the browser")
    check_page(driver, "form-refused")


def ended_session(driver):
    driver.delete_all_cookies()
    driver.get(BASE + "/")
    driver.add_cookie({"name": "portvakt", "value": "ended-or-expired-session-reference", "path": "/"})
    driver.get(f"{BASE}/account")
    if "Du er ikke logget inn" not in driver.find_element(By.TAG_NAME, "h1").text:
        fail(f"an ended session does not say so: {driver.find_element(By.TAG_NAME, 'h1').text!r} at {driver.current_url}")
    check_page(driver, "not-signed-in")
    press(driver, "Sign in", lambda e: e.get_attribute("class") == "button" and "/portal/login" in (e.get_attribute("href") or ""))
    if "/oauth/authorize" not in driver.current_url and "Logg inn" not in driver.title:
        fail(f"Sign in from the ended-session page went to {driver.current_url}")
    check_page(driver, "method-choice")


def other_device(driver):
    """From the method choice: BankID on another device, its status regions, and the way back."""
    press(driver, "BankID on another device", href_contains("/oauth/bankid/other-device"))
    if not driver.find_elements(By.CSS_SELECTOR, "#qr svg"):
        fail("the other-device page shows no QR code")
    status = driver.find_element(By.ID, "status")
    warning = driver.find_element(By.ID, "time-warning")
    if status.get_attribute("role") != "status" or warning.get_attribute("aria-live") != "assertive":
        fail("the order's status and the time warning need live regions of their own")
    check_page(driver, "other-device")
    press(driver, "Choose another way to log in", lambda e: "/oauth/authorize" in (e.get_attribute("href") or ""))
    if not driver.find_elements(By.CSS_SELECTOR, "a.method"):
        fail(f"the way back did not lead to the method choice: {driver.current_url}")


def sign_out_pages(driver):
    """RP-initiated logout's own pages (issue 59): a sign-out Portvakt cannot act on, in its own
    words (never the login's), and the signed-out page; each in Bokmål and English."""
    for language, heading in [("nb", "Utloggingen kunne ikke fullføres"), ("en", "The sign-out could not be completed")]:
        driver.get(f"{BASE}/oauth/end-session?post_logout_redirect_uri=https%3A%2F%2Fx.example%2F&ui_locales={language}")
        if driver.find_element(By.TAG_NAME, "h1").text != heading or "login could not be started" in driver.page_source:
            fail(f"the refused sign-out page ({language}) says {driver.find_element(By.TAG_NAME, 'h1').text!r}")
        check_languages(driver, "sign-out-refused")
        driver.get(f"{BASE}/oauth/end-session?ui_locales={language}")
        check_languages(driver, "signed-out")


def main():
    driver = browser()
    try:
        # First: it needs Kari's first login to happen while NHF's member system is down.
        admin_flows.run(sys.modules[__name__], driver)
        account_flow(driver, "kari", "vipps")
        account_flow(driver, "ola", "bankid")
        password_flow(driver)
        refused_forms(driver)
        ended_session(driver)
        other_device(driver)
        sign_out_pages(driver)
        claim_flow.run(sys.modules[__name__], driver)
        relying_party_pages.run(sys.modules[__name__], driver)
    finally:
        driver.quit()
    pages = sorted({page for page, _, _, _ in report})
    print(f"browser suite: {len(report)} axe runs on {len(pages)} pages, 0 violations (WCAG 2.0/2.1/2.2 A and AA); screenshots in {SHOTS}")
    for page in pages:
        runs = [f"{lang}/{width}px" for p, lang, width, _ in report if p == page]
        print(f"  {page}: 0 violations ({', '.join(runs)})")


if __name__ == "__main__":
    main()

"""Issue 59 in the browser suite: the pages a web application's sign-in reaches, keyboard only,
with axe-core at 1280 and 320 px in Bokmål and English. `run(suite, driver)` gets the portal
suite's module for its helpers.

Kari signs in with Vipps at a third party (kurs-tredjepart): Portvakt asks for her consent, she
allows it, and the service gets a code. Her single sign-on then signs her in to My account with no
second login, where "Applications" lists the service and "Take back" withdraws it (announced).
At a service for HLF's members only (hlf-kurs) the pages speak in HLF's name, with its logo and
colour (issue 62), and her sign-in ends on the members-only page."""
import base64, hashlib, secrets, urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def authorize_url(s, client, language, **extra):
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    port = urllib.parse.urlsplit(s.BASE).port
    fields = {
        "client_id": client, "redirect_uri": f"http://127.0.0.1:{port}/relying-party/callback", "response_type": "code",
        "scope": "openid profile email organisations", "state": secrets.token_urlsafe(12), "nonce": secrets.token_urlsafe(12),
        "code_challenge": challenge, "code_challenge_method": "S256", "ui_locales": language, **extra,
    }
    return f"{s.BASE}/oauth/authorize?" + urllib.parse.urlencode(fields)


def approve_at_vipps(s, driver, person):
    if "/sandbox/" not in driver.current_url:
        s.fail(f"the sign-in did not reach the sandbox's Vipps page: {driver.current_url}")
    checked = driver.find_element(By.CSS_SELECTOR, "input[type=radio]:checked").get_attribute("value")
    if checked != person:
        s.fail(f"the sandbox page preselected {checked}, not {person}")
    s.press(driver, "Approve", lambda e: e.get_attribute("value") == "approve", key=Keys.SPACE)


def consent(s, driver):
    driver.delete_all_cookies()
    driver.get(authorize_url(s, "kurs-tredjepart", "nb", idp_hint="vipps", login_hint="kari"))
    approve_at_vipps(s, driver, "kari")
    if not driver.current_url.startswith(f"{s.BASE}/oauth/consent?"):
        s.fail(f"a third party's first sign-in did not ask for consent: {driver.current_url}")
    heading = driver.find_element(By.TAG_NAME, "h1").text
    if heading != "Vil du gi Kursportalen tilgang?":
        s.fail(f"the consent page's heading is {heading!r}")
    for said in ["navnet ditt", "e-postadressen din", "hvilke organisasjoner du er medlem av"]:
        if said not in driver.find_element(By.TAG_NAME, "main").text:
            s.fail(f"the consent page does not say the service gets {said!r}")
    s.check_page(driver, "consent")
    s.press(driver, "Allow", lambda e: e.get_attribute("value") == "allow", key=Keys.SPACE)
    answer = urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)
    if not driver.current_url.split("?")[0].endswith("/relying-party/callback") or "code" not in answer:
        s.fail(f"after allowing, the service got no code: {driver.current_url}")


def applications(s, driver):
    # The single sign-on answers My account's own sign-in: no second Vipps login.
    driver.get(f"{s.BASE}/portal/login?method=vipps")
    if not driver.current_url.startswith(f"{s.BASE}/account"):
        s.fail(f"single sign-on did not sign Kari in to My account: {driver.current_url}")
    main = driver.find_element(By.TAG_NAME, "main").text
    for said in ["Tjenester", "Kursportalen", "Innlogget i Portvakt i en nettleser"]:
        if said not in main:
            s.fail(f"My account does not show {said!r}")
    s.check_page(driver, "account-applications")
    s.press(driver, "Take back", lambda e: e.tag_name == "button" and "Kursportalen" in (e.get_attribute("aria-label") or ""), key=Keys.SPACE)
    if "Tilgangen er trukket tilbake" not in s.status_text(driver):
        s.fail(f"taking back the consent did not say so: {s.status_text(driver)!r}")
    if "Du har ikke gitt andre tjenester tilgang." not in driver.find_element(By.TAG_NAME, "main").text:
        s.fail("the withdrawn service is still listed")
    s.check_page(driver, "account-application-withdrawn")


HLF = "Hørselshemmedes Landsforbund"
HLF_ACCENT = "rgb(122, 31, 92)"  # #7a1f5c, as browser-test.sh sets it


def wears_hlf_brand(s, driver, page):
    title = driver.title
    if not title.endswith(f"– {HLF}"):
        s.fail(f"{page}: the title {title!r} does not name {HLF}")
    if HLF not in driver.find_element(By.CSS_SELECTOR, "p.site").text:
        s.fail(f"{page}: the header does not name {HLF}")
    logo = driver.find_element(By.CSS_SELECTOR, "p.site img.logo")
    if not driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", logo):
        s.fail(f"{page}: HLF's logo did not load")
    if logo.get_attribute("alt") != "":
        s.fail(f"{page}: the logo beside the name is not marked decorative")
    colour = driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", driver.find_element(By.CSS_SELECTOR, "main .method.primary, main button"))
    if colour != HLF_ACCENT:
        s.fail(f"{page}: the first button is {colour}, not HLF's accent {HLF_ACCENT}")


def branded_login(s, driver):
    driver.delete_all_cookies()
    driver.get(authorize_url(s, "hlf-kurs", "nn"))
    if not driver.current_url.startswith(f"{s.BASE}/oauth/authorize?"):
        s.fail(f"HLF's service did not show the method page: {driver.current_url}")
    wears_hlf_brand(s, driver, "method-hlf")
    s.check_page(driver, "method-hlf")
    wears_hlf_brand(s, driver, "method-hlf (after the language switch)")


def members_only(s, driver):
    for language, said in [("nb", "Denne tjenesten er for medlemmer av"), ("en", "This service is for members of")]:
        driver.delete_all_cookies()
        driver.get(authorize_url(s, "hlf-kurs", language, idp_hint="vipps", login_hint="kari"))
        approve_at_vipps(s, driver, "kari")
        if not driver.current_url.startswith(f"{s.BASE}/oauth/members-only?") or said not in driver.find_element(By.TAG_NAME, "main").text:
            s.fail(f"an NHF member at HLF's service did not get the members-only page ({language}): {driver.current_url}")
        if HLF not in driver.title:
            s.fail(f"the members-only page of HLF's service does not name {HLF}: {driver.title!r}")
        s.check_languages(driver, "members-only")
        back = s.tab_to(driver, "the way back to the service", s.href_contains("error=access_denied"))
        if "code=" in (back.get_attribute("href") or ""):
            s.fail("the members-only page leads the service to a code")


def run(s, driver):
    consent(s, driver)
    applications(s, driver)
    branded_login(s, driver)
    members_only(s, driver)

#!/usr/bin/env python3
"""S18: passkeys on the web, in real Chromium with the WebDriver virtual authenticator.

`passkey_suite.py BASE AXE_JS SCREENSHOTS SET_PASSWORD_CMD...`, BASE on `http://localhost:PORT`
(the RP ID must be a domain). Keyboard only, with the portal suite's helpers and axe-core:

- Kari signs in with Vipps ("Try it"), adds a passkey in My account (S18.1), signs out and signs
  in with it from the start page (S18.2); the password page offers passkeys in its email field.
- The server refuses what the browser would not send: an assertion without user verification,
  and one from another origin, each signed with Kari's real passkey key.
- The virtual authenticator's counter is put back (a copied passkey): the sign-in is refused and
  the page says why.
- Ingrid (NHF administrator) adds a passkey after BankID, signs in with her password, and reveals
  a member's number after "Confirm with a passkey" (S18.3).
axe-core runs on every new page and state, in Bokmål and English, at 1280 and 320 px.
"""
import base64, hashlib, json, os, re, subprocess, sys, time, urllib.error, urllib.parse, urllib.request

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions

sys.path.insert(0, os.path.dirname(__file__))
import portal_suite as s  # noqa: E402  (BASE, AXE_JS, SHOTS and SET_PASSWORD from the same arguments)
import admin_flows  # noqa: E402
from sandbox_login import refused_login  # noqa: E402


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def raw(text):
    """A value selenium's Credential gives as base64url text, as bytes."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def copy(credential, sign_count):
    """The same passkey (its key and user handle) with another signature counter."""
    return Credential.create_resident_credential(raw(credential.id), "localhost", raw(credential.user_handle), raw(credential.private_key), sign_count)


def authenticator(driver):
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    options.is_user_consenting = True
    driver.add_virtual_authenticator(options)


def add_passkey(driver, name, check=False):
    """My account → the passkey's name → Add a passkey; the authenticator answers at once."""
    if check:
        s.check_page(driver, "account-passkey-add")
    field = s.tab_to(driver, "the passkey's name", lambda e: e.get_attribute("id") == "passkey-name")
    field.send_keys(name)
    s.press(driver, "Add a passkey", s.posts_to(driver, "/account/passkeys"))
    if not s.wait_until(driver, lambda d: "done=passkey_added" in d.current_url):
        s.fail(f"adding a passkey did not reach My account with its status: {driver.current_url} {admin_flows.main_text(s, driver)[:300]!r}")
    if "Passnøkkelen er lagt til" not in s.status_text(driver):
        s.fail(f"the added passkey is not announced: {s.status_text(driver)!r}")
    if name not in admin_flows.main_text(s, driver):
        s.fail(f"the passkey {name!r} is not listed")


def sign_out(driver):
    s.press(driver, "Sign out", s.posts_to(driver, "/portal/logout"), backwards=True)


def passkey_page(driver, check=None, language="nb"):
    """Start page → Sign in with a passkey → the passkey page (its button shown by the script)."""
    driver.delete_all_cookies()
    s.start(driver, language)
    s.press(driver, "Sign in with a passkey", s.href_contains("method=passkey"))
    if not driver.find_elements(By.ID, "passkey-start") or not driver.find_element(By.ID, "passkey-start").is_displayed():
        s.fail(f"the passkey page has no button: {driver.current_url}")
    if check:
        s.check_page(driver, check)


def use_passkey(driver):
    # The page's script asks the authenticator, then sends its answer: press waits for that page.
    s.press(driver, "Use my passkey", lambda e: e.get_attribute("id") == "passkey-start")


def forged_assertion(driver, credential, flags, counter, origin):
    """A sign-in answer signed with Kari's real passkey key, as an attacker who holds it could
    not make a browser send: the flow and challenge are the page's own."""
    flow = driver.find_element(By.CSS_SELECTOR, "#passkey-sign-in input[name=flow]").get_attribute("value")
    request = urllib.request.Request(f"{s.BASE}/oauth/passkey/options", data=urllib.parse.urlencode({"flow": flow}).encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=10) as response:
        challenge = json.load(response)["publicKey"]["challenge"]
    client = json.dumps({"type": "webauthn.get", "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()
    data = hashlib.sha256(b"localhost").digest() + bytes([flags]) + counter.to_bytes(4, "big")
    key = serialization.load_der_private_key(raw(credential.private_key), password=None)
    signature = key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
    form = {"flow": flow, "credential_id": b64url(raw(credential.id)), "client_data": b64url(client),
            "authenticator_data": b64url(data), "signature": b64url(signature), "user_handle": b64url(raw(credential.user_handle))}
    request = urllib.request.Request(f"{s.BASE}/oauth/passkey", data=urllib.parse.urlencode(form).encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def password_page(driver):
    driver.delete_all_cookies()
    s.start(driver)
    s.press(driver, "Sign in with email and password", s.href_contains("method=password"))


def kari(driver):
    # Without a passkey in the browser, the password page waits in its email field for one.
    password_page(driver)
    if "webauthn" not in (driver.find_element(By.ID, "email").get_attribute("autocomplete") or ""):
        s.fail("the password page's email field does not offer passkeys (autocomplete webauthn)")
    s.check_page(driver, "password-with-passkeys")

    admin_flows.sign_in_as(s, driver, "kari", "vipps")
    if "Passnøkler" not in admin_flows.main_text(s, driver):
        s.fail("My account has no passkeys section")
    add_passkey(driver, "Jobb-PC", check=True)
    s.check_page(driver, "account-passkey-listed")
    sign_out(driver)

    # Conditional mediation: the browser offers the passkey in the email field; the virtual
    # authenticator picks it at once, and Kari is signed in without typing.
    password_page(driver)
    s.wait_until(driver, lambda d: d.current_url.startswith(f"{s.BASE}/account"))
    if "Denne innloggingen: Passnøkkel" not in admin_flows.main_text(s, driver):
        s.fail(f"the passkey offered in the email field did not sign Kari in: {driver.current_url}")
    sign_out(driver)

    passkey_page(driver, check="passkey-sign-in")
    use_passkey(driver)
    if not driver.current_url.startswith(f"{s.BASE}/account") or "Kari" not in admin_flows.main_text(s, driver):
        s.fail(f"Kari's passkey did not sign her in: {driver.current_url} {admin_flows.main_text(s, driver)[:300]!r}")
    if "Denne innloggingen: Passnøkkel" not in admin_flows.main_text(s, driver) or "Logget inn med passnøkkel" not in admin_flows.main_text(s, driver):
        s.fail("My account does not say the sign-in was with a passkey")
    # A passkey sign-in is not BankID: adding another needs BankID or Vipps first.
    if driver.find_elements(By.ID, "passkey-register") or "Bekreft med BankID" not in admin_flows.main_text(s, driver):
        s.fail("a passkey sign-in may add passkeys without BankID or Vipps")
    s.check_page(driver, "account-passkey-confirm-first")
    sign_out(driver)

    [credential] = driver.get_credentials()
    passkey_page(driver)
    # Without user verification: refused by the server, though the signature is right.
    status, page = forged_assertion(driver, credential, 0x01, credential.sign_count + 1, s.BASE)
    if status != 401 or "ble ikke godtatt" not in page:
        s.fail(f"an assertion without user verification was not refused: {status}")
    # From another origin: refused.
    status, page = forged_assertion(driver, credential, 0x05, credential.sign_count + 2, s.BASE.replace("localhost", "evil.localhost"))
    if status != 401 or "ble ikke godtatt" not in page:
        s.fail(f"an assertion from another origin was not refused: {status}")

    # A copy of the passkey whose counter is behind: refused, and the page says why.
    driver.remove_all_credentials()
    driver.add_credential(copy(credential, 0))
    for language, reason in [("nb", "kan være kopiert"), ("en", "may have been copied")]:
        passkey_page(driver, language=language)
        use_passkey(driver)
        alerts = driver.find_elements(By.CSS_SELECTOR, "[role=alert]")
        if not alerts or reason not in alerts[0].text:
            s.fail(f"a passkey whose counter went back was not refused with its reason ({language}): {admin_flows.main_text(s, driver)[:300]!r}")
        s.check_languages(driver, "passkey-refused")
    driver.remove_all_credentials()


def ingrid(driver):
    # Sofie's Vipps login matches her record by phone, but the record has another number: an
    # open conflict, whose numbers an administrator may see in full after a step-up.
    if refused_login(s.BASE, "sofie").get("error") != "access_denied":
        s.fail("sofie's phone match with another number was linked")
    admin_flows.sign_in_as(s, driver, "ingrid", "bankid")
    add_passkey(driver, "Ingrids PC")
    sign_out(driver)
    subprocess.run(s.SET_PASSWORD + ["--email", "ingrid@sandbox.portvakt.test"], input=b"ingrid-password-123\n", check=True, capture_output=True)
    # Her password, in a browser without her passkey (else the email field would offer it).
    [credential] = driver.get_credentials()
    driver.remove_all_credentials()
    admin_flows.sign_in_with_password(s, driver, "ingrid@sandbox.portvakt.test", "ingrid-password-123")
    driver.add_credential(copy(credential, credential.sign_count))
    driver.get(f"{s.BASE}/admin/nhf/sync?outcome=conflict&status=open")
    s.press(driver, "Sofie's entry", s.href_contains("/admin/nhf/sync/"))
    entry = driver.current_url
    if re.search(r"\b\d{11}\b", admin_flows.main_text(s, driver)):
        s.fail("a number is in full before the step-up")
    s.check_page(driver, "admin-sync-entry-passkey-step-up")
    s.press(driver, "Confirm with a passkey", s.href_contains("method=passkey&step_up=1"))
    use_passkey(driver)
    if driver.current_url.split("?")[0] != entry.split("?")[0]:
        s.fail(f"after the passkey step-up the browser is at {driver.current_url}, not the entry: {admin_flows.main_text(s, driver)[:300]!r}")
    s.press(driver, "Show the numbers in full", s.posts_to(driver, urllib.parse.urlsplit(entry).path + "/reveal"))
    if not re.search(r"\b\d{11}\b", admin_flows.main_text(s, driver)) or "Numrene vises" not in s.status_text(driver):
        s.fail(f"Ingrid could not reveal a number after the passkey step-up: {admin_flows.main_text(s, driver)[:400]!r}")
    s.check_languages(driver, "admin-sync-revealed-after-passkey")


def main():
    if not s.BASE.startswith("http://localhost:"):
        s.fail("the passkey suite needs the server on http://localhost:PORT (the RP ID is a domain)")
    driver = s.browser()
    try:
        authenticator(driver)
        kari(driver)
        ingrid(driver)
    finally:
        driver.quit()
    pages = sorted({page for page, _, _, _ in s.report})
    print(f"passkey suite: {len(s.report)} axe runs on {len(pages)} pages, 0 violations; registration, sign-in, "
          "UV off, another origin, a counter gone back and Ingrid's passkey step-up as expected")
    for page in pages:
        runs = [f"{lang}/{width}px" for p, lang, width, _ in s.report if p == page]
        print(f"  {page}: 0 violations ({', '.join(runs)})")


if __name__ == "__main__":
    main()

"""S15 (and review IV item 1: the claim bound to its browser) in the browser suite: `run(suite, driver)` gets the portal suite's module for its helpers.

Lise Berg's HLF record has only her email. Keyboard only: start page → "Try it" with BankID as
Lise → the sandbox's BankID page → "We could not find you" → her email → the code page → a
wrong code (announced) → the code from the sandbox's mailbox → My account, as Lise. Then in
English as Una (a member nowhere): an address not on record gets the same code page, and
"I am not a member" ends the sign-in. axe-core on every page, at 1280 and 320 px."""
import re, time, urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains


def mailed_code(s, recipient):
    def code(_):
        with urllib.request.urlopen(f"{s.BASE}/sandbox/mailbox", timeout=10) as response:
            page = response.read().decode()
        for message in page.split("<li>")[1:]:
            found = re.search(r"<p>(\d{6})</p>", message)
            if recipient in message and found:
                return found.group(1)
        return None
    return s.wait_until(None, code, seconds=10) or s.fail(f"no code was mailed to {recipient}")


def reach_claim_page(s, driver, person, language):
    s.start(driver, language)
    s.press(driver, f"Try it with BankID for {person}", s.href_contains(f"method=bankid&person={person}"))
    s.press(driver, "Approve", lambda e: e.get_attribute("value") == "approve", key=Keys.SPACE)
    if not driver.find_elements(By.CSS_SELECTOR, "form[action='/oauth/claim/email']"):
        s.fail(f"{person}'s sign-in without a member record did not offer the claim: {driver.current_url}")


def type_into(s, driver, field_id, text):
    s.tab_to(driver, f"the {field_id} field", lambda e: e.get_attribute("id") == field_id).send_keys(text)
    s.leave_page(driver, f"Enter in the {field_id} field")


def run(s, driver):
    reach_claim_page(s, driver, "lise", "nb")
    if driver.find_element(By.TAG_NAME, "h1").text != "Vi fant deg ikke":
        s.fail("the claim page does not say we could not find her")
    if driver.find_element(By.ID, "email").get_attribute("autocomplete") != "email":
        s.fail("the email field is not autocomplete=email")
    s.check_page(driver, "claim-email")
    # Review IV item 1: the claim is bound to this browser by an HttpOnly cookie, and goes on with it.
    binding = [c for c in driver.get_cookies() if c["name"].endswith("portvakt_claim")]
    if not binding or not binding[0].get("httpOnly"):
        s.fail("the claim page did not bind the claim to this browser with an HttpOnly cookie")
    type_into(s, driver, "email", "lise@sandbox.portvakt.test")
    if driver.find_element(By.ID, "code").get_attribute("autocomplete") != "one-time-code":
        s.fail("the code field is not autocomplete=one-time-code")
    s.check_page(driver, "claim-code")
    code = mailed_code(s, "lise@sandbox.portvakt.test")
    type_into(s, driver, "code", "000000" if code != "000000" else "111111")
    alerts = driver.find_elements(By.CSS_SELECTOR, "[role=alert]")
    if not alerts or "Feil kode" not in alerts[0].text:
        s.fail("a wrong code is not announced")
    s.check_page(driver, "claim-wrong-code")
    type_into(s, driver, "code", code)
    if not driver.current_url.startswith(f"{s.BASE}/account") or "Lise Berg" not in driver.find_element(By.TAG_NAME, "main").text:
        s.fail(f"the right code did not reach My account as Lise: {driver.current_url}")
    s.press(driver, "Sign out", s.posts_to(driver, "/portal/logout"), backwards=True)

    reach_claim_page(s, driver, "una", "en")
    if driver.find_element(By.TAG_NAME, "h1").text != "We could not find you":
        s.fail("the English claim page is not in English")
    s.check_page(driver, "claim-email")
    type_into(s, driver, "email", "nobody@sandbox.portvakt.test")
    if "If nobody@sandbox.portvakt.test is on a membership" not in driver.find_element(By.TAG_NAME, "main").text:
        s.fail("an address not on record does not get the same code page")
    s.check_page(driver, "claim-code")
    s.press(driver, "I am not a member", s.posts_to(driver, "/oauth/claim/cancel"), key=Keys.SPACE)
    s.check_page(driver, "claim-given-up")

"""The administrator's side of the portal (issue 20), in the same browser suite: `run(suite)`
gets the portal suite's module for its helpers (keyboard, axe, screenshots).

Setup through the APIs: NHF's member system is down (the sandbox's `outage` fault) when Kari
logs in with the CLI and enables biometrics, so her number's delivery gives up after its
attempts; Sofie's Vipps login, matched by phone to a record with another number, is refused and leaves a conflict; a password for NHF's second record
of Kari (an old import) gives her a second account. Then, keyboard only, as Ingrid (NHF admin):
overview → Sofie's open conflict → BankID step-up → reveal → resolve → the audit trail shows it;
Retry now after the fault is cleared → delivered; remove Kari's devices → her CLI unlock is
refused; merge Kari's two accounts → preview → confirm. Invitation to password login. As Ola
(coordinator) the admin pages are 403 pages; as Lars (Blindeforbundet admin) NHF's are 404s.
Bad input (forged CSRF, replayed confirmation, self-merge, closed conflict, paging) is refused
with a 4xx page and changes nothing."""
import json, os, re, subprocess, tempfile, time, urllib.error, urllib.parse, urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from sandbox_login import login, refused_login

ADMIN_TOKEN = os.environ["PORTVAKT_SANDBOX_ADMIN_TOKEN"]
CLI = os.environ["PORTVAKT_CLI"]


def request(s, method, path, body=None, token=None, cookie=None, form=None, origin=None):
    headers = {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    if form is not None:
        data, headers["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if cookie:
        headers["Cookie"] = cookie
    if origin:
        headers["Origin"] = origin
    req = urllib.request.Request(s.BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def member_system_fault(s, fault):
    status, body = request(s, "PUT", "/sandbox/admin/members/nhf", {"fault": fault}, token=ADMIN_TOKEN)
    if status != 200:
        s.fail(f"could not set the member system's fault: {status} {body}")


def cli(home, *args):
    env = dict(os.environ, PORTVAKT_CLI_HOME=home, PORTVAKT_SERVER=BASE_URL)
    done = subprocess.run([CLI, *args, "--json", "--lang", "en"], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    return done.returncode, done.stdout


def setup(s, kari_home):
    member_system_fault(s, "outage")
    # Her record holds another number: the phone match is refused, an open conflict to review.
    if refused_login(s.BASE, "sofie").get("error") != "access_denied":
        s.fail("sofie's phone match with another number was linked")
    code, out = cli(kari_home, "login", "--provider", "vipps", "--user", "kari", "--enable-biometrics")
    if code != 0:
        s.fail(f"kari's CLI login failed: {out}")
    ingrid = login(s.BASE, "ingrid")["access_token"]
    def gave_up(_):
        status, body = request(s, "GET", "/v1/organisations/nhf/outbox?status=dead", token=ingrid)
        return status == 200 and json.loads(body)["messages"]
    if not s.wait_until(None, gave_up, seconds=30):
        s.fail("Kari's delivery never gave up while the member system was down")
    subprocess.run(s.SET_PASSWORD + ["--email", "kari.nordmann@sandbox.portvakt.test"], input=b"second-account-123\n", check=True, capture_output=True)
    # Ingrid signs in with her password, so revealing, resolving and merging need a step-up.
    subprocess.run(s.SET_PASSWORD + ["--email", "ingrid@sandbox.portvakt.test"], input=b"ingrid-password-123\n", check=True, capture_output=True)


def sign_in_with_password(s, driver, email, password):
    driver.delete_all_cookies()
    s.start(driver)
    s.press(driver, "Sign in with email and password", s.href_contains("method=password"))
    s.tab_to(driver, "the email field", lambda e: e.get_attribute("id") == "email").send_keys(email)
    s.tab_to(driver, "the password field", lambda e: e.get_attribute("id") == "password").send_keys(password)
    s.leave_page(driver, "the password sign-in")
    if not driver.current_url.startswith(f"{s.BASE}/account"):
        s.fail(f"the password sign-in did not reach My account: {driver.current_url}")


def main_text(s, driver):
    return " ".join(driver.find_element(By.TAG_NAME, "main").text.split())


def expect(s, driver, text, what):
    if text not in main_text(s, driver):
        s.fail(f"{what}: {text!r} is not on {driver.current_url}: {main_text(s, driver)[:400]!r}")


def sign_in_as(s, driver, person, method):
    driver.delete_all_cookies()
    s.start(driver)
    s.press(driver, f"Try it with {method} for {person}", s.href_contains(f"method={method}&person={person}"))
    s.press(driver, "Approve", lambda e: e.get_attribute("value") == "approve", key=Keys.SPACE)
    if not driver.current_url.startswith(f"{s.BASE}/account"):
        s.fail(f"{person} did not reach My account: {driver.current_url}")


def choose_radio(s, driver, name, matches):
    """Tabs into the radio group, then arrow keys until the matching radio is checked."""
    s.tab_to(driver, f"the {name} choice", lambda e: e.get_attribute("name") == name and e.get_attribute("type") == "radio")
    for _ in range(40):
        element = s.focused(driver)
        if matches(element):
            if not element.is_selected():
                ActionChains(driver).send_keys(Keys.SPACE).perform()
            return
        ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    s.fail(f"no {name} radio matched")


def conflict_flow(s, driver):
    s.press(driver, "Administer NHF", s.href_contains("/admin/nhf"))
    s.check_page(driver, "admin-overview")
    expect(s, driver, "1 åpne konflikter", "the overview counts the open conflict")
    expect(s, driver, "1 oppdateringer til medlemssystemet som ga opp", "the overview counts the dead delivery")
    s.press(driver, "the open conflicts", s.href_contains("outcome=conflict&status=open"))
    s.check_page(driver, "admin-sync")
    s.press(driver, "Sofie's entry", s.href_contains("/admin/nhf/sync/"))
    entry = driver.current_url
    expect(s, driver, "144892*****", "the record's number is masked")
    expect(s, driver, "148892*****", "the login's number is masked")
    if "14489237688" in driver.page_source or "14889235307" in driver.page_source:
        s.fail("a number is in full before the step-up")
    s.check_page(driver, "admin-sync-entry")
    s.press(driver, "Confirm with BankID", s.href_contains("step_up=1"))
    if "/sandbox/" not in driver.current_url:
        s.fail(f"the step-up did not go to BankID: {driver.current_url}")
    s.press(driver, "Approve", lambda e: e.get_attribute("value") == "approve", key=Keys.SPACE)
    if driver.current_url.split("?")[0] != entry.split("?")[0]:
        s.fail(f"after the step-up the browser is at {driver.current_url}, not the entry")
    s.check_page(driver, "admin-sync-entry-stepped-up")
    s.press(driver, "Show the numbers in full", s.posts_to(driver, urllib.parse.urlsplit(entry).path + "/reveal"))
    expect(s, driver, "14489237688", "the record's number after reveal")
    expect(s, driver, "14889235307", "the login's number after reveal")
    if "Numrene vises" not in s.status_text(driver):
        s.fail("revealing is not announced")
    s.check_languages(driver, "admin-sync-revealed")
    # Resolve without a choice: an error summary linked to the field, nothing changed.
    s.press(driver, "Save the choice", s.text_is("Lagre valget"))
    summary = driver.find_elements(By.CSS_SELECTOR, ".error-summary[role=alert] a[href='#keep-member']")
    if not summary:
        s.fail("resolving without a choice shows no error summary linked to the field")
    s.check_languages(driver, "admin-resolve-error")
    driver.get(entry)
    choose_radio(s, driver, "keep", lambda e: e.get_attribute("value") == "login")
    s.press(driver, "Save the choice", s.text_is("Lagre valget"))
    if "Konflikten er løst" not in s.status_text(driver):
        s.fail(f"resolving is not announced: {s.status_text(driver)!r}")
    expect(s, driver, "Løst: tok nummeret fra innloggingen", "the entry says how it was resolved")
    s.check_page(driver, "admin-sync-resolved")
    return entry


def audit_flow(s, driver):
    s.press(driver, "Audit trail", s.href_contains("/admin/nhf/audit"))
    for text in ["Løste en konflikt: tok nummeret fra innloggingen", "Så fødselsnumre i sin helhet", "Kjeden er kontrollert til og med hendelse"]:
        expect(s, driver, text, "the audit trail")
    s.check_page(driver, "admin-audit")


def delivery_flow(s, driver):
    member_system_fault(s, None)
    s.press(driver, "To the member system", s.href_contains("/admin/nhf/deliveries"))
    expect(s, driver, "Ga opp etter 2 forsøk", "the dead delivery")
    expect(s, driver, "Medlemssystemet var utilgjengelig (svarte 503).", "the last error in words")
    s.check_page(driver, "admin-deliveries")
    s.press(driver, "Retry now", lambda e: e.tag_name == "button" and (e.get_attribute("aria-label") or "").startswith("Prøv nå"))
    if "Oppdateringen sendes nå" not in s.status_text(driver):
        s.fail("Retry now is not announced")
    def delivered(_):
        driver.get(f"{s.BASE}/admin/nhf/deliveries")
        return "Levert" in main_text(s, driver)
    if not s.wait_until(driver, delivered, seconds=20):
        s.fail("the retried delivery was never delivered")
    s.check_languages(driver, "admin-deliveries-delivered")
    _, body = request(s, "GET", "/sandbox/admin/members/nhf", token=ADMIN_TOKEN)
    if not json.loads(body)["received"]:
        s.fail("the member system did not receive the retried update")


def devices_flow(s, driver, kari_home):
    s.press(driver, "Members", s.href_contains("/admin/nhf/members"))
    s.check_page(driver, "admin-members")
    link = driver.execute_script(
        "return [...document.querySelectorAll('tbody tr')].find(r => r.innerText.includes('Kari') && r.innerText.includes('Vipps')).querySelector('a').getAttribute('href')")
    s.press(driver, "Kari (Vipps)", s.href_contains(link))
    if not driver.find_elements(By.CSS_SELECTOR, "ul[aria-labelledby=devices] li"):
        s.fail("Kari's phone is not listed")
    s.check_page(driver, "admin-member")
    s.press(driver, "Remove all devices", s.text_is("Fjern alle telefoner"))
    if "Alle telefonene er fjernet" not in s.status_text(driver):
        s.fail("removing the devices is not announced")
    s.check_page(driver, "admin-member-devices-removed")
    code, out = cli(kari_home, "unlock", "--biometric", "pass")
    if code == 0:
        s.fail(f"Kari's CLI still unlocks after her devices were removed: {out}")


def invite_flow(s, driver):
    driver.get(f"{s.BASE}/admin/nhf/members?q=Sofie")
    s.press(driver, "Sofie", lambda e: e.tag_name == "a" and e.text == "Sofie Lien")
    s.press(driver, "Invite to password sign-in", s.text_is("Inviter til innlogging med passord"))
    if "Invitasjonen er sendt på e-post" not in s.status_text(driver):
        s.fail(f"sending the invitation is not announced: {main_text(s, driver)[:500]!r}")
    if "/portal/password/" in driver.page_source:
        s.fail("the invitation link is on the administrator's screen")
    s.check_languages(driver, "admin-invite")
    # The member's mail, as the development server's sandbox mailbox shows it.
    def mailed(_):
        driver.get(f"{s.BASE}/sandbox/mailbox")
        return [e.get_attribute("href") for e in driver.find_elements(By.CSS_SELECTOR, "a[href*='/portal/password/']")]
    links = s.wait_until(driver, mailed, seconds=10)
    if not links:
        s.fail("no invitation reached the sandbox mailbox")
    s.check_page(driver, "sandbox-mailbox")
    return links[0]


def accept_invite(s, driver, link):
    driver.delete_all_cookies()
    driver.get(link)
    s.check_page(driver, "password-invite")
    s.tab_to(driver, "the new password", lambda e: e.get_attribute("id") == "password").send_keys("sofies-password-1")
    s.tab_to(driver, "the repeat", lambda e: e.get_attribute("id") == "repeat").send_keys("sofies-password-2")
    s.leave_page(driver, "a mismatched password")
    if not driver.find_elements(By.CSS_SELECTOR, ".error-summary[role=alert] a[href='#repeat']"):
        s.fail("a mismatched password is not in an error summary linked to the field")
    s.check_languages(driver, "password-invite-error")
    driver.find_element(By.ID, "password").send_keys("sofies-password-1")
    field = driver.find_element(By.ID, "repeat")
    field.send_keys("sofies-password-1")
    s.leave_page(driver, "the new password")
    if "Passordet er lagret" not in driver.find_element(By.TAG_NAME, "h1").text:
        s.fail(f"setting the password did not say so: {main_text(s, driver)[:200]!r}")
    s.check_languages(driver, "password-invite-done")
    driver.get(link)
    if "Lenken virker ikke lenger" not in driver.find_element(By.TAG_NAME, "h1").text:
        s.fail("the invitation link works twice")


def merge_flow(s, driver):
    s.press(driver, "Merge accounts", s.href_contains("/admin/nhf/merge"))
    s.check_page(driver, "admin-merge")
    choose_radio(s, driver, "keep", lambda e: "Kari Nordmann, Vipps" in (e.get_attribute("aria-label") or ""))
    choose_radio(s, driver, "remove", lambda e: "Kari Nordmann, e-post og passord" in (e.get_attribute("aria-label") or ""))
    s.press(driver, "See what moves", s.text_is("Se hva som flyttes"))
    expect(s, driver, "Dette flyttes fra kontoen som slås inn", "the preview")
    s.check_page(driver, "admin-merge-preview")
    form = {e.get_attribute("name"): e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "form[action='/admin/nhf/merge'] input")}
    s.press(driver, "Merge now", s.text_is("Slå sammen nå"))
    if "Kontoene er slått sammen" not in s.status_text(driver):
        s.fail(f"the merge is not announced: {s.status_text(driver)!r}")
    expect(s, driver, "Innlogginger e-post og passord, Vipps", "the kept account has both sign-in methods")
    s.check_page(driver, "admin-merge-done")
    return form


def bad_input(s, driver, entry, merge_form):
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    token = merge_form["csrf"]
    status, body = request(s, "POST", "/admin/nhf/merge", cookie=cookie, form=merge_form)
    if status != 409 or "Ingenting er endret" not in body:
        s.fail(f"a replayed merge confirmation answered {status}")
    status, body = request(s, "POST", "/admin/nhf/merge", cookie=cookie, form=dict(merge_form, remove=merge_form["keep"]))
    if status != 400:
        s.fail(f"a merge of an account with itself answered {status}")
    status, body = request(s, "POST", urllib.parse.urlsplit(entry).path + "/resolve", cookie=cookie, form={"csrf": token, "keep": "member"})
    if status != 409 or "allerede løst" not in body:
        s.fail(f"resolving a closed conflict answered {status}")
    status, body = request(s, "POST", urllib.parse.urlsplit(entry).path + "/resolve", cookie=cookie, form={"csrf": "forged", "keep": "member"})
    if status != 403:
        s.fail(f"a forged CSRF token answered {status}")
    for path in ["/admin/nhf/members?page=99", "/admin/nhf/audit?page=0", "/admin/nhf/sync?page=-1", "/admin/nhf/members?page=x"]:
        status, body = request(s, "GET", path, cookie=cookie)
        if status != 400 or "Den siden finnes ikke" not in body:
            s.fail(f"{path} answered {status}")
    driver.get(f"{s.BASE}/admin/nhf/merge/preview?keep={merge_form['keep']}&remove={merge_form['keep']}")
    if not driver.find_elements(By.CSS_SELECTOR, ".error-summary[role=alert]"):
        s.fail("a preview of an account with itself shows no error summary")
    s.check_languages(driver, "admin-merge-self")


def other_roles(s, driver, sync_entry):
    sign_in_as(s, driver, "ola", "bankid")
    s.press(driver, "Administer NHF (coordinator)", s.href_contains("/admin/nhf/members"))
    if driver.find_elements(By.CSS_SELECTOR, "tbody a"):
        s.fail("a coordinator's member list links to the administrator's member pages")
    s.check_page(driver, "admin-members-coordinator")
    for path in ["/admin/nhf", "/admin/nhf/sync", "/admin/nhf/merge", "/admin/nhf/audit"]:
        driver.get(s.BASE + path)
        if driver.find_element(By.TAG_NAME, "h1").text != "Ikke tilgang":
            s.fail(f"a coordinator on {path} sees {driver.find_element(By.TAG_NAME, 'h1').text!r}")
    s.check_page(driver, "admin-forbidden")
    sign_in_as(s, driver, "lars", "vipps")
    for path in ["/admin/nhf", urllib.parse.urlsplit(sync_entry).path, "/admin/nhf/members"]:
        driver.get(s.BASE + path)
        if driver.find_element(By.TAG_NAME, "h1").text != "Fant ikke siden":
            s.fail(f"Blindeforbundet's administrator on {path} sees {driver.find_element(By.TAG_NAME, 'h1').text!r}")
    s.check_page(driver, "admin-other-organisation")


BASE_URL = None


def run(s, driver):
    global BASE_URL
    BASE_URL = s.BASE
    kari_home = tempfile.mkdtemp(prefix="portvakt-kari-")
    setup(s, kari_home)
    sign_in_with_password(s, driver, "ingrid@sandbox.portvakt.test", "ingrid-password-123")
    entry = conflict_flow(s, driver)
    audit_flow(s, driver)
    delivery_flow(s, driver)
    devices_flow(s, driver, kari_home)
    merge_form = merge_flow(s, driver)
    bad_input(s, driver, entry, merge_form)
    link = invite_flow(s, driver)
    accept_invite(s, driver, link)
    other_roles(s, driver, entry)

#!/usr/bin/env bash
# The web portal in real Chromium (selenium), keyboard only, with axe-core 4.12 on every page
# and state at 1280 and 320 px in Bokmål, Nynorsk and English (scripts/browser/portal_suite.py), on SQLite
# and (when TEST_POSTGRES_URL is set) PostgreSQL. Required when CI=true.
# Screenshots: BROWSER_SCREENSHOTS (default .build/browser-screenshots).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh
shots=${BROWSER_SCREENSHOTS:-$PWD/.build/browser-screenshots}

command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || missing "chromium and chromium-driver"
need_python "selenium, cryptography" scripts/browser/requirements.txt "selenium"
axe=.build/axe/axe_playwright_python/axe.min.js
if [ ! -f "$axe" ]; then
  mkdir -p .build/axe
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip download --quiet --no-deps axe-playwright-python==0.1.8 -d .build/axe || missing "axe-core (axe-playwright-python 0.1.8)"
  python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('axe_playwright_python/axe.min.js', sys.argv[2])" .build/axe/axe_playwright_python-0.1.8-py3-none-any.whl .build/axe
fi
head -c 40 "$axe" | grep -q "axe v4.12" || { echo "browser-test.sh: expected axe-core 4.12" >&2; exit 1; }

# suite NAME SCRIPT HOST [SETTING=VALUE…]: SCRIPT (scripts/browser/) against a new `dev` server
# reached as http://HOST:PORT. The suites' helpers log in as an old app version would (no PAR,
# Bearer tokens) to set the scene; the CLI they drive uses PAR and DPoP.
suite() {
  local name=$1 script=$2 host=$3; shift 3
  local dir; dir=$(mktemp -d)
  local port; port=$(random_port)
  local token="browser-admin-$RANDOM$RANDOM$RANDOM"
  start_server "$dir" "$port" dev PORTVAKT_PUBLIC_URL="http://$host:$port" PORTVAKT_LEGACY_CLIENTS=no.portvakt.app PORTVAKT_BCRYPT_COST=4 PORTVAKT_OUTBOX_MAX_ATTEMPTS=2 PORTVAKT_SANDBOX_ADMIN_TOKEN="$token" "$@" || exit 1
  if [ "$script" = portal_suite.py ]; then
    # HLF's brand, as its operator sets it, for the pages of its own service (relying_party_pages.py).
    env -C "$dir" "$@" "$binary" organisation update hlf --dev --display-name "Hørselshemmedes Landsforbund" --short-name HLF \
      --logo "$PWD/scripts/browser/hlf-logo.svg" --accent-colour '#7a1f5c' >/dev/null || { tail -30 "$dir/log" >&2; stop_server || true; exit 1; }
  fi
  if ! PORTVAKT_SANDBOX_ADMIN_TOKEN="$token" PORTVAKT_CLI="$(dirname "$binary")/portvakt" python3 "scripts/browser/$script" "http://$host:$port" "$PWD/$axe" "$shots/$name" \
      env -C "$dir" "$@" "$binary" set-password --dev; then
    tail -30 "$dir/log" >&2; stop_server || true; exit 1
  fi
  stop_server || true
  if grep -Eq '12438510085|04917912322|02829116912|14489237688|14889235307|23466814679' "$dir/log"; then echo "browser suite ($name): the server logged a personnummer" >&2; exit 1; fi
  rm -rf "$dir"
}

# S18: passkeys need a domain as RP ID, so their suite's server is named http://localhost:PORT,
# as `dev` names itself by default (scripts/browser/passkey_suite.py).
passkeys() {
  local name=$1; shift
  suite "passkeys-$name" passkey_suite.py localhost "$@"
}

if [ -n "${PASSKEYS_ONLY:-}" ]; then passkeys sqlite PORTVAKT_LOG_LEVEL=info; exit 0; fi

# The portal suite's clients: the development app and CLI as `dev` has them, and two web
# applications for the relying parties' own pages (relying_party_pages.py): a third party, which
# asks for consent, and one for HLF's members only, which wears HLF's brand. Their redirect is this server's own 404 page.
clients=$(mktemp)
cat >"$clients" <<'JSON'
{"clients": [
  {"client_id": "no.portvakt.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.portvakt.app:/oauth/callback"],
   "post_logout_redirect_uris": ["no.portvakt.app:/oauth/logout"], "bankid_return_url": ["no.portvakt.app:/bankid/return"],
   "id_token_signed_response_alg": "ES256", "require_pushed_authorization_requests": true, "dpop_bound_access_tokens": true, "portvakt_api": true},
  {"client_id": "portvakt-cli", "token_endpoint_auth_method": "none", "redirect_uris": ["http://127.0.0.1/callback", "http://[::1]/callback"],
   "id_token_signed_response_alg": "ES256", "require_pushed_authorization_requests": true, "dpop_bound_access_tokens": true, "portvakt_api": true},
  {"client_id": "kurs-tredjepart", "client_name": "Kursportalen", "token_endpoint_auth_method": "client_secret_post",
   "client_secret": "browser-suite-secret-0123456789-abcdef", "redirect_uris": ["http://127.0.0.1/relying-party/callback"]},
  {"client_id": "hlf-kurs", "client_name": "HLF-kurs", "token_endpoint_auth_method": "client_secret_post", "first_party": true, "organisations": ["hlf"],
   "client_secret": "browser-suite-secret-0123456789-abcdef", "redirect_uris": ["http://127.0.0.1/relying-party/callback"]}
]}
JSON
trap 'rm -f "$clients"' EXIT

suite sqlite portal_suite.py 127.0.0.1 PORTVAKT_LOG_LEVEL=info PORTVAKT_CLIENTS_FILE="$clients"
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  suite postgres portal_suite.py 127.0.0.1 PORTVAKT_LOG_LEVEL=info PORTVAKT_CLIENTS_FILE="$clients" DATABASE_URL="$(new_postgres_database "portvakt_browser_$$")"
  drop_postgres_database "portvakt_browser_$$"
fi
passkeys sqlite PORTVAKT_LOG_LEVEL=info
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  passkeys postgres PORTVAKT_LOG_LEVEL=info DATABASE_URL="$(new_postgres_database "portvakt_passkeys_$$")"
  drop_postgres_database "portvakt_passkeys_$$"
fi

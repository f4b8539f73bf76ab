#!/usr/bin/env bash
# docs/operations.md, "First start", followed step by step in production mode on PostgreSQL
# (issue 60), with only what it says: the shipped deploy files (portvakt.env.example,
# clients.example.json, portvakt-admin, the unit's credential names), an /etc/portvakt of this
# script's own, and the standalone sandbox standing in for BankID and Vipps (registered as the
# steps say: BankID with the public key `bankid public-key` prints). The service is run as the
# unit runs it: the environment file and the credentials folder (portvakt-admin gives both, as
# systemd's EnvironmentFile= and LoadCredential= do; no systemd runs here). Also: an operator
# command before `migrate` is refused (69); `serve` with the providers away starts and
# /health/ready shows them unreachable; a discovery URL that is not the provider's stops it (78)
# unless --start-without-providers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

[ -n "${TEST_POSTGRES_URL:-}" ] || { echo "first-start test: needs TEST_POSTGRES_URL (scripts/start-postgres.sh)" >&2; exit 1; }
python3 -c "import aiosmtpd" 2>/dev/null || { echo "first-start test: needs aiosmtpd (scripts/smtp/requirements.txt)" >&2; exit 1; }

work=$(mktemp -d /tmp/portvakt-first-start.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
out="" err="" code=0
step() { echo "first start: $*"; }
fail() { echo "first-start test FAILED: $*" >&2; echo "stdout: $out" >&2; echo "stderr: $err" >&2; [ -f "$work/serve.log" ] && tail -20 "$work/serve.log" >&2; exit 1; }

etc="$work/etc/portvakt" credentials="$work/etc/portvakt/credentials"
port=$(random_port) metrics_port=$(random_port) sandbox_port=$(random_port) smtp_port=$(random_port)
public="http://127.0.0.1:$port" sandbox="http://127.0.0.1:$sandbox_port"

# admin ARGS…: `sudo portvakt-admin ARGS` on this script's /etc/portvakt; sets $out, $err, $code.
admin() {
  code=0
  out=$(PORTVAKT_ADMIN_ENV="$etc/portvakt.env" PORTVAKT_ADMIN_CREDENTIALS="$credentials" PORTVAKT_ADMIN_SERVER="$binary" \
    env -u TEST_POSTGRES_URL -u TEST_PG_DIR -u TEST_PG_BINDIR -u TEST_PORTS deploy/portvakt-admin "$@" 2>"$work/stderr" </dev/null) || code=$?
  err=$(cat "$work/stderr")
}
expect() { [ "$code" = "$1" ] || fail "$2: exit $code, expected $1"; step "$2"; }

# 0. The release installed: its semantic version and the commit it was built from.
release=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/PortvaktProtocol/PortvaktVersion.swift)
expected_version="$release"
if commit=$(git rev-parse HEAD 2>/dev/null); then expected_version="$release (commit $commit)"; fi
for program in "$binary" "$(dirname "$binary")/portvakt"; do
  version=$("$program" --version) || fail "$program --version failed"
  [ "$version" = "$expected_version" ] || fail "$(basename "$program") --version printed '$version', expected '$expected_version'"
done
grep -q "^## $release " CHANGELOG.md || fail "CHANGELOG.md has no section for $release"
step "--version: $expected_version"

# 1. Install: the settings file from the example, the credentials folder, the clients file.
mkdir -p "$credentials" "$work/var"; chmod 700 "$credentials"
sed -e "s#^PORTVAKT_PUBLIC_URL=.*#PORTVAKT_PUBLIC_URL=$public#" -e "s#^PORTVAKT_PORT=.*#PORTVAKT_PORT=$port#" \
  -e "s#^PORTVAKT_DATA_DIR=.*#PORTVAKT_DATA_DIR=$work/var#" -e "s#^PORTVAKT_CLIENTS_FILE=.*#PORTVAKT_CLIENTS_FILE=$etc/clients.json#" \
  -e "s#^PORTVAKT_METRICS_PORT=.*#PORTVAKT_METRICS_PORT=$metrics_port#" \
  -e "s#^PORTVAKT_VIPPS_DISCOVERY_URL=.*#PORTVAKT_VIPPS_DISCOVERY_URL=$sandbox/sandbox/vipps/access-management-1.0/access/.well-known/openid-configuration#" \
  -e "s#^PORTVAKT_VIPPS_CLIENT_ID=.*#PORTVAKT_VIPPS_CLIENT_ID=portvakt-vipps#" \
  -e "s#^PORTVAKT_BANKID_DISCOVERY_URL=.*#PORTVAKT_BANKID_DISCOVERY_URL=$sandbox/sandbox/bankid/auth/realms/current/.well-known/openid-configuration#" \
  -e "s#^PORTVAKT_BANKID_CLIENT_ID=.*#PORTVAKT_BANKID_CLIENT_ID=portvakt-bankid#" \
  deploy/portvakt.env.example >"$etc/portvakt.env"
cp deploy/clients.example.json "$etc/clients.json"
step "1. installed: portvakt.env from the example, clients.json, credentials folder"

# 2. Keys.
echo "k1=$(head -c 32 /dev/urandom | base64)" >"$credentials/PORTVAKT_ENCRYPTION_KEYS"
head -c 32 /dev/urandom | base64 >"$credentials/PORTVAKT_INDEX_KEY"
echo "a1=$(head -c 32 /dev/urandom | base64)" >"$credentials/PORTVAKT_AUDIT_KEY"
step "2. keys made"

# 3. Database. Commands before migrate are refused; migrate makes the schema.
new_postgres_database "portvakt_first_start_$$" >"$credentials/DATABASE_URL"
# 4. and 5. need files the unit names; 7 the client's secret. Made before anything reads the settings.
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt >"$credentials/PORTVAKT_BANKID_PRIVATE_KEY"
vipps_secret=$(openssl rand -hex 24); echo "$vipps_secret" >"$credentials/PORTVAKT_VIPPS_CLIENT_SECRET"
portal_secret=$(openssl rand -hex 32); echo "$portal_secret" >"$credentials/medlemsportal-secret"
admin organisation list
expect 69 "3. an operator command before migrate is refused (69)"
grep -qF "portvakt-server migrate" <<<"$err" || fail "the refusal does not say to migrate"
admin migrate
expect 0 "3. migrate made the schema"

# 4. BankID: the public key to hand over, registered at the (sandbox) provider.
admin bankid public-key
expect 0 "4. bankid public-key printed the key to register"
jwks=$out
grep -q '"d"' <<<"$jwks" && fail "the public key holds the private part"
sandbox_token=$(openssl rand -hex 16)
(exec env -i PATH="$PATH" PORTVAKT_PORT="$sandbox_port" PORTVAKT_SANDBOX_ADMIN_TOKEN="$sandbox_token" "$binary" sandbox >"$work/sandbox.log" 2>&1) &
sandbox_pid=$!; pids+=("$sandbox_pid")
[ "$(wait_for_200 "$sandbox/sandbox/bankid/auth/realms/current/.well-known/openid-configuration")" = 200 ] || { cat "$work/sandbox.log" >&2; fail "the sandbox did not start"; }
register() {
  curl -sf -H "Authorization: Bearer $sandbox_token" -H 'Content-Type: application/json' -d "$1" "$sandbox/sandbox/admin/clients" >/dev/null \
    || fail "the provider refused the registration $1"
}
register "$(python3 -c 'import json,sys; print(json.dumps({"provider":"bankid","client_id":"portvakt-bankid","token_endpoint_auth_method":"private_key_jwt","jwks":sys.argv[1],"redirect_uris":[sys.argv[2]+"/oauth/callback/bankid"]}))' "$jwks" "$public")"
step "4. BankID has the client with the public key and the redirect URI"
# 5. Vipps.
register "{\"provider\":\"vipps\",\"client_id\":\"portvakt-vipps\",\"client_secret\":\"$vipps_secret\",\"redirect_uris\":[\"$public/oauth/callback/vipps\"]}"
step "5. Vipps has the client with its secret and the redirect URI"

# 6. Mail.
python3 scripts/smtp-test-server.py "$smtp_port" "$work/maildir" >"$work/smtp.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 100); do [ -f "$work/maildir/ready" ] && break; sleep 0.1; done
[ -f "$work/maildir/ready" ] || fail "the SMTP server did not start"
echo "smtp://127.0.0.1:$smtp_port" >"$credentials/PORTVAKT_SMTP_URL"
echo "PORTVAKT_MAIL_FROM=Portvakt <noreply@example.no>" >>"$etc/portvakt.env"
admin mail test --to ops@example.no
expect 0 "6. mail test: the mail server took it"
python3 -c "import glob,json,sys; m=json.load(open(sorted(glob.glob(sys.argv[1] + '/*.json'))[0])); assert m['rcpt_tos']==['ops@example.no'], m" "$work/maildir" \
  || fail "the test mail did not arrive"

# The unit's credentials are the files the steps made, one for one.
unit_names=$(grep -oE '^LoadCredential=[^:]+' deploy/portvakt.service | cut -d= -f2 | sort)
folder_names=$(ls "$credentials" | sort)
[ "$unit_names" = "$folder_names" ] || fail "the unit loads [$unit_names], the steps made [$folder_names]"
step "7. the unit's LoadCredential lines name exactly the credentials the steps made"

# 9. Start, as the unit starts it: the environment file's settings and the credentials folder
# (EnvironmentFile= and LoadCredential=; portvakt-admin refuses to run serve as root).
unit_serve() { # LOG [ARGS…]: portvakt-server serve in the background; sets $serve_pid
  local log=$1; shift
  (
    while IFS= read -r line; do
      case $line in ''|'#'*) continue ;; esac
      export "${line%%=*}=${line#*=}"
    done <"$etc/portvakt.env"
    exec env -u TEST_POSTGRES_URL -u TEST_PG_DIR -u TEST_PG_BINDIR -u TEST_PORTS CREDENTIALS_DIRECTORY="$credentials" "$binary" serve "$@"
  ) >"$log" 2>&1 &
  serve_pid=$!; pids+=("$serve_pid")
}
admin serve
expect 64 "9. portvakt-admin never runs serve as root"
# With BankID and Vipps away (the sandbox stopped): it starts, says so, and /health/ready shows it.
kill -TERM "$sandbox_pid"; wait "$sandbox_pid" 2>/dev/null || true
unit_serve "$work/serve-away.log"
[ "$(wait_for_200 "$public/health/ready")" = 200 ] || fail "serve with the providers away did not become ready"
ready=$(curl -s "$public/health/ready")
python3 -c "import json,sys; r=json.loads(sys.argv[1]); p=r['providers']; assert p['bankid']['state']=='unreachable' and p['vipps']['state']=='unreachable' and 'detail' not in p['bankid'], r" "$ready" \
  || fail "/health/ready does not show the providers away: $ready"
grep -q "identity provider does not answer" "$work/serve-away.log" || fail "the start did not say BankID is away"
kill -TERM "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
step "9. with BankID and Vipps away it starts anyway, says so, and /health/ready shows them unreachable (no detail)"

(exec env -i PATH="$PATH" PORTVAKT_PORT="$sandbox_port" PORTVAKT_SANDBOX_ADMIN_TOKEN="$sandbox_token" "$binary" sandbox >>"$work/sandbox.log" 2>&1) &
pids+=("$!")
[ "$(wait_for_200 "$sandbox/sandbox/bankid/auth/realms/current/.well-known/openid-configuration")" = 200 ] || fail "the sandbox did not start again"
# The sandbox forgets its clients when it stops: registered again, as at step 4 and 5.
register "$(python3 -c 'import json,sys; print(json.dumps({"provider":"bankid","client_id":"portvakt-bankid","token_endpoint_auth_method":"private_key_jwt","jwks":sys.argv[1],"redirect_uris":[sys.argv[2]+"/oauth/callback/bankid"]}))' "$jwks" "$public")"
register "{\"provider\":\"vipps\",\"client_id\":\"portvakt-vipps\",\"client_secret\":\"$vipps_secret\",\"redirect_uris\":[\"$public/oauth/callback/vipps\"]}"

# A discovery URL that is not the provider's own (its document names another issuer): 78.
cp "$etc/portvakt.env" "$work/portvakt.env.right"
sed -i "s#^PORTVAKT_BANKID_DISCOVERY_URL=.*#&?realm=another#" "$etc/portvakt.env"
unit_serve "$work/serve-wrong.log"
code=0; wait "$serve_pid" || code=$?
err=$(grep -v '^{' "$work/serve-wrong.log" || true)
expect 78 "9. a BankID discovery URL whose document names another issuer stops the start (78)"
grep -qF "BankID (PORTVAKT_BANKID_*) is misconfigured: the discovery document's issuer" <<<"$err" || fail "the refusal does not say why"
unit_serve "$work/serve-anyway.log" --start-without-providers
[ "$(wait_for_200 "$public/health/ready")" = 200 ] || fail "serve --start-without-providers did not become ready"
curl -s "$public/health/ready" | grep -q '"misconfigured"' || fail "/health/ready does not show BankID misconfigured"
kill -TERM "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
cp "$work/portvakt.env.right" "$etc/portvakt.env"
step "9. --start-without-providers starts anyway, and /health/ready says misconfigured"

unit_serve "$work/serve.log"
[ "$(wait_for_200 "$public/health/ready")" = 200 ] || fail "serve did not become ready"
ready=$(curl -s "$public/health/ready")
python3 -c "import json,sys; r=json.loads(sys.argv[1]); assert r['database']=='reachable' and all(p['state']=='reachable' for p in r['providers'].values()), r" "$ready" \
  || fail "/health/ready: $ready"
step "9. serve is ready: the database and both providers reachable"

# 10.–12. Organisation, first administrator, the member system's token.
admin organisation create nhf "Norges Handikapforbund"
expect 0 "10. organisation create nhf"
printf 'external_id,given_name,family_name,email,phone,personnummer,role\nnhf-1001,Una,Utenfor,una@example.no,+4790000011,26449933086,org_admin\n' >"$work/admin.csv"
admin members import --organisation nhf "$work/admin.csv"
expect 0 "11. members import (a dry run)"
admin members import --organisation nhf "$work/admin.csv" --apply
expect 0 "11. members import --apply"
admin scim-token create --organisation nhf --name Medlemsregister
expect 0 "12. scim-token create"
grep -q '^pvscim_' <<<"$out" || fail "no pvscim_ token printed"

# 13. First login: Una with BankID at the organisation's web application (clients.example.json).
jar="$work/cookies"
verifier=$(python3 -c 'import secrets; print(secrets.token_urlsafe(48))')
challenge=$(python3 -c 'import base64,hashlib,sys; print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).rstrip(b"=").decode())' "$verifier")
redirect="https://medlem.nhf.no/auth/callback"
location() { curl -s -o /dev/null -w '%{redirect_url}' -c "$jar" -b "$jar" "$1"; }
to_bankid=$(location "$public/oauth/authorize?client_id=medlemsportal&redirect_uri=$(python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=""))' "$redirect")&response_type=code&scope=openid%20profile&state=first-start-state&nonce=first-start-nonce-0123456789&code_challenge=$challenge&code_challenge_method=S256&idp_hint=bankid")
[[ $to_bankid == "$sandbox/"* ]] || fail "authorize did not send the browser to BankID: $to_bankid"
back=$(location "$to_bankid&sandbox_user=una&sandbox_action=approve")
answer=$(location "$back")
[[ $answer == "$redirect?"* ]] || fail "the login did not come back to the application: $answer"
code_value=$(python3 -c 'import urllib.parse,sys; print(urllib.parse.parse_qs(urllib.parse.urlsplit(sys.argv[1]).query)["code"][0])' "$answer")
tokens=$(curl -s -u "medlemsportal:$portal_secret" -d grant_type=authorization_code -d "code=$code_value" \
  --data-urlencode "redirect_uri=$redirect" -d "code_verifier=$verifier" "$public/oauth/token")
python3 - "$tokens" <<'PY' || fail "the token answer: $tokens"
import base64, json, sys
answer = json.loads(sys.argv[1])
payload = answer["id_token"].split(".")[1]
claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
assert claims["name"] == "Una Utenfor", claims
assert claims["acr"].startswith("urn:bankid"), claims
PY
step "13. Una signed in with BankID at the web application: ID token for Una Utenfor"
admin user find --email una@example.no
expect 0 "13. user find shows her account"
grep -q "^Account " <<<"$out" && grep -q "memberships   nhf org_admin" <<<"$out" || fail "her account is not org_admin of nhf"
grep -q "26449933086" <<<"$out$err" && fail "a personnummer was printed"
grep -q "26449933086" "$work/serve.log" && fail "the server logged a personnummer"

echo "first-start test passed"

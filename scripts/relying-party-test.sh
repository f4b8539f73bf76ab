#!/usr/bin/env bash
# Web applications that are not Portvakt's own sign people in at the server binary: Apache's
# mod_auth_openidc at its defaults, configured only from discovery (the "course site", client
# apache-rp), and a small Python relying party (scripts/relying-party/rp_receiver.py) registered as
# second-rp (first party, back-channel logout), third-party (asks for consent) and hlf-only (HLF's
# members only). scripts/relying-party/flows.py is the browser and the scenario: single sign-on,
# consent, logout everywhere, an organisation-bound client and PKCE downgrades. Afterwards no client
# secret, code or token may be in Portvakt's log.
# Without Apache and mod_auth_openidc it fails under CI=true and warns otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

apache=/usr/sbin/apache2
modules=/usr/lib/apache2/modules
if [ ! -x "$apache" ] || [ ! -e "$modules/mod_auth_openidc.so" ]; then
  missing "apache2 with mod_auth_openidc (Debian: apache2 libapache2-mod-auth-openidc)"
fi
need_python "jwcrypto" scripts/interop/requirements.txt "jwcrypto"

port=$(random_port)
aport=$(random_port)
while [ "$aport" = "$port" ]; do aport=$(random_port); done
rport=$(random_port)
while [ "$rport" = "$port" ] || [ "$rport" = "$aport" ]; do rport=$(random_port); done
issuer="http://127.0.0.1:$port" course="http://127.0.0.1:$aport" rp="http://127.0.0.1:$rport"

random() { python3 -c "import secrets, sys; print(secrets.token_hex(int(sys.argv[1]) // 2))" "$1"; }
apache_secret=$(random 40)
passphrase=$(random 40)
second_secret=$(random 40)
third_secret=$(random 40)
hlf_secret=$(random 40)

dir=$(mktemp -d)    # Portvakt's data, the clients file, the relying party's files
adir=$(mktemp -d)   # Apache's alone: run as root, its children (www-data) read the pages here
apache_pid="" rp_pid=""
cleanup() {
  local pid
  for pid in $rp_pid $apache_pid; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  stop_server 2>/dev/null || true
  rm -rf "$dir" "$adir"
}
trap cleanup EXIT
show_logs() {
  echo "--- Portvakt's log" >&2; cat "$dir/log" >&2 || true
  echo "--- Apache's error log" >&2; cat "$adir/apache-start.log" "$adir/apache-error.log" >&2 2>/dev/null || true
  echo "--- the relying party's log" >&2; cat "$dir/rp.log" >&2 2>/dev/null || true
}
fail() { echo "relying-party: FAIL $1" >&2; show_logs; exit 1; }

cat >"$dir/clients.json" <<JSON
{"clients": [
  {"client_id": "apache-rp", "client_name": "Course site (Apache)", "token_endpoint_auth_method": "client_secret_basic",
   "client_secret": "$apache_secret", "redirect_uris": ["$course/protected/redirect_uri"],
   "post_logout_redirect_uris": ["$course/loggedout.html"], "scope": "openid profile email", "first_party": true},
  {"client_id": "second-rp", "client_name": "Second service", "token_endpoint_auth_method": "client_secret_post",
   "client_secret": "$second_secret", "redirect_uris": ["$rp/cb"], "first_party": true,
   "backchannel_logout_uri": "$rp/backchannel"},
  {"client_id": "third-party", "client_name": "Third party", "token_endpoint_auth_method": "client_secret_post",
   "client_secret": "$third_secret", "redirect_uris": ["$rp/cb3"], "scope": "openid profile email organisations"},
  {"client_id": "hlf-only", "client_name": "HLF's service", "token_endpoint_auth_method": "client_secret_post",
   "client_secret": "$hlf_secret", "redirect_uris": ["$rp/cb4"], "first_party": true, "organisations": ["hlf"]}
]}
JSON
# mod_auth_openidc sends no PKCE by default before 2.4.15 (Debian 12 has 2.4.12), S256 from then on.
oidc_version=$(dpkg-query -W -f '${Version}' libapache2-mod-auth-openidc 2>/dev/null || true)
if [ -z "$oidc_version" ]; then apache_pkce=unknown
elif dpkg --compare-versions "$oidc_version" lt 2.4.15; then apache_pkce=none
else apache_pkce=S256
fi
cat >"$dir/relying-party.json" <<JSON
{"issuer": "$issuer", "apache": "$course", "apache_pkce": "$apache_pkce", "rp": "$rp",
 "clients": {
   "second-rp": {"secret": "$second_secret", "redirect_uri": "$rp/cb"},
   "third-party": {"secret": "$third_secret", "redirect_uri": "$rp/cb3"},
   "hlf-only": {"secret": "$hlf_secret", "redirect_uri": "$rp/cb4"}},
 "secrets_file": "$dir/rp-secrets", "browser_secrets_file": "$dir/browser-secrets"}
JSON
: >"$dir/rp-secrets"; : >"$dir/browser-secrets"
start_server "$dir" "$port" dev PORTVAKT_CLIENTS_FILE="$dir/clients.json" || exit 1

# Apache: its own configuration, modules loaded one by one, listening on the loopback port only.
# mod_unixd (User, Group) is built into Debian's apache2.
mkdir -p "$adir/htdocs/protected" "$adir/run"
echo '<!doctype html><title>Course site</title><p>Welcome to the course site.</p>' >"$adir/htdocs/index.html"
echo '<!doctype html><title>Course site</title><h1>Course site</h1><p>Your courses.</p>' >"$adir/htdocs/protected/index.html"
echo '<!doctype html><title>Signed out</title><h1>Signed out</h1><p>You have signed out of the course site.</p>' >"$adir/htdocs/loggedout.html"
run_as=""
if [ "$(id -u)" = 0 ]; then
  user=www-data; id -u "$user" >/dev/null 2>&1 || user=nobody
  run_as="User $user
Group $(id -gn "$user")"
  chmod -R a+rX "$adir"
fi
cat >"$adir/httpd.conf" <<CONF
ServerRoot "$adir"
ServerName 127.0.0.1:$aport
Listen 127.0.0.1:$aport
PidFile "$adir/run/httpd.pid"
DefaultRuntimeDir "$adir/run"
Mutex file:$adir/run default
ErrorLog "$adir/apache-error.log"
LogLevel warn auth_openidc:debug
$run_as

LoadModule mpm_event_module $modules/mod_mpm_event.so
LoadModule authn_core_module $modules/mod_authn_core.so
LoadModule authz_core_module $modules/mod_authz_core.so
LoadModule authz_user_module $modules/mod_authz_user.so
LoadModule dir_module $modules/mod_dir.so
LoadModule mime_module $modules/mod_mime.so
LoadModule auth_openidc_module $modules/mod_auth_openidc.so

StartServers 1
MinSpareThreads 1
MaxSpareThreads 16
ThreadsPerChild 8
MaxRequestWorkers 16
TypesConfig /dev/null
AddType text/html .html
DocumentRoot "$adir/htdocs"
DirectoryIndex index.html
<Directory "$adir/htdocs">
  Require all granted
</Directory>

OIDCProviderMetadataURL $issuer/.well-known/openid-configuration
OIDCClientID apache-rp
OIDCClientSecret $apache_secret
OIDCRedirectURI $course/protected/redirect_uri
OIDCCryptoPassphrase $passphrase
OIDCScope "openid profile"
OIDCInfoHook iat access_token id_token userinfo session
<Location /protected>
  AuthType openid-connect
  Require valid-user
</Location>
CONF
chmod 600 "$adir/httpd.conf"
"$apache" -t -f "$adir/httpd.conf" >"$adir/apache-start.log" 2>&1 || fail "Apache refused its configuration"
"$apache" -f "$adir/httpd.conf" -DFOREGROUND >>"$adir/apache-start.log" 2>&1 &
apache_pid=$!
[ "$(wait_for_200 "$course/index.html")" = 200 ] || fail "Apache did not answer $course/index.html with 200"

python3 scripts/relying-party/rp_receiver.py "$dir/relying-party.json" >>"$dir/rp.log" 2>&1 &
rp_pid=$!
[ "$(wait_for_200 "$rp/health")" = 200 ] || fail "the relying party did not answer $rp/health with 200"

echo "relying-party: $("$apache" -v | head -1), mod_auth_openidc ${oidc_version:-(version unknown)}"
python3 scripts/relying-party/flows.py "$dir/relying-party.json" || fail "the scenario stopped (above)"

# g. Nothing a client proves itself with, and nothing it was handed, in Portvakt's log.
{ printf '%s\n' "$apache_secret" "$second_secret" "$third_secret" "$hlf_secret"; cat "$dir/rp-secrets" "$dir/browser-secrets"; } \
  | grep -v '^$' | sort -u >"$dir/needles"
grep -q '^eyJ' "$dir/needles" || fail "g. the relying party recorded no token to look for"
if grep -qF -f "$dir/needles" "$dir/log"; then
  fail "g. a client secret, code or token reached Portvakt's log (lines $(grep -nF -f "$dir/needles" "$dir/log" | cut -d: -f1 | paste -sd, -))"
fi
echo "ok   g. no client secret, code, ID token, access or refresh token or logout token in Portvakt's log ($(wc -l <"$dir/needles") looked for)"

#!/usr/bin/env bash
# DATABASE_URL means what it means to libpq and psql (issue 60, item 1), against a real
# PostgreSQL with ssl=on and certificates this script makes with openssl: a CA, a server
# certificate naming only "localhost", a client certificate, and a second CA that signed nothing
# here. Each case runs the real binary (`portvakt-server migrate --dev`) and checks its exit code
# and its one line: disable refused by pg_hba.conf's hostssl, prefer and require (encrypt, no
# check), verify-ca without sslrootcert (the system's store), with the right and the wrong CA,
# verify-full by name and by address, a client certificate (pg_hba.conf `cert`) and its absence,
# the Unix socket (host=/folder), and the refusals before any connection (an unknown parameter,
# allow, an unreadable sslrootcert, a pool size of 0). No password is ever printed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

bindir=${TEST_PG_BINDIR:-}
if [ -z "$bindir" ]; then
  for candidate in /usr/lib/postgresql/*/bin; do [ -x "$candidate/initdb" ] && bindir=$candidate; done
fi
[ -x "$bindir/initdb" ] || { echo "postgres-tls test: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }

work=$(mktemp -d /tmp/portvakt-pg-tls.XXXXXX)
as_postgres=()
if [ "$(id -u)" = 0 ]; then as_postgres=(runuser -u postgres --); chown postgres "$work"; fi
cleanup() {
  "${as_postgres[@]}" "$bindir/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

out="" err="" code=0
fail() { echo "postgres-tls test FAILED: $*" >&2; echo "stdout: $out" >&2; echo "stderr: $err" >&2; exit 1; }

# Certificates: a CA, the server's (localhost only), a client's for the role certuser, and a
# CA that signed none of them.
certs="$work/certs"; mkdir -p "$certs"
make_ca() { openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$2" -keyout "$certs/$1.key" -out "$certs/$1.crt" 2>/dev/null; }
make_ca ca "Portvakt test CA"
make_ca other-ca "Somebody else's CA"
sign() { # NAME CN [EXTENSIONS]
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$certs/$1.key" -out "$certs/$1.csr" 2>/dev/null
  printf '%s\n' "${3:-basicConstraints=CA:FALSE}" >"$certs/$1.ext"
  openssl x509 -req -in "$certs/$1.csr" -CA "$certs/ca.crt" -CAkey "$certs/ca.key" -CAcreateserial -days 2 \
    -extfile "$certs/$1.ext" -out "$certs/$1.crt" 2>/dev/null
}
sign server localhost "subjectAltName=DNS:localhost"
sign client certuser
chmod 600 "$certs"/*.key
[ "$(id -u)" = 0 ] && chown -R postgres "$certs"
# The client's key is read by this user, as a service reads its own.
cp "$certs/client.key" "$work/client.key"; chmod 600 "$work/client.key"

port=${TEST_PG_TLS_PORT:-54400}
while port_in_use "$port"; do port=$((port + 1)); done
mkdir -p "$work/sock"; [ "$(id -u)" = 0 ] && chown postgres "$work/sock"
"${as_postgres[@]}" "$bindir/initdb" -D "$work/data" --auth=trust -N -U postgres >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; exit 1; }
cat >"$work/pg_hba.conf" <<EOF
local     all all                    trust
hostssl   all certuser 127.0.0.1/32  cert
hostssl   all certuser ::1/128       cert
hostssl   all all      127.0.0.1/32  trust
hostssl   all all      ::1/128       trust
EOF
[ "$(id -u)" = 0 ] && chown postgres "$work/pg_hba.conf"
"${as_postgres[@]}" "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 -o "-c listen_addresses=127.0.0.1,::1 -p $port \
  -k $work/sock -c fsync=off -c ssl=on -c ssl_cert_file=$certs/server.crt -c ssl_key_file=$certs/server.key \
  -c ssl_ca_file=$certs/ca.crt -c hba_file=$work/pg_hba.conf" start >/dev/null || { cat "$work/server.log" >&2; exit 1; }
psql_local() { "$bindir/psql" -h "$work/sock" -p "$port" -U postgres -qAt "$@"; }
psql_local -c "CREATE ROLE certuser LOGIN PASSWORD 'secretpw-not-printed'" -c "CREATE DATABASE certdb OWNER certuser" >/dev/null

# migrate URL [SETTING=VALUE…]: `portvakt-server migrate --dev` on URL; sets $out, $err, $code.
migrate() {
  local url=$1; shift
  code=0
  out=$(env PORTVAKT_DATA_DIR="$work/portvakt" PORTVAKT_DATABASE_WAIT_SECONDS=0 DATABASE_URL="$url" "$@" \
    "$binary" migrate --dev 2>"$work/stderr" </dev/null) || code=$?
  err=$(grep -v '^\(\[\|[0-9]\{4\}-\)' "$work/stderr" || true)
  if grep -q "secretpw" "$work/stderr" || grep -q "secretpw" <<<"$out"; then fail "a password was printed"; fi
}
# expect CODE WHAT [TEXT]: the last run exited with CODE and said TEXT in one line.
expect() {
  [ "$code" = "$1" ] || fail "$2: exit $code, expected $1"
  if [ -n "${3:-}" ]; then
    grep -qF -- "$3" <<<"$err" || fail "$2: expected '$3'"
    [ "$(grep -c '^portvakt-server:' <<<"$err")" = 1 ] || fail "$2: not one line"
  fi
  echo "postgres-tls: $2"
}

base="postgres://postgres@127.0.0.1:$port/postgres"
migrate "$base?sslmode=disable"
expect 69 "sslmode=disable: the server's hostssl refuses plain text, and says why" "no pg_hba.conf entry"
migrate "$base?sslmode=prefer"
expect 0 "sslmode=prefer encrypts without checking the certificate"
migrate "$base?sslmode=require"
expect 0 "sslmode=require encrypts without checking the certificate (Debian's self-signed default)"
migrate "$base?sslmode=verify-ca"
expect 78 "verify-ca without sslrootcert is refused (a public CA would pass it)" "sslmode=verify-ca without sslrootcert"
migrate "postgres://postgres@localhost:$port/postgres?sslmode=verify-full"
expect 69 "verify-full without sslrootcert checks against the system's store" "not signed by a CA this system trusts"
migrate "$base?sslmode=verify-ca&sslrootcert=$certs/ca.crt"
expect 0 "verify-ca with the CA that signed the server's certificate"
migrate "$base?sslmode=verify-ca&sslrootcert=$certs/other-ca.crt"
expect 69 "verify-ca with another CA" "not signed by the CA in sslrootcert $certs/other-ca.crt"
migrate "$base?sslmode=require&sslrootcert=$certs/other-ca.crt"
expect 69 "require with sslrootcert checks the chain, as libpq does" "not signed by the CA in sslrootcert"
migrate "postgres://postgres@localhost:$port/postgres?sslmode=verify-full&sslrootcert=$certs/ca.crt"
expect 0 "verify-full by the name the certificate carries"
migrate "$base?sslmode=verify-full&sslrootcert=$certs/ca.crt"
expect 69 "verify-full by an address the certificate does not name" "does not name 127.0.0.1"

certbase="postgres://certuser:secretpw-not-printed@127.0.0.1:$port/certdb"
migrate "$certbase?sslmode=verify-full&sslrootcert=$certs/ca.crt&host=localhost&sslcert=$certs/client.crt&sslkey=$work/client.key"
expect 0 "a client certificate (pg_hba.conf cert), with sslcert and sslkey"
migrate "$certbase?sslmode=require"
expect 69 "the same role without a client certificate" "refused user certuser"

migrate "postgres:///postgres?host=$work/sock&port=$port&user=postgres"
expect 0 "host=/folder is the Unix-domain socket in it, as for psql"
migrate "postgres:///postgres?host=$work/nowhere&port=$port&user=postgres"
expect 69 "a socket folder without the socket" "no such file"

migrate "$base?sslmode=require&sslcompression=1"
expect 78 "an unknown parameter is refused by name" "has the parameter sslcompression, which Portvakt does not read"
migrate "$base?sslmode=allow"
expect 78 "sslmode=allow is refused" "sslmode=allow"
migrate "$base?sslmode=verify-ca&sslrootcert=$work/missing.crt"
expect 78 "an unreadable sslrootcert is refused before connecting" "cannot be read as PEM certificates"
migrate "$base?sslmode=require&sslcert=$certs/client.crt"
expect 78 "sslcert without sslkey" "needs sslcert and sslkey together"
migrate "$base?sslmode=require" PORTVAKT_DATABASE_POOL_SIZE=0
expect 78 "a pool of no connections" "PORTVAKT_DATABASE_POOL_SIZE"
migrate "$base?sslmode=require" PORTVAKT_DATABASE_POOL_SIZE=4
expect 0 "a pool of 4 connections"

echo "postgres-tls test passed"

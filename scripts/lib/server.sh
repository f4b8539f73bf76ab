# Sourced by the test scripts: the server binary, starting it on a loopback port, and throwaway
# PostgreSQL databases on TEST_POSTGRES_URL.
source "$(dirname "${BASH_SOURCE[0]}")/../wait-for-200.sh"
source "$(dirname "${BASH_SOURCE[0]}")/ports.sh"
binary=$(swift build --show-bin-path)/portvakt-server
[ -x "$binary" ] || swift build --product portvakt-server

server_pid=""


# start_server DIR PORT COMMAND [SETTING=VALUE…]: `portvakt-server COMMAND` in DIR (its log in
# DIR/log, appended); sets $server_pid; returns 1, after printing the log, unless /health/ready
# answers 200 within 30 seconds.
start_server() {
  local dir=$1 port=$2 command=$3; shift 3
  # The scripts talk to 127.0.0.1, so the server is named so unless a caller says otherwise
  # (`dev` alone names itself http://localhost:PORT, the RP ID passkeys need).
  (cd "$dir" && exec env PORTVAKT_PUBLIC_URL="http://127.0.0.1:$port" "$@" PORTVAKT_PORT="$port" "$binary" "$command" >>"$dir/log" 2>&1) &
  server_pid=$!
  if [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" != 200 ]; then
    cat "$dir/log" >&2
    return 1
  fi
}

# stop_server: SIGTERM, then waits; returns the server's exit code.
stop_server() {
  local code=0
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid"; wait "$server_pid" || code=$?
  server_pid=""
  return "$code"
}

# new_postgres_database NAME: creates NAME on TEST_POSTGRES_URL and prints its URL.
new_postgres_database() {
  "${TEST_PG_BINDIR:+$TEST_PG_BINDIR/}psql" "$TEST_POSTGRES_URL" -qc "CREATE DATABASE $1" >/dev/null
  echo "$TEST_POSTGRES_URL" | sed "s#/postgres?#/$1?#"
}

drop_postgres_database() {
  "${TEST_PG_BINDIR:+$TEST_PG_BINDIR/}psql" "$TEST_POSTGRES_URL" -qc "DROP DATABASE $1 WITH (FORCE)" >/dev/null
}

# missing WHAT: without WHAT the script cannot check anything: a failure when CI=true, else a
# warning and a clean exit.
missing() {
  local script; script=$(basename "$0")
  if [ "${CI:-}" = "true" ]; then echo "$script: $1 is required when CI=true" >&2; exit 1; fi
  echo "$script: WARNING: no $1; this check did not run" >&2
  exit 0
}

# need_python "MODULE, …" REQUIREMENTS WHAT: imports the modules, or installs REQUIREMENTS from PyPI, or `missing WHAT`.
need_python() {
  python3 -c "import $1" 2>/dev/null && return 0
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet -r "$2" || missing "$3"
}

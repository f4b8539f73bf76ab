#!/usr/bin/env bash
# Checks the deployment files: the systemd unit with `systemd-analyze verify` (required when
# CI=true; .ci/run installs systemd), that the Containerfile runs as a non-root user with a
# health check on /health/ready and its metrics reachable by a scraper, and the alert rules with
# `promtool check rules` and `promtool test rules` (Debian `prometheus`; required when CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

if command -v systemd-analyze >/dev/null 2>&1; then
  dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
  # The unit as shipped, pointing at the binary just built.
  sed "s#/usr/local/bin/portvakt-server#$binary#g" deploy/portvakt.service >"$dir/portvakt.service"
  if ! out=$(systemd-analyze verify "$dir/portvakt.service" 2>&1); then
    echo "deploy check: systemd-analyze verify failed:" >&2; echo "$out" >&2; exit 1
  fi
  if [ -n "$out" ]; then echo "deploy check: systemd-analyze verify warned:" >&2; echo "$out" >&2; exit 1; fi
  security=$(systemd-analyze security --offline=true "$dir/portvakt.service" 2>/dev/null | tail -1 | sed 's/→ //' || true)
  echo "deploy check: systemd unit verified${security:+; $security}"
elif [ "${CI:-}" = "true" ]; then
  echo "deploy check: systemd-analyze is required when CI=true" >&2; exit 1
else
  echo "deploy check: WARNING: no systemd-analyze; the unit was not verified" >&2
fi

grep -Eq '^USER [1-9][0-9]*' deploy/Containerfile || { echo "deploy check: the Containerfile must run as a non-root user" >&2; exit 1; }
grep -A1 '^HEALTHCHECK' deploy/Containerfile | grep -q '/health/ready' || { echo "deploy check: the Containerfile needs a health check on /health/ready" >&2; exit 1; }
grep -q '^FROM .* AS build' deploy/Containerfile || { echo "deploy check: the Containerfile must build in a stage of its own" >&2; exit 1; }
echo "deploy check: Containerfile is multi-stage, non-root, with a health check"
# SwiftPM reads every target's folder when it loads the manifest: the build stage needs them all.
for folder in Sources Tests Plugins $(grep -oE 'path: "[^/"]+' Package.swift | cut -d'"' -f2 | sort -u); do
  [ ! -d "$folder" ] || grep -q "^COPY $folder \./$folder\$" deploy/Containerfile \
    || { echo "deploy check: the Containerfile's build stage must COPY $folder (a folder Package.swift's targets are in)" >&2; exit 1; }
done
echo "deploy check: the Containerfile copies every folder Package.swift's targets are in"
# A deployment says production, so `portvakt-server dev` (which seeds test people) refuses to run there.
for file in deploy/portvakt.env.example deploy/Containerfile; do
  grep -Eq '(^|[ =])PORTVAKT_ENV=production( |$)' "$file" || { echo "deploy check: $file must set PORTVAKT_ENV=production" >&2; exit 1; }
done
grep -q '^EnvironmentFile=/etc/portvakt/portvakt.env$' deploy/portvakt.service || { echo "deploy check: the unit must read /etc/portvakt/portvakt.env" >&2; exit 1; }
echo "deploy check: every deployment sets PORTVAKT_ENV=production (the unit through portvakt.env)"
grep -q 'PORTVAKT_METRICS_HOST=0.0.0.0' deploy/Containerfile && grep -Eq '^EXPOSE .*\b9464\b' deploy/Containerfile \
  || { echo "deploy check: the Containerfile must serve /metrics on 9464 to the container network" >&2; exit 1; }
echo "deploy check: the container's /metrics is reachable by a scraper on port 9464"

if command -v promtool >/dev/null 2>&1; then
  (cd deploy && promtool check rules prometheus-rules.yml && promtool test rules prometheus-rules.test.yml) >/dev/null \
    || { (cd deploy && promtool check rules prometheus-rules.yml; promtool test rules prometheus-rules.test.yml) >&2; exit 1; }
  # Every metric an alert names is one Portvakt writes (or Prometheus's own `up`).
  for metric in $(grep -oE 'portvakt_[a-z_]+' deploy/prometheus-rules.yml | sed -E 's/_(bucket|count|sum)$//' | sort -u); do
    grep -rqF "\"$metric\"" Sources || { echo "deploy check: the alert rules name $metric, which Portvakt does not write" >&2; exit 1; }
  done
  echo "deploy check: the alert rules are valid, fire in their unit tests, and name only Portvakt's metrics"
elif [ "${CI:-}" = "true" ]; then
  echo "deploy check: promtool (Debian prometheus) is required when CI=true" >&2; exit 1
else
  echo "deploy check: WARNING: no promtool; the alert rules were not checked" >&2
fi

# docs/operations.md's commands table and the binary agree (issue 60, item 6): each command
# `portvakt-server --help` lists (and each of its subcommands) has a row, and each row's command exists.
subcommands() { "$binary" "$@" --help 2>/dev/null | awk '/^SUBCOMMANDS:/{f=1; next} f && /^  [a-z]/{print $1} f && /^$/{if (seen) exit} f{seen=1}'; }
table=$(grep '^| `' docs/operations.md)
top=$(subcommands)
[ -n "$top" ] || { echo "deploy check: portvakt-server --help lists no commands" >&2; exit 1; }
for command in $top; do
  [ "$command" = help ] && continue
  rows=$(grep -F "portvakt-server $command" <<<"$table") || { echo "deploy check: docs/operations.md has no row for portvakt-server $command" >&2; exit 1; }
  for sub in $(subcommands "$command"); do
    [ "$sub" = help ] && continue
    grep -qE "(^|[^a-z-])$sub([^a-z-]|$)" <<<"$rows" || { echo "deploy check: docs/operations.md does not name portvakt-server $command $sub" >&2; exit 1; }
  done
done
for command in $(grep -oE '`(echo [^`]*\| )?portvakt-server [a-z][a-z-]*' <<<"$table" | grep -oE 'portvakt-server [a-z][a-z-]*' | cut -d' ' -f2 | sort -u); do
  grep -qxF -- "$command" <<<"$top" || { echo "deploy check: docs/operations.md names portvakt-server $command, which does not exist" >&2; exit 1; }
done
echo "deploy check: docs/operations.md's commands table names every command and subcommand, and only those"

# The operator's path: portvakt-admin with the unit's environment file and credentials folder
# (docs/operations.md, "First start"; scripts/first-start-test.sh follows all of it).
grep -q '^EnvironmentFile=/etc/portvakt/portvakt.env$' deploy/portvakt.service \
  && grep -q 'env_file=/etc/portvakt/portvakt.env credentials=/etc/portvakt/credentials' deploy/portvakt-admin \
  || { echo "deploy check: portvakt-admin and the unit must read the same environment file and credentials folder" >&2; exit 1; }
for name in $(grep -oE '^LoadCredential=[^:]+:[^ ]+' deploy/portvakt.service | cut -d= -f2); do
  [ "${name#*:}" = "/etc/portvakt/credentials/${name%%:*}" ] || { echo "deploy check: the credential ${name%%:*} is not /etc/portvakt/credentials/${name%%:*}" >&2; exit 1; }
done
! grep -qE '^Environment=' deploy/portvakt.service || { echo "deploy check: settings belong in portvakt.env (portvakt-admin reads it), not in Environment=" >&2; exit 1; }
echo "deploy check: the unit and portvakt-admin read the same settings and credentials"

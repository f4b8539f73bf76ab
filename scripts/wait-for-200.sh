# Sourced by the test scripts. wait_for_200 URL: polls every half second for up to 30 seconds and
# prints the last HTTP status (200 when the server answered in time, 000 when it never did).
wait_for_200() {
  local status=000
  for _ in $(seq 1 60); do
    status=$(curl -s -o /dev/null -w '%{http_code}' "$1" || true)
    [ "$status" = 200 ] && break
    sleep 0.5
  done
  echo "$status"
}

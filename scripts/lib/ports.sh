# Sourced by the test scripts.

# port_in_use PORT: something listens on PORT on 127.0.0.1.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# random_port: a loopback port nothing listens on, from the 10,000 starting at TEST_PORTS
# (20000 by default; scripts/test.sh gives its two lanes apart ranges).
random_port() {
  local base=${TEST_PORTS:-20000} port
  while :; do
    port=$((base + RANDOM % 10000))
    port_in_use "$port" || { echo "$port"; return; }
  done
}

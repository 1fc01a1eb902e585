#!/usr/bin/env bash
# On a slave machine: starts one jmeter-server from a JMeter 5.6 home with the dsload bundle
# installed, reachable by the master at <address>:1099 (registry) and <address>:4000 (engine).
# The folder given as KEYSTORE_DIR (default: this script's folder) must hold the master's
# rmi_keystore.jks and rmi_keystore.properties.
#   JMETER_HOME=/opt/apache-jmeter-5.6.3 remote-servers/start-slave.sh <this host's address> [--no-ssl]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ]; then
  echo "usage: JMETER_HOME=<home> $0 <this host's address> [dsload slaves start options]" >&2
  exit 2
fi
address="$1"
shift
home="${JMETER_HOME:?set JMETER_HOME to the JMeter home with the dsload bundle installed}"
jar="$(ls "$home"/lib/ext/dsload-*.jar 2>/dev/null | head -n 1 || true)"
if [ -z "$jar" ]; then
  echo "No dsload jar in $home/lib/ext: install the jmeter-plugins/ bundle first (see jmeter-plugins/README.md)." >&2
  exit 1
fi
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -jar "$jar" slaves start --address "$address" --jmeter-home "$home" \
  --remote-dir "${KEYSTORE_DIR:-$here}" "$@"

#!/usr/bin/env bash
# Starts N jmeter-server slaves on this machine (127.0.0.2, 127.0.0.3 ...), default 2, from the
# build's JMeter home. Their addresses go to remote-servers/local.hosts, their PIDs to
# remote-servers/slaves.pid. Then: bin/dsload run <plan.jmx> --hosts-file remote-servers/local.hosts
#   remote-servers/start-local-slaves.sh [N] [--no-ssl] [--heap 1g] [--logs <dir>]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count="${1:-2}"
shift || true
exec "$root/bin/dsload" slaves start -n "$count" "$@"

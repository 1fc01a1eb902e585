#!/usr/bin/env bash
# Stops the slaves start-local-slaves.sh started, by the PIDs in remote-servers/slaves.pid.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$root/bin/dsload" slaves stop "$@"

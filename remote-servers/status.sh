#!/usr/bin/env bash
# Whether the slaves of remote-servers/slaves.pid run and accept connections (exit 1 if one does not).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$root/bin/dsload" slaves status "$@"

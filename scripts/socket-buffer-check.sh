#!/usr/bin/env bash
# Measures on this machine's kernel what the hackbench model assumes of a Unix stream socket (a capacity of 278
# 100-byte messages with net.core.wmem_default 212992; a blocked writer woken once 69 are left):
# scripts/kernel/unix-socket-buffer.c. Needs gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp); trap 'rm -f "$out"' EXIT
gcc -O2 -pthread -o "$out" scripts/kernel/unix-socket-buffer.c
echo "net.core.wmem_default: $(cat /proc/sys/net/core/wmem_default); kernel $(uname -r)"
"$out"

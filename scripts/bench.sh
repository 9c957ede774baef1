#!/usr/bin/env bash
# The benchmark (issues #7, #17): builds the release binary and the dump generator, then
# times describe, blast-radius and get -A, with each one's peak RSS, on synthetic clusters
# of 20,000 and 50,000 routes against Python's json.load of the same dumps. Needs python3.
# Not a test.
#   scripts/bench.sh [--routes 20000,50000] [--reps 5] [--seed 7] [--no-live]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin kubectl-policies --example synth --example live_bench
exec python3 scripts/bench.py "$@"

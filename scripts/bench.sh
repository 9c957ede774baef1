#!/usr/bin/env bash
# The benchmark (issue #7): builds the release binary and the dump generator, then times
# describe, blast-radius and get -A on synthetic clusters of 10,000 and 20,000 routes
# against Python's json.load of the same dumps. Needs python3. Not a test.
#   scripts/bench.sh [--routes 10000,20000] [--reps 5] [--seed 7]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin kubectl-policies --example synth --example live_bench
exec python3 scripts/bench.py "$@"

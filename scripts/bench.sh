#!/usr/bin/env bash
# The benchmark (issues #7, #17, #42): builds the release binary and the dump generator, then
# times describe, blast-radius and get -A, with each one's peak RSS, on synthetic clusters
# of 20,000 and 50,000 routes against Python's json.load of the same dumps; then get -A,
# describe and blast-radius on many policies of one target (issue #27: 5,000 and 10,000
# merging RateLimitPolicies on a Gateway, 10,000 and 20,000 conflicting BackendTLSPolicies
# on a Service); then diff of two 20,000-route dumps that differ in one policy and one
# route beside get -A of one (issue #42). Needs python3. Not a test.
#   scripts/bench.sh [--routes 20000,50000] [--reps 5] [--seed 7] [--no-live]
#                    [--no-routes] [--no-one-target] [--no-diff]
# Timing another build without building (figures of a dev build are ratios only):
#   python3 scripts/bench.py --bin target/debug/kubectl-policies --no-routes
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin kubectl-policies --example synth --example live_bench
exec python3 scripts/bench.py "$@"

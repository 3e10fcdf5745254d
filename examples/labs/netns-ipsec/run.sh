#!/usr/bin/env bash
# Seed 001's ESP suite matrix (make demo-ipsec): brings up host a — router r1
# — router r2 — host b (each router with its own strongSwan charon), runs
# ipsec.tftest.hcl (four suites, each applied to both routers, benchmarked
# through the tunnel, asserted on and archived), then prints the archive's
# comparison table. Needs root. DURATION (seconds per step, default 10)
# shortens a try-out.
source "$(dirname "$0")/../lab.sh"
here=$(cd "$(dirname "$0")" && pwd) # lab_start changes into the work directory

out="${OUT:-$top/bench-results/ipsec}"
mkdir -p "$out"
lab_start rlsec 206 -spec s2s -rate 1gbit
cp "$here/ipsec.tftest.hcl" .
echo "lab up: host a — router r1 — router r2 — host b, links shaped to 1 Gbit/s"
lab_test -var "duration_seconds=${DURATION:-10}" -var "archive_dir=$out"
lab_compare "$out" 4
lab_done "runs archived in ${out#"$top"/}, comparison above"

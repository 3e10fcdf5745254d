#!/usr/bin/env bash
# Seed 003's connection tracking × firewall matrix (make demo-conntrack): brings
# up host a — router r — host b shaped to 1 Gbit/s, runs conntrack.tftest.hcl
# (four variants, each applied, benchmarked, asserted on and archived), then
# prints the archive's comparison table. Needs root. DURATION (seconds per
# step, default 10) shortens a try-out.
source "$(dirname "$0")/../lab.sh"
here=$(cd "$(dirname "$0")" && pwd) # lab_start changes into the work directory

out="${OUT:-$top/bench-results/conntrack}"
mkdir -p "$out"
lab_start rlct 205 -rate 1gbit
cp "$here/conntrack.tftest.hcl" .
echo "lab up: host a — router r — host b, router links shaped to 1 Gbit/s"
lab_test -var "duration_seconds=${DURATION:-10}" -var "archive_dir=$out"
lab_compare "$out" 4
lab_done "runs archived in ${out#"$top"/}, comparison above"

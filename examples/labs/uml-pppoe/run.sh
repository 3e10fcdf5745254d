#!/usr/bin/env bash
# Seed 002's PPPoE table through a real PPPoE session (make demo-pppoe):
# brings up host a — router cli (PPPoE client) — router srv (PPPoE server)
# — host b inside a user-mode-linux kernel (a kernel with PPP; the
# machine's may have none), router links shaped to 1 Gbit/s, applies this
# example (MSS 1414/1200/800/400 × upload/download through the session,
# against PPPoE's line rate), prints the session and the results table,
# and tears everything down. Needs root and the UML tier's packages (make
# deps). DURATION (seconds per step, default 10) shortens a try-out.
source "$(dirname "$0")/../lab.sh"

out="${OUT:-$top/bench-results}"
mkdir -p "$out"
lab_start rlppp 207 -spec pppoe -rate 1gbit
echo "lab up inside UML: host a — router cli ══PPPoE══ router srv — host b, router links shaped to 1 Gbit/s"
echo "running the benchmark (8 steps of ${DURATION:-10}+3 s)..."
lab_apply -var "duration_seconds=${DURATION:-10}" -var "archive_dir=$out"
terraform output -json session
echo
terraform output -raw table
archive=$(terraform output -raw archive)
echo
echo "chart:   $archive/chart.svg"
echo "archive: $archive (run.json, results.md, results.csv, chart.svg)"
lab_done "results in ${archive#"$top"/}, table above"

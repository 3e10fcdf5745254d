#!/usr/bin/env bash
# The main job (make demo): a real benchmark on the built-in namespace lab,
# seed 004 style. Builds the provider, brings up router r with four LANs
# (hosts a, b, c, d) shaped to 1 Gbit/s, applies this example (MSS
# 1460/1200/800/400 × upload/download, pairs A-B and C-D at once), prints the
# results table, keeps the chart and the archived run, and tears everything
# down. Needs root. DURATION (seconds per step, default 10) shortens a try-out.
# Progress (Terraform's lines, one per benchmark step) shows as it runs; the
# full log is bench-results/logs/netns-routing.log.
source "$(dirname "$0")/../lab.sh"

out="${OUT:-$top/bench-results}"
mkdir -p "$out"
lab_start rlbnch 201 -lans 4 -rate 1gbit
echo "lab up: router r, hosts a b c d, router links shaped to 1 Gbit/s"
echo "running the benchmark (8 steps of ${DURATION:-10}+2 s)..."
lab_apply -var "duration_seconds=${DURATION:-10}" -var "archive_dir=$out"
terraform output -raw table
archive=$(terraform output -raw archive)
echo
echo "chart:   $archive/chart.svg"
echo "archive: $archive (run.json, results.md, results.csv, chart.svg)"
lab_done "results in ${archive#"$top"/}, table above"

#!/usr/bin/env bash
# Seed 003's write-size sweep (make demo-lengths): iperf3 -l 64/512/1460
# from a to b, first over a direct link between the two hosts (the
# baseline), then through router r, every link shaped to 1 Gbit/s. Prints
# the routed table with each step's share of the baseline and what the CPU
# sampling cost r, keeps both archived runs, and tears everything down.
# Needs root. DURATION (seconds per step, default 10) shortens a try-out.
# Progress (Terraform's lines, one per benchmark step) shows as it runs; the
# full log is bench-results/logs/netns-lengths.log.
source "$(dirname "$0")/../lab.sh"

out="${OUT:-$top/bench-results}"
mkdir -p "$out"
lab_start rllen 203 -lans 2 -rate 1gbit -direct a,b
echo "lab up: a — r — b, plus a direct link a — b (198.18.99.0/24), every link shaped to 1 Gbit/s"
echo "running the benchmark (2 runs × 3 lengths, ${DURATION:-10}+2 s a step)..."
lab_apply -var "duration_seconds=${DURATION:-10}" -var "archive_dir=$out"
terraform output -raw routed_table
echo
cost=$(terraform output -raw sampler_cpu_percent)
if [ "$cost" = "-1" ]; then
  echo "CPU sampling cost on r: unknown (the platform cannot tell)"
else
  printf 'CPU sampling cost on r: %.2f %% of one core\n' "$cost"
fi
archive=$(terraform output -raw archive)
echo "archive:  $archive"
echo "baseline: $(terraform output -raw baseline_archive)"
lab_done "results in ${archive#"$top"/}, routed table above"

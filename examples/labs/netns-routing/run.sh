#!/usr/bin/env bash
# The main job: a real benchmark on the built-in namespace lab, seed 004
# style. Builds the provider, brings up router r with four LANs (hosts a, b,
# c, d) shaped to 1 Gbit/s, applies this example (MSS 1460/1200/800/400 ×
# upload/download, pairs A-B and C-D at once), prints the results table,
# keeps the chart and the archived run, and tears everything down.
# Needs root. DURATION (seconds per step, default 10) shortens a try-out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "run.sh needs root (network namespaces, sshd)" >&2; exit 1; }

out="${OUT:-$top/bench-results}"
mkdir -p "$out"
work=$(mktemp -d /tmp/routerlab-bench.XXXXXX)
state=/run/routerlab-lab/rlbnch
cleanup() {
  (cd "$work" && terraform destroy -auto-approve -input=false -no-color >/dev/null 2>&1) || true
  "$top/bin/labctl" down -state "$state" >/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cd "$top"
go build -o bin/terraform-provider-routerlab .
go build -o bin/labctl ./internal/lab/cmd/labctl

cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "routerlab/routerlab" = "$top/bin" }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1

cp "$here/main.tf" "$work/"
"$top/bin/labctl" up -name rlbnch -mgmt 201 -lans 4 -rate 1gbit -state "$state" -tfvars "$work/lab.auto.tfvars.json" >/dev/null
echo "lab up: router r, hosts a b c d, router links shaped to 1 Gbit/s"

cd "$work"
echo "running the benchmark (8 steps of ${DURATION:-10}+2 s; progress with TF_LOG=info)..."
if ! terraform apply -auto-approve -input=false -no-color \
    -var "duration_seconds=${DURATION:-10}" -var "archive_dir=$out" >apply.log 2>&1; then
  cat apply.log >&2
  exit 1
fi
terraform output -raw table
archive=$(terraform output -raw archive)
echo
echo "chart:   $archive/chart.svg"
echo "archive: $archive (run.json, results.md, results.csv, chart.svg)"

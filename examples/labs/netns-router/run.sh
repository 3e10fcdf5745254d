#!/usr/bin/env bash
# The main job until the benchmark lands: bring up the namespace lab, apply
# this example with the provider built from this checkout, print what the
# router reports, destroy, and tear the lab down. Needs root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "run.sh needs root (network namespaces, sshd)" >&2; exit 1; }

work=$(mktemp -d /tmp/routerlab-demo.XXXXXX)
state=/run/routerlab-lab/rldemo
cleanup() {
  (cd "$work" && terraform destroy -auto-approve -input=false -no-color >/dev/null 2>&1) || true
  "$top/bin/labctl" down -state "$state" || true
  rm -rf "$work"
}
trap cleanup EXIT

cd "$top"
go build -o bin/terraform-provider-routerlab .
go build -o bin/labctl ./internal/lab/cmd/labctl

# Use the freshly built provider without a registry.
cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "routerlab/routerlab" = "$top/bin" }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1

cp "$here/main.tf" "$work/"
"$top/bin/labctl" up -name rldemo -mgmt 200 -state "$state" -tfvars "$work/lab.auto.tfvars.json"

cd "$work"
if ! terraform apply -auto-approve -input=false -no-color >apply.log 2>&1; then
  cat apply.log >&2
  exit 1
fi
grep -E '^(routerlab_router|Apply complete)' apply.log
echo "== what the router reports =="
terraform output -no-color
echo "== plan after apply (expect no changes) =="
terraform plan -detailed-exitcode -input=false -no-color >/dev/null && echo "No changes: the router matches the configuration."

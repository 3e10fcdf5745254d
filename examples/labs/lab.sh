# Shared by the examples' run.sh scripts (sourced, not run): builds the
# provider and labctl from this checkout, points Terraform at them without a
# registry, and tears the lab and the work directory down on exit.
#
#   lab_start NAME MGMT [labctl up flags...]   brings up the lab; cwd = work dir
#   lab_apply [terraform apply flags...]       applies, printing the log on failure
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "${0##*/} needs root (network namespaces, sshd)" >&2; exit 1; }
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

lab_start() {
  local name=$1 mgmt=$2 example
  shift 2
  example=$(cd "$(dirname "$0")" && pwd)
  work=$(mktemp -d "/tmp/routerlab-$name.XXXXXX")
  state=/run/routerlab-lab/$name
  trap lab_cleanup EXIT

  (cd "$top" && go build -o bin/terraform-provider-routerlab . && go build -o bin/labctl ./internal/lab/cmd/labctl)
  cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "routerlab/routerlab" = "$top/bin" }
  direct {}
}
RC
  export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1
  cp "$example/main.tf" "$work/"
  "$top/bin/labctl" up -name "$name" -mgmt "$mgmt" -state "$state" -tfvars "$work/lab.auto.tfvars.json" "$@" >/dev/null
  cd "$work"
}

lab_apply() {
  if ! terraform apply -auto-approve -input=false -no-color "$@" >apply.log 2>&1; then
    cat apply.log >&2
    exit 1
  fi
}

# lab_compare DIR N: prints the comparison of the last N runs archived in DIR
# and writes its chart next to them (examples/labs/compare).
lab_compare() {
  local dir=$1 n=$2
  mkdir -p compare && cp "$top/examples/labs/compare/main.tf" compare/
  (cd compare && terraform apply -auto-approve -input=false -no-color -var "archive_dir=$dir" -var "last=$n" >apply.log 2>&1) || { cat compare/apply.log >&2; exit 1; }
  (cd compare && terraform output -raw comparison && terraform output -raw chart >"$dir/comparison.svg")
  echo
  echo "chart:   $dir/comparison.svg"
  echo "archive: $dir"
}

lab_cleanup() {
  (cd "$work" && terraform destroy -auto-approve -input=false -no-color >/dev/null 2>&1) || true
  "$top/bin/labctl" down -state "$state" >/dev/null || true
  rm -rf "$work"
}

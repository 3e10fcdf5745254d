# Shared by the examples' run.sh scripts (sourced, not run): builds the
# provider and labctl from this checkout, points Terraform at them without a
# registry, shows progress while Terraform runs, and tears the lab and the
# work directory down on exit.
#
#   lab_start NAME MGMT [labctl up flags...]   brings up the lab; cwd = work dir
#   lab_apply [terraform plan flags...]        plans and applies, showing progress
#   lab_test [terraform test flags...]         runs terraform test, showing progress
#   lab_done WHERE                             prints the one-line summary
#
# Progress: Terraform's own lines as they come, and one line per benchmark
# step from the provider's INFO log (TF_LOG_PROVIDER=INFO makes Terraform
# print the provider's log on stderr, a timestamp and fields around each
# message; lab_progress keeps the message). Everything, log lines whole,
# also goes to $log, bench-results/logs/<example>.log, which outlives the
# work directory, so a failure can be read after the lab is gone.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "${0##*/} needs root (network namespaces, sshd)" >&2; exit 1; }
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

lab_start() {
  local name=$1 mgmt=$2 example
  shift 2
  example=$(cd "$(dirname "$0")" && pwd)
  work=$(mktemp -d "/tmp/routerlab-$name.XXXXXX")
  state=/run/routerlab-lab/$name
  mkdir -p "$top/bench-results/logs"
  log=$top/bench-results/logs/${example##*/}.log
  : >"$log"
  steps=0
  trap lab_cleanup EXIT

  (cd "$top" && go build -o bin/terraform-provider-routerlab . && go build -o bin/labctl ./internal/lab/cmd/labctl)
  cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "routerlab/routerlab" = "$top/bin" }
  direct {}
}
RC
  # TF_CLI_ARGS_*: the one warning dev_overrides causes on every command
  # (a box of six lines) shrinks to a line; the log has it whole anyway.
  export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1
  export TF_CLI_ARGS_apply=-compact-warnings TF_CLI_ARGS_plan=-compact-warnings
  cp "$example/main.tf" "$work/"
  # -tfvars-for: only the variables main.tf declares, so an example need
  # not declare the ones labctl knows but it does not use.
  if ! "$top/bin/labctl" up -name "$name" -mgmt "$mgmt" -state "$state" -tfvars "$work/lab.auto.tfvars.json" -tfvars-for "$work" "$@" >>"$log" 2>&1; then
    cat "$log" >&2
    exit 1
  fi
  cd "$work"
}

# lab_progress filters Terraform's output (stdout and stderr together, the
# provider's log included) for the terminal: Terraform's own lines as they
# are, routerlab's benchmark lines ("benchmark: step 3/8: ...") and its
# warnings cut to their message, every other log line dropped. It runs at
# the end of a pipeline, in a subshell: it counts the finished steps in
# $log.steps, which lab_tf adds up for lab_done.
lab_progress() {
  local line msg level re='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[^ ]* \[([A-Z]+)\] +([^ ]+): (.*)$'
  # The fields follow the message, in no fixed order: ": tf_req_id=...
  # @caller=... @module=routerlab ...". The longest (.*) leaves the last
  # ": " after which there is nothing but key=value (quoted when it holds
  # a space); a step's message has no "=" after its ": ".
  local fields='^(.*): ([^ =:]+=("[^"]*"|[^ "]*)( |$))+$'
  local warnings='' others=0 outputs=0 entry=0
  while IFS= read -r line; do
    # A log entry with a multi-line field goes on over indented lines:
    # "  | text" for the value, "   key=value" for the fields after it.
    if [ "$entry" -eq 1 ] && [[ $line =~ ^\ +(\||[A-Za-z_@][A-Za-z0-9_.@]*=) ]]; then
      continue
    fi
    entry=0
    if [[ ! $line =~ $re ]]; then
      # The outputs an apply ends with: the script prints those it shows.
      [[ $line == Outputs: ]] && outputs=1
      [ "$outputs" -eq 1 ] && continue
      # A -compact-warnings block ("Warnings:" … "To see the full warning
      # notes, …") is held back: when dev_overrides' is its only warning,
      # which every command run here has, it is dropped.
      if [[ $line == Warnings: ]]; then
        warnings=$line others=0
        continue
      fi
      if [ -n "$warnings" ]; then
        case $line in
        "- Provider development overrides are in effect") ;;
        "To see the full warning notes, run Terraform without -compact-warnings.")
          [ "$others" -gt 0 ] && printf '%s\n%s\n' "$warnings" "$line"
          warnings=''
          ;;
        *)
          [[ $line == "- "* ]] && others=$((others + 1))
          warnings+=$'\n'$line
          ;;
        esac
        continue
      fi
      printf '%s\n' "$line"
      continue
    fi
    entry=1
    level=${BASH_REMATCH[1]}
    [[ ${BASH_REMATCH[2]} == provider.terraform-provider-routerlab ]] || continue
    msg=${BASH_REMATCH[3]}
    [[ $msg =~ $fields ]] && msg=${BASH_REMATCH[1]}
    case $level in
    INFO)
      [[ $msg == benchmark:\ * ]] || continue
      msg=${msg#benchmark: }
      [[ $msg =~ ^step\ [0-9]+/[0-9]+\ done ]] && echo >>"$log.steps"
      printf '  %s\n' "$msg"
      ;;
    WARN)
      # The plugin framework logs every warning diagnostic as "Response
      # contains warning diagnostic", the text only in its fields:
      # Terraform prints the diagnostic itself at the end.
      [[ $msg == "Response contains warning diagnostic" ]] && continue
      printf '  provider warning: %s\n' "$msg"
      ;;
    # ERROR: the plugin framework logs each error diagnostic, which
    # Terraform prints itself as "Error: ...".
    esac
  done
}

# lab_tf ARGS...: one Terraform command with progress on the terminal and
# everything in $log; its exit status is Terraform's.
lab_tf() {
  local rc=0
  printf '\n$ terraform %s\n' "$*" >>"$log"
  TF_LOG_PROVIDER=INFO terraform "$@" 2>&1 | tee -a "$log" | lab_progress || rc=$?
  if [ -f "$log.steps" ]; then
    steps=$((steps + $(wc -l <"$log.steps")))
    rm -f "$log.steps"
  fi
  return "$rc"
}

# lab_apply plans into the log first: the plan lists every attribute of
# every resource, which is no progress; the terminal gets its summary line,
# then the apply of that saved plan as it goes (creating, still creating,
# each benchmark step).
lab_apply() {
  printf '\n$ terraform plan %s\n' "$*" >>"$log"
  if ! terraform plan -input=false -no-color -out=tfplan "$@" >plan.log 2>&1; then
    cat plan.log >>"$log"
    cat plan.log >&2
    lab_fail
  fi
  cat plan.log >>"$log"
  grep -E '^(Plan:|No changes)' plan.log || true
  lab_tf apply -input=false -no-color tfplan || lab_fail
}

lab_test() {
  lab_tf test -no-color "$@" || lab_fail
}

lab_fail() {
  echo "failed after $SECONDS s; full log: $log" >&2
  exit 1
}

# lab_done WHERE: the last line, e.g. "done in 81 s: 8 steps, results in
# bench-results/20260101T000000Z-1a2b3c4d, table above". $SECONDS counts
# from the script's start: the build and the lab's bring-up too.
lab_done() {
  local what="$steps steps"
  [ "$steps" -eq 1 ] && what="1 step"
  [ "$steps" -eq 0 ] && what="no benchmark"
  echo "done in $SECONDS s: $what, $1; full log: ${log#"$top"/}"
}

# lab_compare DIR N: prints the comparison of the last N runs archived in DIR
# and writes its chart next to them (examples/labs/compare).
lab_compare() {
  local dir=$1 n=$2
  mkdir -p compare && cp "$top/examples/labs/compare/main.tf" compare/
  (cd compare && lab_tf apply -auto-approve -input=false -no-color -var "archive_dir=$dir" -var "last=$n" >/dev/null) || lab_fail
  (cd compare && terraform output -raw comparison && terraform output -raw chart >"$dir/comparison.svg")
  echo
  echo "chart:   $dir/comparison.svg"
  echo "archive: $dir"
}

lab_cleanup() {
  local rc=$?
  (cd "$work" && terraform destroy -auto-approve -input=false -no-color >>"$log" 2>&1) || true
  "$top/bin/labctl" down -state "$state" >>"$log" 2>&1 || true
  rm -rf "$work"
  return "$rc"
}

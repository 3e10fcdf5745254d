#!/usr/bin/env bash
# Router-only walkthrough (make demo-router): bring up the namespace lab,
# apply this example with the provider built from this checkout, print what
# the router reports and show that a second plan is empty, then destroy and
# tear the lab down. Needs root.
source "$(dirname "$0")/../lab.sh"

lab_start rldemo 200
echo "lab up: host a — router r — host b"
lab_apply
echo "== what the router reports =="
terraform output -no-color
echo "== plan after apply (expect no changes) =="
terraform plan -detailed-exitcode -input=false -no-color >/dev/null && echo "No changes: the router matches the configuration."
lab_done "router r configured, outputs above"

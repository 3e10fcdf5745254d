# Prints the comparison of the last runs archived in a directory: the end of
# a configuration matrix (examples/labs/netns-conntrack, netns-ipsec). It
# reads files only, so the provider needs no devices.
terraform {
  required_providers {
    routerlab = { source = "routerlab/routerlab" }
  }
}

variable "archive_dir" { type = string }

variable "last" {
  type    = number
  default = 4
}

provider "routerlab" {}

data "routerlab_benchmark_archive" "runs" {
  dir  = var.archive_dir
  last = var.last
}

output "comparison" {
  value = data.routerlab_benchmark_archive.runs.comparison_markdown
}

output "chart" {
  value = data.routerlab_benchmark_archive.runs.comparison_svg
}

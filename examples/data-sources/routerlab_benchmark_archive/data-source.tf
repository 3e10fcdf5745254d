# Seed 002: the same PPPoE benchmark under three offload settings, each run
# archived by routerlab_benchmark_run with a name, compared in one table.
data "routerlab_benchmark_archive" "offload" {
  dir = "${path.module}/results"
  names = [
    "forwarding=disable pppoe=disable",
    "forwarding=disable pppoe=enable",
    "forwarding=enable pppoe=enable",
  ]
}

output "offload_comparison" {
  value = data.routerlab_benchmark_archive.offload.comparison_markdown
}

resource "local_file" "offload_chart" {
  filename = "${path.module}/results/offload-comparison.svg"
  content  = data.routerlab_benchmark_archive.offload.comparison_svg
}

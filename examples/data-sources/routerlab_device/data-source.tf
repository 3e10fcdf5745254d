data "routerlab_device" "r" {
  device = "r"
}

output "router_kernel" {
  value = "${data.routerlab_device.r.model} running ${data.routerlab_device.r.firmware}, ${data.routerlab_device.r.cpu_count} cores"
}

# Keep the router's normalised running configuration next to the plan.
data "routerlab_running_config" "r" {
  device = "r"
}

resource "local_file" "r_config" {
  filename = "${path.module}/configs/r.conf"
  content  = data.routerlab_running_config.r.text
}

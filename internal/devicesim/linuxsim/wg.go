package linuxsim

type wgDev struct{}

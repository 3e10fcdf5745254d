// Package devicesim runs simulated network devices for tests: each Device is
// an in-process SSH server on 127.0.0.1 (internal/sshx/sshtest) whose exec
// requests are answered by a platform simulator, a stateful Handler that
// behaves like the device's CLI. Provider acceptance tests can then create,
// read, drift and destroy real resources over real SSH without root, network
// namespaces or lab hardware.
//
// Why a simulator and not only golden files: golden tests prove that a
// driver renders the expected commands and parses captured output, but not
// that the commands it renders, run in order against the device's current
// state, lead to the state it then reads back. A simulator closes that loop
// cheaply, and can be changed "by hand" between Terraform steps to exercise
// drift detection.
//
// Tests come in three tiers, from fastest to most faithful:
//
//  1. Pure golden tests (internal/device/<platform>): render and parse
//     functions against files captured from real devices. No I/O.
//  2. Simulated devices (this package and its platform packages, such as
//     rossim): the real driver and SSH transport against a state machine
//     that prints the real output formats. Runs under plain `go test`.
//     Only vendor CLIs are simulated: Linux behaviour is tested on Linux.
//  3. The real lab (internal/lab, examples/labs): real kernels and routers,
//     needs root or hardware; the only tier that catches a simulator that
//     has drifted from the real CLI, and the Linux driver's tier (its
//     property tests run on a lab router: internal/device/linux).
//
// A simulator must keep to the formats of tier 1's captured files, so that
// whatever passes against it also parses from the real device.
package devicesim

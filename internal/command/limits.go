package command

// MaxConcurrentPerDevice is how many long-running commands (Runner.Start)
// a plan may keep running at once on one device: the SSH transport runs
// at most sshx.DefaultMaxSessions (8) sessions at a time on a device's one
// connection, and one is left for the short commands that run meanwhile
// (iperf3's kill by PID, CPU polls, version checks), which would otherwise
// wait for a long-running command to end. Killing a started command needs
// no session (sshx ends it through its own session's stdin). Local, the
// machine running Terraform, has no such limit.
//
// Planners (internal/bench/runner.Validate) check against this number at
// plan time, since they must not import the transport; a test in
// internal/sshx keeps it equal to DefaultMaxSessions-1.
const MaxConcurrentPerDevice = 7

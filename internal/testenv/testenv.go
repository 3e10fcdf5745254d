// Package testenv is the one place where a test that cannot run here (no
// root, a program not installed, a tier not enabled) says so. The project
// rule: in CI (the environment variable CI is set, as CI services and
// .ci/run set it) nothing is skipped, so a test that cannot run fails,
// naming what is missing; on a developer's machine it is skipped with the
// same message. Tests never call t.Skip for their environment themselves.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
)

// TB is the part of testing.TB that the helpers use: *testing.T, *testing.B
// and *testing.F are TBs.
type TB interface {
	Helper()
	Fatal(args ...any)
	Skip(args ...any)
}

// CI reports whether the tests run in CI: CI is set to anything.
func CI() bool { return os.Getenv("CI") != "" }

// Require ends the test unless ok. missing says what is missing, as a
// clause ("iperf3 is not installed"); how says how to provide it ("apt-get
// install iperf3"). In CI the test fails; elsewhere it is skipped.
func Require(t TB, ok bool, missing, how string) {
	t.Helper()
	if ok {
		return
	}
	if CI() {
		t.Fatal(fmt.Sprintf("%s; in CI (CI is set) this test must run: %s", missing, how))
		return
	}
	t.Skip(fmt.Sprintf("skipped: %s (to run it: %s; with CI set this fails instead)", missing, how))
}

// RequireRoot ends the test unless it runs as root; needs says what for
// ("the real-lab tier: network namespaces, sshd").
func RequireRoot(t TB, needs string) {
	t.Helper()
	Require(t, os.Geteuid() == 0, "not running as root, which "+needs+" needs", "run the tests as root")
}

// RequireCommand returns the path of the program name, ending the test if
// it is not on PATH; how says how to install it.
func RequireCommand(t TB, name, how string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	Require(t, err == nil, name+" is not on PATH", how)
	return path
}

// RequireEnv returns the value of the environment variable name, ending the
// test if it is empty; what is what does not run without it ("the
// acceptance tier").
func RequireEnv(t TB, name, what string) string {
	t.Helper()
	v := os.Getenv(name)
	Require(t, v != "", name+" is not set, so "+what+" does not run", "set "+name+"=1")
	return v
}

package linuxsim

import (
	"fmt"
	"io"
	"strings"
)

// factsMarker starts the facts section of the Linux driver's snapshot
// script; a command containing it is that script.
const factsMarker = "echo '##facts'\n"

func isSnapshot(cmd string) bool { return strings.Contains(cmd, factsMarker) }

// snapshot runs the driver's snapshot script. Its facts section probes
// hardware with subshells and variables (DMI files, /etc/os-release) that
// the interpreter does not do, so it is answered here; every other section
// (hostname, ip -j ..., sysctl -n ..., nft -j ... || echo '{}') runs through
// the interpreter like any command, so a change to those lines in the
// driver is followed, or fails loudly.
func (r *Router) snapshot(script string, stdout, stderr io.Writer) int {
	before, rest, _ := strings.Cut(script, factsMarker)
	// The facts end where the next section's marker is echoed.
	end := strings.Index(rest, "echo '##")
	if end < 0 {
		end = len(rest)
	}
	sh := r.newInterp(nil, stdout, stderr)
	sh.runScript(before)
	fmt.Fprintf(stdout, "##facts\n%s\n%s\n%d\n%s\n%s\n%s\n", r.kernel, Arch, r.cpus, Model, Serial, OSName)
	return sh.runScript(rest[end:])
}

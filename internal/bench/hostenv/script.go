// Package hostenv reads what of an iperf3 endpoint decides its figures
// besides the router (bench.HostEnvironment): the TCP stack's sysctls,
// the qdiscs, offloads and link of each interface on the path to a pair's
// target, and the CPU. One read is one read-only command per host (Script,
// a fixed POSIX sh script whose only inputs are the targets, passed as
// quoted arguments); its output is split into marked sections and each is
// parsed by a pure function (tc.go, ethtool.go, parse.go) tested on what
// this machine's tools print (testdata/README.md).
package hostenv

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// marker starts every section line of the script's output. Nothing the
// tools print starts with it.
const marker = "@@ "

// script is the body Script runs after `set --` has put the targets in
// "$@". Its choices:
//   - LC_ALL=C: tc and ethtool print the English words the parsers read;
//   - /usr/sbin and /sbin on PATH: a non-root SSH login on Debian lacks
//     them, and tc and ethtool live there;
//   - /proc/sys rather than sysctl(8), which is in /sbin too and adds a
//     process per key;
//   - a missing tool is reported once ("@@ missing ethtool") and its
//     sections skipped, so the run goes on without it;
//   - on a pair's server the target is its own address, which routes to
//     lo ("local ..."): the interface holding the address is the path's;
//   - a hostname target is resolved with getent when ip cannot route it;
//   - each interface is read once however many targets it carries.
const script = `export LC_ALL=C
PATH=$PATH:/usr/sbin:/sbin
os=$(uname -s)
echo "@@ os $os"
[ "$os" = Linux ] || exit 0
echo "@@ nproc"; nproc 2>/dev/null || getconf _NPROCESSORS_ONLN
echo "@@ cpuinfo"; grep -E '^(processor|model name)[[:space:]]*:' /proc/cpuinfo
for k in net/ipv4/tcp_congestion_control net/core/rmem_max net/core/wmem_max net/ipv4/tcp_rmem net/ipv4/tcp_wmem net/core/default_qdisc; do
	echo "@@ sysctl $k"; cat "/proc/sys/$k" 2>&1
done
has() { command -v "$1" >/dev/null 2>&1; }
for tool in ip tc ethtool; do has $tool || echo "@@ missing $tool"; done
has ip || { echo "@@ end"; exit 0; }
seen=' '
for t in "$@"; do
	r=$(ip -o route get "$t" 2>&1) || {
		a=$(getent ahosts "$t" 2>/dev/null | awk '{print $1; exit}')
		[ -n "$a" ] && r=$(ip -o route get "$a" 2>&1)
	}
	echo "@@ route $t"; printf '%s\n' "$r"
	case $r in
	local\ *) a=${r#local }; d=$(ip -o addr show to "${a%% *}" 2>/dev/null | awk '{print $2; exit}') ;;
	*) d=$(printf '%s\n' "$r" | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -n 1) ;;
	esac
	echo "@@ dev $t $d"
	[ -n "$d" ] || continue
	case $seen in *" $d "*) continue ;; esac
	seen="$seen$d "
	if has tc; then echo "@@ tc $d"; tc -s qdisc show dev "$d" 2>&1; fi
	if has ethtool; then
		echo "@@ ethtool-k $d"; ethtool -k "$d" 2>&1
		echo "@@ ethtool $d"; ethtool "$d" 2>&1
		echo "@@ ethtool-i $d"; ethtool -i "$d" 2>&1
	fi
done
echo "@@ end"
`

// Script is the one command that reads a host's environment for the
// given targets.
func Script(targets []string) string { return setArgs(targets) + script }

// setArgs is the line that makes the targets the script's "$@": each
// reaches the shell only as a quoted word.
func setArgs(targets []string) string {
	var b strings.Builder
	b.WriteString("set --")
	for _, t := range targets {
		b.WriteString(" " + shell.Quote(t))
	}
	b.WriteString("\n")
	return b.String()
}

// Read runs Script on h and parses its output. Only a failure to run the
// command at all is an error: whatever the host lacks is in
// Reading.Missing. It also returns how long the read took, the cost the
// run pays for it.
func Read(ctx context.Context, h command.Runner, targets []string) (Reading, time.Duration, error) {
	start := time.Now()
	out, err := h.Run(ctx, Script(targets))
	took := time.Since(start)
	if err != nil {
		return Reading{}, took, fmt.Errorf("read the environment of host %s: %w", h.Name(), err)
	}
	r := Parse(out.Stdout)
	if !r.Ended && r.OS == "Linux" {
		// The script stopped early: say so rather than record a
		// partial read as whole.
		why := strings.TrimSpace(out.Stderr)
		if why == "" {
			why = fmt.Sprintf("exit status %d", out.ExitStatus)
		}
		r.Missing = append(r.Missing, "the environment script stopped early: "+firstLine(why))
	}
	return r, took, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

package linux

import (
	"fmt"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// sessionWait bounds how long a PPP client's create (PPPoE, L2TP) waits
// for its session.
const sessionWait = 20 * time.Second

// waitForSession is the end of a PPP client's create: the daemons return
// at once and the session comes up seconds later (PPPoE discovery or the
// IKE and L2TP exchanges, then LCP, CHAP, IPCP: 4-6 s inside user-mode
// Linux). Waiting for the interface's address lets what depends on the
// session in the same apply (a benchmark through it) find it up. One that
// is not up by then is no error: its status says "down", and the daemons
// (pppd persist, xl2tpd redial) keep dialling.
//
// Without /dev/ppp no session can come up (the plan refuses such a host:
// "needs the kernel's PPP support"), so the wait is skipped there rather
// than spent: xl2tpd starts without it, and only the session fails.
func waitForSession(ifname string) string {
	return waitUntil("[ -c /dev/ppp ] && ! ip -o -4 addr show dev " + shell.Quote(ifname) + " 2>/dev/null | grep -q ' peer '")
}

// waitForChildSA is the end of an initiating IPsec tunnel's create or
// update: swanctl returns while charon negotiates (IKE_SA_INIT and
// IKE_AUTH: well under a second on hardware, seconds inside a loaded
// user-mode Linux, where a benchmark of the same apply once found no path
// yet: "unable to connect to server"). Waiting for the CHILD_SA to be
// INSTALLED lets what depends on the tunnel find it up. One that is not
// up by then is no error: its status says so, and charon keeps trying
// (keyingtries = 0).
func waitForChildSA(name string) string {
	return waitUntil("! swanctl --list-sas --noblock --ike " + shell.Quote(name) + " </dev/null 2>/dev/null | grep -q ' INSTALLED, '")
}

// waitUntil polls while the shell condition holds, for sessionWait of the
// kernel's clock at most (/proc/uptime, read with the shell's own read):
// a bound by iterations stretched with each poll's processes, and on a
// loaded machine one ran past the command's one-minute command_timeout,
// which failed the create it was only to wait for. One poll a 0.2 s.
func waitUntil(condition string) string { return waitUntilFor(condition, sessionWait) }

func waitUntilFor(condition string, bound time.Duration) string {
	return fmt.Sprintf("read -r rl_t _ </proc/uptime; rl_end=$((${rl_t%%.*} + %d)); while read -r rl_t _ </proc/uptime && [ \"${rl_t%%.*}\" -lt \"$rl_end\" ] && %s; do sleep 0.2; done\n",
		int(bound/time.Second), condition)
}

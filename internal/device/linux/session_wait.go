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
func waitForSession(ifname string) string {
	return fmt.Sprintf("i=0; while [ \"$i\" -lt %d ] && ! ip -o -4 addr show dev %s 2>/dev/null | grep -q ' peer '; do sleep 0.1; i=$((i+1)); done\n",
		int(sessionWait/(100*time.Millisecond)), shell.Quote(ifname))
}

package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
)

// The seed examples' Debian peers (examples/labs/rtx810-ipsec's strongSwan
// peer, rb750gr3-l2tp-ipsec's L2TP/IPsec client) run on Linux, not on a
// simulated one (issue 27: Linux behaviour is tested on Linux): a router
// of a namespace lab of the test's own, with real sshd, its own /etc and
// /run and its own charon.

// debianPeerSpec is the Debian host of seeds 000 and 001 as router deb of
// a namespace lab, on the addresses the examples give it:
//
//	wan.eth1 198.18.10.1/24  — deb.eth1 198.18.10.2/24   (the WAN: the vendor router's side)
//	deb.eth2 198.18.200.1/24 — b.eth1   198.18.200.10/24 (the LAN behind the Debian peer)
//
// Host wan holds the vendor router's WAN address; the vendor router itself
// is a simulator on 127.0.0.1, which no packet reaches, so nothing answers
// IKE there: the peer's tunnel is configured, read back and removed, and
// stays down. Node order wan, deb, b: 198.19.<MgmtNet>.2, .6 and .10.
func debianPeerSpec(name string) lab.Spec {
	return lab.Spec{
		Name:    name,
		MgmtNet: lab.DefaultMgmtNet,
		Nodes: []lab.NodeSpec{
			{Name: "wan", Role: lab.RoleHost},
			{Name: "deb", Role: lab.RoleRouter},
			{Name: "b", Role: lab.RoleHost},
		},
		Links: []lab.LinkSpec{
			{A: "wan", AIf: "eth1", AAddr: "198.18.10.1/24", B: "deb", BIf: "eth1", BAddr: "198.18.10.2/24"},
			{A: "deb", AIf: "eth2", AAddr: "198.18.200.1/24", B: "b", BIf: "eth1", BAddr: "198.18.200.10/24"},
		},
	}
}

// labDebianVar is the examples' `debian` variable for node of l: its
// management address, the lab's client key, its host key pinned.
func labDebianVar(l *lab.Lab, node string) string {
	n := l.Node(node)
	return fmt.Sprintf(`{ host = %q, port = %d, username = "root", private_key = %q, host_key = %q }`,
		n.MgmtAddr, n.SSHPort, l.ClientKeyPEM(), n.HostKey)
}

// debianPeerState is what a destroy (or a plan) must leave byte for byte on
// node of a namespace lab: the driver's normalised text, and the files,
// rules, routes and daemons routerlab's tunnels touch, read by a
// connection of the test's own. As nodeState (the UML tier's), but the
// daemons are those of the node's network namespace: a namespace lab
// shares the machine's process table, where other tests' xl2tpd and pppd
// run. The loop over /proc forks nothing (test -ef, read): a readlink per
// process overran labExec's 20 s on a CI machine with thousands of them.
func debianPeerState(t *testing.T, l *lab.Lab, node string) string {
	t.Helper()
	text := linuxSnapshotText(t, node, nodeEndpoint(l, node), time.Minute)
	raw := labExec(t, l, node, "sh", "-c", `cd /etc && find ppp routerlab swanctl xl2tpd -type f 2>/dev/null | sort | xargs -r sha256sum; `+
		`nft list ruleset; ip -4 route; ip -o -4 addr; ls /sys/class/net; `+
		`for p in /proc/[0-9]*; do [ "$p/ns/net" -ef /proc/self/ns/net ] 2>/dev/null && read -r c 2>/dev/null <"$p/comm" && case $c in *ppp*|*xl2tp*|*charon*) echo "$c";; esac; done | sort`)
	return text + "\n--- raw\n" + raw
}

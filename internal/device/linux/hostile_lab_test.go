package linux_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// Issue 18's property on Linux, on a real Linux router: every string of
// every resource, attacked with every hostile value
// (internal/devicesim/hostile), is refused at validation naming its
// attribute, or carried as inert data through the real driver, over SSH
// as the provider reaches a router, into the router's real shell (sh -e
// -x -s), its real tools and daemons (ip, sysctl, nft, ethtool, swanctl
// with the router's own charon, openvpn, wg, xl2tpd, pppoe-server, pppd's
// parse of its options), and read back unchanged.
//
// A second command that ran leaves its trace on the router
// (labEffects): a file /tmp/rlsentinel — a lab router has a private /etc
// and /run but shares the machine's /tmp, so the test looks there — or
// the router's host name (its own UTS namespace) changed to the sentinel.
// checkLabEffects first proves the detector sees both.
//
// Two things of this machine are worked around, each where it applies:
//   - its kernel has no PPP (/dev/ppp), so the plan refuses PPPoE and
//     L2TP on it ("needs the kernel's PPP support"): the PPP cases run
//     with a driver whose snapshot does not report /dev/ppp missing
//     (pppCheckless), every other check of the plan still runs;
//   - the PPPoE client's pppd cannot start without it: a stand-in pppd
//     in the router's BinDir has the real pppd parse the options and
//     secret files the driver wrote (standInPPPD), and the create goes on
//     as on a router with PPP, but for the wait for a session that cannot
//     come up, which the driver skips without /dev/ppp (waitForSession).
//
// IPsec is a responder: an initiator's create waits for its CHILD_SA
// (waitForChildSA), and there is no peer here.
func TestHostileValuesLab(t *testing.T) {
	t.Parallel()
	h := newHostileLab(t, "lxhst", 198)
	h.checkEffects(t)
	tg := hostile.Target{Driver: h.drv, Effects: h.effects}
	ptg := hostile.Target{Driver: h.pppDrv, Effects: h.effects}

	router := device.RouterConfig{
		Hostname: ptr("lab-r1"),
		Interfaces: map[string]device.InterfaceConfig{
			"eth1": {Addresses: []string{"198.18.1.1/24"}, Description: ptr("lan a")},
		},
		Routes: map[string]*device.Route{"198.18.6.0/24": {Destination: "198.18.6.0/24", Gateway: "198.18.1.10"}},
	}
	l2tp := device.TunnelConfig{Name: "l2s", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.90.1", RemotePool: "198.18.90.10-198.18.90.20", User: "u1", Password: "pw-1", PSK: "psk-12345678",
		IKEProposals: []string{"aes128-sha1-modp2048"}, ESPProposals: []string{"aes128-sha1"}}}
	ipsec := hostileIPsec()
	ipsec.IPsec.LocalID, ipsec.IPsec.RemoteID = "r1.lab", "r2.lab"

	t.Run("router", func(t *testing.T) { hostile.Run(t, tg, hostile.Router(h.drv, router)) })
	t.Run("firewall", func(t *testing.T) {
		hostile.Run(t, tg, hostile.Firewall(h.drv, device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"eth2"}, Masquerade: []string{"eth2"}, NotrackInterfaces: []string{"eth1"}}))
	})
	t.Run("offload", func(t *testing.T) {
		hostile.Run(t, tg, hostile.Offload(h.drv, device.OffloadConfig{Settings: map[string]map[string]bool{"eth1": {"gro": false}}}))
	})
	for _, tc := range []device.TunnelConfig{ipsec, hostileOVPN("ovs1", device.RoleServer), hostileOVPN("ovc1", device.RoleClient), hostileWG()} {
		t.Run(string(tc.Type)+"/"+tc.Name, func(t *testing.T) { hostile.Run(t, tg, hostile.Tunnel(h.drv, tc)) })
	}
	t.Run("l2tp_ipsec/l2s", func(t *testing.T) { hostile.Run(t, ptg, hostile.Tunnel(h.pppDrv, l2tp)) })
	for _, pc := range []device.PPPoEConfig{hostilePPPoEClient(), hostilePPPoEServer()} {
		t.Run("pppoe/"+pc.Role, func(t *testing.T) { hostile.Run(t, ptg, hostile.PPPoE(h.pppDrv, pc)) })
	}
}

func ptr[T any](v T) *T { return &v }

// hostileLab is router r of a lab of the test's own (host a — r — host b:
// r's eth1 198.18.1.1/24, eth2 198.18.2.1/24) with the Linux driver on
// it over SSH.
type hostileLab struct {
	l      *lab.Lab
	client *sshx.Client
	drv    *linux.Driver
	pppDrv device.Driver
	host   string // r's host name at Up
}

func newHostileLab(t *testing.T, name string, mgmt int) *hostileLab {
	t.Helper()
	for _, c := range []string{"nft", "ethtool", "swanctl", "openvpn", "wg", "xl2tpd", "pppd", "pppoe-server"} {
		testenv.RequireCommand(t, c, "bash .ci/install-deps (Debian: nftables ethtool strongswan-swanctl charon-systemd openvpn wireguard-tools xl2tpd ppp pppoe)")
	}
	s := lab.DefaultSpec(name)
	s.MgmtNet = mgmt
	l, c := labRouter(t, s)
	n := l.Node("r")
	if n.CharonPID == 0 {
		t.Fatalf("router r runs no charon: %s", n.CharonMissing)
	}
	h := &hostileLab{l: l, client: c, drv: linux.New(c), host: n.Hostname}
	h.pppDrv = pppCheckless{h.drv}
	h.standInPPPD(t)
	// A sentinel left by an earlier run would be blamed on the first value.
	if err := os.Remove("/tmp/" + hostile.Sentinel); err == nil {
		t.Logf("removed /tmp/%s left by an earlier run", hostile.Sentinel)
	}
	t.Cleanup(func() { _ = os.Remove("/tmp/" + hostile.Sentinel) })
	return h
}

// labRouter starts s (whose router is r) and returns an SSH client to r
// as the provider makes one for a Linux device.
func labRouter(t *testing.T, s lab.Spec) (*lab.Lab, *sshx.Client) {
	t.Helper()
	l := labtest.Start(t, s)
	n := l.Node("r")
	c := sshx.NewClient("r", sshx.Config{Endpoint: sshx.Endpoint{
		Host: n.MgmtAddr, Port: n.SSHPort, User: "root",
		Auth:           sshx.Auth{PrivateKey: l.ClientKeyPEM()},
		KnownHostsFile: l.KnownHostsPath(),
	}, Dialect: drivers.Dialect(device.Linux)}, nil)
	t.Cleanup(func() { c.Close() })
	return l, c
}

// standInPPPD puts a pppd in r's BinDir for the PPPoE client's `pppd
// file <options>`: this kernel's pppd cannot start a PPPoE session (the
// rp-pppoe plugin refuses to load without kernel PPP support, exit 1,
// before the rest of the file is read), so the stand-in has the real pppd
// parse the options file the driver wrote, and through its `file` line
// the secret file, without the plugin's lines and with /dev/null for a
// device: exit 4 ("no kernel support", which pppd gives after parsing) is
// taken as the daemon started, a bad option (exit 2: a value that ended
// its line early and began a directive pppd does not know) fails the
// apply as it would on a router with PPP.
func (h *hostileLab) standInPPPD(t *testing.T) {
	t.Helper()
	pppd, err := exec.LookPath("pppd")
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`#!/bin/sh
[ "$#" -eq 2 ] && [ "$1" = file ] || exec %[1]s "$@"
tmp=$(mktemp) || exit 1
grep -v -e '^plugin ' -e '^nic-' -e '^pppoe-' "$2" >"$tmp"
%[1]s file "$tmp" /dev/null
rc=$?
rm -f "$tmp"
[ "$rc" -eq 4 ] && exit 0
exit "$rc"
`, shell.Quote(pppd))
	if err := os.WriteFile(filepath.Join(h.l.Node("r").BinDir, "pppd"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// effects reports, and clears, what a second command left on the router.
func (h *hostileLab) effects() error {
	var found []string
	if err := os.Remove("/tmp/" + hostile.Sentinel); err == nil {
		found = append(found, "/tmp/"+hostile.Sentinel+" exists")
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := h.l.Exec(ctx, "r", "cat", "/proc/sys/kernel/hostname")
	if err != nil {
		return err
	}
	if strings.TrimSpace(out) == hostile.Sentinel {
		found = append(found, "the host name is "+hostile.Sentinel)
		if _, err := h.l.Exec(ctx, "r", "sysctl", "-qw", "kernel.hostname="+h.host); err != nil {
			return err
		}
	}
	if len(found) > 0 {
		return errors.New(strings.Join(found, "; "))
	}
	return nil
}

// checkEffects proves the detector sees a second command's traces, run
// where the driver's commands run (a session on the router), and clears
// them.
func (h *hostileLab) checkEffects(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := h.client.RunWrite(ctx, "sh -e -s", []byte("touch /tmp/"+hostile.Sentinel+"\nsysctl -qw kernel.hostname="+hostile.Sentinel+"\n"))
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("the second command: %v %+v", err, res)
	}
	err = h.effects()
	if err == nil || !strings.Contains(err.Error(), "/tmp/"+hostile.Sentinel) || !strings.Contains(err.Error(), "host name") {
		t.Fatalf("the detector missed a second command's traces: %v", err)
	}
	if err := h.effects(); err != nil {
		t.Fatalf("the traces were not cleared: %v", err)
	}
}

// pppCheckless is the driver but for its snapshot's report of a missing
// /dev/ppp: the plan's check that refuses PPP on this machine's kernel
// is about the machine, not a value.
type pppCheckless struct{ *linux.Driver }

func (d pppCheckless) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	snap, err := d.Driver.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	snap.Facts.Missing = slices.DeleteFunc(slices.Clone(snap.Facts.Missing), func(m string) bool { return m == "/dev/ppp" })
	return snap, nil
}

func hostileIPsec() device.TunnelConfig {
	return device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, MSSClamp: &device.MSSClamp{Value: 1360},
		IPsec: &device.IPsecConfig{IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256"},
			PSK: "routerlab-test-psk-0x41", Mode: device.ModeTunnel, LocalAddress: "198.18.1.1", RemoteAddress: "198.18.1.10",
			LocalSubnets: []string{"198.18.2.0/24"}, RemoteSubnets: []string{"198.18.10.0/24"}, DPDDelay: 30, Initiate: false}}
}

// hostileOVPNKey is an OpenVPN static key of our own (2048 bits of a pattern).
func hostileOVPNKey() string {
	var b strings.Builder
	b.WriteString("-----BEGIN OpenVPN Static key V1-----\n")
	for i := range 16 {
		fmt.Fprintf(&b, "%032x\n", 0x5ad0c0ffee0000+i)
	}
	b.WriteString("-----END OpenVPN Static key V1-----\n")
	return b.String()
}

func hostileOVPN(name, role string) device.TunnelConfig {
	c := &device.OpenVPNConfig{Role: role, Port: 1194, Protocol: "udp", Cipher: "AES-256-CBC", Auth: "SHA256",
		LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", StaticKey: hostileOVPNKey()}
	if role == device.RoleClient {
		c.Remote = "198.18.1.10"
		c.LocalAddress, c.RemoteAddress = c.RemoteAddress, c.LocalAddress
	}
	return device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, MTU: ptr(1400), MSSClamp: &device.MSSClamp{ToPMTU: true}, OpenVPN: c}
}

// Keys of our own (32 bytes, base64).
func hostileWG() device.TunnelConfig {
	return device.TunnelConfig{
		Name: "wga1", Type: device.TunnelWireGuard, MTU: ptr(1380),
		MSSClamp: &device.MSSClamp{Value: 1340},
		WireGuard: &device.WireGuardConfig{
			PrivateKey: "cm91dGVybGFiLXRlc3Qta2V5LWEtcHJpdmF0ZS0wMDA=", ListenPort: 51820, Addresses: []string{"198.18.80.1/24"},
			Peers: []device.WireGuardPeer{
				{PublicKey: "NOYiKsHK766O/YIqApPMbPJMUnjBpdv+JYdhCdM8CQ0=", PresharedKey: "cm91dGVybGFiLXRlc3QtcHJlc2hhcmVkLWtleS0wMDE=",
					Endpoint: "198.18.1.10:51820", AllowedIPs: []string{"198.18.80.2/32", "198.18.82.0/24"}, PersistentKeepalive: 25},
				{PublicKey: "8H3kNQcPN2MYVfR5qqnh0Z1Kwv9wZTT2lVs0/zw9nV8=", AllowedIPs: []string{"198.18.83.0/24"}},
			},
		},
	}
}

func hostilePPPoEClient() device.PPPoEConfig {
	return device.PPPoEConfig{Name: "wan0", Role: device.RoleClient, Interface: "eth1", MTU: ptr(1454), MRU: ptr(1454),
		MSSClamp: &device.MSSClamp{Value: 1414}, User: "ppp1", Password: `cl1ent\pw #1 'x'`, DefaultRoute: true, UsePeerDNS: true}
}

func hostilePPPoEServer() device.PPPoEConfig {
	return device.PPPoEConfig{Name: "srv0", Role: device.RoleServer, Interface: "eth2", ServiceName: "lab", MTU: ptr(1454), MRU: ptr(1454),
		LocalAddress: "198.18.50.1", RemotePool: "198.18.50.10-198.18.50.254",
		Users: []device.PPPUser{{Name: "ppp1", Password: `srv\\pw 'y' #2`}}}
}

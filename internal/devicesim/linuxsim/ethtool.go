package linuxsim

import (
	"fmt"
	"strings"
)

// ethtool -k / -K over each interface's features. An interface starts
// with the captured defaults of its kind (ethtool_data.go: veth for the
// ethernet links, lo, TUN for wireguard-go and OpenVPN devices). The
// kernel's dependencies (netdev_fix_features) decide what is really on:
// TCP/UDP segmentation needs a checksum feature and scatter-gather, GSO
// and the fraglist need scatter-gather; a feature requested on but held
// off prints "off [requested on]", as ethtool does. Fixed features do not
// change.

// ethFeature is one line of `ethtool -k`.
type ethFeature struct {
	name    string
	part    bool // indented under a group line
	group   bool // tx-checksumming, scatter-gather, tcp-segmentation-offload
	fixed   bool
	wanted  bool
	active  bool
	blocked bool // off for a reason of the device's own (TUN without offloads)
}

// ethtoolAliases are `ethtool -K`'s legacy names and the kernel names of
// the features it prints under a legacy name.
var ethtoolAliases = map[string][]string{
	"rx": {"rx-checksumming"}, "rx-checksum": {"rx-checksumming"},
	"tx":  {"tx-checksum-ipv4", "tx-checksum-ip-generic", "tx-checksum-ipv6", "tx-checksum-fcoe-crc", "tx-checksum-sctp"},
	"sg":  {"tx-scatter-gather", "tx-scatter-gather-fraglist"},
	"tso": {"tx-tcp-segmentation", "tx-tcp-ecn-segmentation", "tx-tcp-mangleid-segmentation", "tx-tcp6-segmentation"},
	"gso": {"generic-segmentation-offload"}, "tx-generic-segmentation": {"generic-segmentation-offload"},
	"gro": {"generic-receive-offload"}, "rx-gro": {"generic-receive-offload"},
	"lro": {"large-receive-offload"}, "rx-lro": {"large-receive-offload"},
	"rxvlan": {"rx-vlan-offload"}, "rx-vlan-hw-parse": {"rx-vlan-offload"},
	"txvlan": {"tx-vlan-offload"}, "tx-vlan-hw-insert": {"tx-vlan-offload"},
	"ntuple": {"ntuple-filters"}, "rx-ntuple-filter": {"ntuple-filters"},
	"rxhash": {"receive-hashing"}, "rx-hashing": {"receive-hashing"},
}

// Features the kernel drops without a checksum feature and
// scatter-gather (NETIF_F_ALL_TSO, UDP segmentation), or without
// scatter-gather (GSO, fraglist).
var (
	needCsumSG = map[string]bool{"tx-tcp-segmentation": true, "tx-tcp-ecn-segmentation": true,
		"tx-tcp-mangleid-segmentation": true, "tx-tcp6-segmentation": true, "tx-udp-segmentation": true}
	needSG = map[string]bool{"generic-segmentation-offload": true, "tx-scatter-gather-fraglist": true}
)

// newFeatures builds an interface's features from a captured template.
func newFeatures(values []string) []ethFeature {
	fs := make([]ethFeature, len(ethtoolNames))
	for i, n := range ethtoolNames {
		v := values[i]
		f := ethFeature{name: strings.TrimPrefix(n, "\t"), part: strings.HasPrefix(n, "\t")}
		f.fixed = strings.HasSuffix(v, "[fixed]")
		f.active = strings.HasPrefix(v, "on")
		f.wanted = f.active || strings.HasSuffix(v, "[requested on]")
		f.blocked = strings.HasSuffix(v, "[requested on]")
		fs[i] = f
	}
	for i := range fs {
		fs[i].group = i+1 < len(fs) && fs[i+1].part && !fs[i].part
	}
	// What dependencies explain is not blocked.
	st := featureIndex(fs)
	for i := range fs {
		if fs[i].blocked && !st.depsOK(fs[i].name) {
			fs[i].blocked = false
		}
	}
	return fs
}

type featureSet map[string]*ethFeature

func featureIndex(fs []ethFeature) featureSet {
	m := featureSet{}
	for i := range fs {
		m[fs[i].name] = &fs[i]
	}
	return m
}

func (m featureSet) on(name string) bool { f := m[name]; return f != nil && f.active }

func (m featureSet) depsOK(name string) bool {
	csum := m.on("tx-checksum-ipv4") || m.on("tx-checksum-ip-generic") || m.on("tx-checksum-ipv6")
	sg := m.on("tx-scatter-gather")
	switch {
	case needCsumSG[name]:
		return csum && sg
	case needSG[name]:
		return sg
	}
	return true
}

// settle recomputes what is on from what is wanted (twice: the
// dependencies chain at most one step further).
func settle(fs []ethFeature) {
	m := featureIndex(fs)
	for range 2 {
		for i := range fs {
			f := &fs[i]
			if f.fixed || f.group {
				continue
			}
			f.active = f.wanted && !f.blocked && m.depsOK(f.name)
		}
	}
	for i := range fs {
		if fs[i].group {
			on := false
			for j := i + 1; j < len(fs) && fs[j].part; j++ {
				on = on || fs[j].active
			}
			fs[i].active = on
		}
	}
}

func (f ethFeature) String() string {
	v := "off"
	if f.active {
		v = "on"
	}
	switch {
	case f.fixed:
		v += " [fixed]"
	case !f.group && f.wanted != f.active:
		v += " [requested " + onOffWord(f.wanted) + "]"
	}
	return v
}

func onOffWord(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// ethtoolK is `ethtool -k DEV`.
func ethtoolK(ifc *iface) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Features for %s:\n", ifc.name)
	for _, f := range ifc.features {
		if f.part {
			b.WriteByte('\t')
		}
		fmt.Fprintf(&b, "%s: %s\n", f.name, f)
	}
	return b.String()
}

// setFeatures is `ethtool -K DEV KEY on|off ...`: the output, the
// errors, the exit status.
func setFeatures(ifc *iface, args []string) (string, string, int) {
	if len(args)%2 != 0 {
		return "", "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n", 1
	}
	m := featureIndex(ifc.features)
	requested := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		key, val := args[i], args[i+1]
		if val != "on" && val != "off" {
			return "", "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n", 1
		}
		names := ethtoolAliases[key]
		if names == nil {
			if f := m[key]; f != nil && !f.group {
				names = []string{key}
			}
		}
		if names == nil {
			return "", "netlink error: bit name not found (offset 52)\nnetlink error: Operation not supported\n", 92
		}
		for _, n := range names {
			requested[n] = val == "on"
		}
	}
	before := make(map[string]bool, len(m))
	for n, f := range m {
		before[n] = f.active
	}
	// ethtool fails only when the kernel took none of the request: the
	// features asked for are fixed at other values.
	refused, took := false, false
	for n, v := range requested {
		f := m[n]
		switch {
		case f.fixed && f.active != v:
			refused = true
		case !f.fixed:
			took = true
			f.wanted = v
		}
	}
	settle(ifc.features)
	mismatch := false
	for _, f := range ifc.features {
		if f.group {
			continue
		}
		v, req := requested[f.name]
		if f.active != before[f.name] && !req {
			mismatch = true
		}
		if req && f.active != v {
			mismatch = true
		}
	}
	var out strings.Builder
	if mismatch {
		out.WriteString("Actual changes:\n")
		for _, f := range ifc.features {
			v, req := requested[f.name]
			switch {
			case f.group:
			case !req && f.active != before[f.name]:
				fmt.Fprintf(&out, "%s: %s [not requested]\n", f.name, onOffWord(f.active))
			case req && f.active != v:
				fmt.Fprintf(&out, "%s: %s [requested %s]\n", f.name, onOffWord(f.active), onOffWord(v))
			case req && f.active != before[f.name]:
				fmt.Fprintf(&out, "%s: %s\n", f.name, onOffWord(f.active))
			}
		}
	}
	if refused && !took {
		return out.String(), "Could not change any device features\n", 1
	}
	return out.String(), "", 0
}

// cmdEthtool is `ethtool -k DEV` and `ethtool -K DEV KEY on|off...`.
func cmdEthtool(c *call) int {
	args := c.args[1:]
	if len(args) < 2 || (args[0] != "-k" && args[0] != "-K" && args[0] != "--show-features" && args[0] != "--features") {
		c.errorf("ethtool: linuxsim knows ethtool -k DEV and ethtool -K DEV FEATURE on|off...")
		return 1
	}
	ifc, err := c.sh.r.findIface(args[1])
	if err != nil {
		c.errorf("netlink error: no device matches name (offset 24)\nnetlink error: No such device")
		if args[0] == "-k" || args[0] == "--show-features" {
			return 1
		}
		return 92
	}
	if args[0] == "-k" || args[0] == "--show-features" {
		if len(args) > 2 {
			c.errorf("ethtool: bad command line argument(s)\nFor more information run ethtool -h")
			return 1
		}
		fmt.Fprint(c.stdout, ethtoolK(ifc))
		return 0
	}
	out, errs, code := setFeatures(ifc, args[2:])
	fmt.Fprint(c.stdout, out)
	fmt.Fprint(c.stderr, errs)
	return code
}

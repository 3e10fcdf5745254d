package linux

import (
	"context"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// routerlab_offload on Linux: groups are interface names, keys are
// `ethtool -K` feature names. The snapshot reads `ethtool -k` of every
// interface; a key's state is the line ethtool prints for it, and
// "[fixed]" on that line means the driver does not let it change.

// offloadFeatures are the keys Linux knows, in text order: ethtool's
// short names where it has one, else the kernel's feature name, which
// `ethtool -K` accepts as well. long is the line `ethtool -k` prints for
// the key. Keys left out: ufo (gone from kernels since 4.14: -K fails),
// and the many tx-*-segmentation and hardware-only features that matter
// to no forwarding benchmark.
//
// tso, sg and tx switch several kernel features at once, printed
// indented under their line; parts are the ones that decide whether the
// key is on (see ParseEthtoolFeatures).
var offloadFeatures = []struct {
	key, long string
	parts     []string
}{
	{"gro", "generic-receive-offload", nil},
	{"gso", "generic-segmentation-offload", nil},
	{"tso", "tcp-segmentation-offload", []string{"tx-tcp-segmentation", "tx-tcp6-segmentation"}},
	{"lro", "large-receive-offload", nil},
	{"sg", "scatter-gather", []string{"tx-scatter-gather"}},
	{"rx", "rx-checksumming", nil},
	{"tx", "tx-checksumming", []string{"tx-checksum-ipv4", "tx-checksum-ip-generic", "tx-checksum-ipv6"}},
	{"rxvlan", "rx-vlan-offload", nil},
	{"txvlan", "tx-vlan-offload", nil},
	{"ntuple", "ntuple-filters", nil},
	{"rxhash", "receive-hashing", nil},
	{"rx-gro-hw", "rx-gro-hw", nil},
	{"rx-gro-list", "rx-gro-list", nil},
	{"rx-udp-gro-forwarding", "rx-udp-gro-forwarding", nil},
}

var _ device.OffloadSettings = (*Driver)(nil)

// OffloadKeys lists the keys Linux knows.
func OffloadKeys() []string {
	keys := make([]string, len(offloadFeatures))
	for i, f := range offloadFeatures {
		keys[i] = f.key
	}
	return keys
}

// OffloadKeys implements device.OffloadSettings.
func (d *Driver) OffloadKeys() []string { return OffloadKeys() }

// offloadPart prints one "##ethtool <interface>" section per interface
// (entries of /sys/class/net without ifindex, like bonding_masters, are
// not interfaces); nothing without ethtool. A PPP interface (type 512,
// ARPHRD_PPP) exists only while its session is up (isSessionLink): its
// offloads are no configuration, and with them a router's digest changed
// whenever a peer's session came or went (a PPPoE server's ppp0 for each
// client), so a benchmark through it planned a re-run. The type is read
// with the shell's own read, not cat: a fork per interface on every
// snapshot costs (some 0.2 s each inside user-mode Linux).
var offloadPart = snapshotPart{
	script: `if command -v ethtool >/dev/null 2>&1; then
for p in /sys/class/net/*; do [ -e "$p/ifindex" ] || continue; t=; read -r t 2>/dev/null <"$p/type" || :; [ "$t" != 512 ] || continue; echo "##ethtool ${p##*/}"; ethtool -k "${p##*/}" 2>/dev/null || true; done
fi
`,
	parse: func(sec map[string]string, snap *device.Snapshot) ([]string, error) {
		st, text, err := parseOffloadSections(sec)
		if err != nil {
			return nil, err
		}
		snap.Offload = st
		return text, nil
	},
}

// parseOffloadSections reads every ##ethtool section; the text is one
// line per interface with every known key it reports.
func parseOffloadSections(sec map[string]string) (device.OffloadState, []string, error) {
	st := device.OffloadState{Settings: map[string]map[string]bool{}, Fixed: map[string]map[string]bool{}}
	var text []string
	for _, name := range device.SortedKeys(sec) {
		ifc, ok := strings.CutPrefix(name, "ethtool ")
		if !ok {
			continue
		}
		on, fixed, err := ParseEthtoolFeatures(sec[name])
		if err != nil {
			return st, nil, fmt.Errorf("linux snapshot: ethtool -k %s: %w", ifc, err)
		}
		if len(on) == 0 {
			continue // ethtool had nothing to say about it
		}
		st.Settings[ifc] = on
		if len(fixed) > 0 {
			st.Fixed[ifc] = fixed
		}
		line := "offload " + ifc
		for _, f := range offloadFeatures {
			if v, ok := on[f.key]; ok {
				line += " " + f.key + " " + onOff(v)
			}
		}
		text = append(text, line)
	}
	return st, text, nil
}

// ParseEthtoolFeatures reads `ethtool -k` output (the "Features for X:"
// form of ethtool 3.x on, and the older "Offload parameters for X:"):
// "name: on|off" lines, with "[fixed]" (or "[requested on]" and the
// like) after the value, and indented under a short name's line the
// kernel features it covers. It returns the known keys: on, and fixed
// when marked so.
//
// A short name with parts reads on when each of its parts the device has
// (printed, and not "off [fixed]") is on, and falls back to its own line
// when it has none of them (older ethtool prints no parts). The line
// alone misleads both ways: ethtool prints it on when any feature under
// it is on, so with sg off `-K tso on` leaves TCP and TCPv6 segmentation
// off yet a newer feature grouped there turns on and the line says on
// (testdata/ethtool_veth_mixed.txt); and a NIC segmenting TCP with
// tx-tcp-mangleid-segmentation off is still doing TSO.
func ParseEthtoolFeatures(out string) (on, fixed map[string]bool, err error) {
	lines := map[string]string{}
	for _, l := range device.Lines(out) {
		if name, rest, ok := strings.Cut(strings.TrimSpace(l), ": "); ok {
			lines[name] = rest // "Features for eth1:" has no ": "
		}
	}
	on, fixed = map[string]bool{}, map[string]bool{}
	for _, f := range offloadFeatures {
		line, ok := lines[f.long]
		if !ok {
			continue
		}
		v, err := ethtoolValue(line)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f.long, err)
		}
		usable := 0
		all := true
		for _, p := range f.parts {
			pl, ok := lines[p]
			if !ok {
				continue
			}
			pv, err := ethtoolValue(pl)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", p, err)
			}
			if !pv && strings.Contains(pl, "[fixed]") {
				continue // the device does not have it
			}
			usable++
			all = all && pv
		}
		if usable > 0 {
			v = all
		}
		on[f.key] = v
		if strings.Contains(line, "[fixed]") {
			fixed[f.key] = true
		}
	}
	return on, fixed, nil
}

// ethtoolValue reads "on", "off [fixed]", "off [requested on]".
func ethtoolValue(s string) (bool, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 || (fields[0] != "on" && fields[0] != "off") {
		return false, fmt.Errorf("want on or off, got %q", s)
	}
	return fields[0] == "on", nil
}

// ValidateOffload implements device.OffloadSettings.
func (d *Driver) ValidateOffload(desired device.OffloadConfig) error { return ValidateOffload(desired) }

// ValidateOffload checks the keys against OffloadKeys and the groups as
// Linux interface names.
func ValidateOffload(c device.OffloadConfig) error {
	return device.ValidateOffloadKeys(device.Linux, c, OffloadKeys(), func(name string) error {
		if err := device.ValidateInterfaceName(name); err != nil {
			return fmt.Errorf("settings[%q]: %w", name, err)
		}
		if len(name) > maxIfNameLen || strings.ContainsAny(name, "/:") {
			return fmt.Errorf("settings[%q]: interface name %q: Linux names are at most %d characters without '/' or ':'", name, name, maxIfNameLen)
		}
		return nil
	})
}

// CheckOffload implements device.OffloadSettings: ethtool must be
// installed, the interfaces must exist and report the keys, and a key the
// driver marks [fixed] cannot be set to another value than it has.
func (d *Driver) CheckOffload(desired device.OffloadConfig, snap *device.Snapshot) error {
	if err := checkDeviceSupport("routerlab_offload", []string{"ethtool"}, false, snap.Facts.Missing); err != nil {
		return err
	}
	var missing []string
	for _, ifc := range device.SortedKeys(desired.Settings) {
		if _, ok := snap.Router.Interfaces[ifc]; !ok {
			missing = append(missing, ifc)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("routerlab_offload: interface %s not found on the device; it has: %s", strings.Join(missing, ", "), strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
	}
	for _, ifc := range device.SortedKeys(desired.Settings) {
		for _, f := range offloadFeatures {
			want, ok := desired.Settings[ifc][f.key]
			if !ok {
				continue
			}
			have, reported := snap.Offload.Settings[ifc][f.key]
			switch {
			case !reported:
				return fmt.Errorf("settings[%q]: interface %s does not report offload key %q (`ethtool -k %s` prints no %s line): its kernel, driver or ethtool lacks it", ifc, ifc, f.key, ifc, f.long)
			case snap.Offload.Fixed[ifc][f.key] && have != want:
				return fmt.Errorf("settings[%q]: offload key %q of interface %s is fixed %s by its driver (`ethtool -k` shows %s: %s [fixed]) and cannot be switched %s", ifc, f.key, ifc, onOff(have), f.long, onOff(have), onOff(want))
			}
		}
	}
	return nil
}

// ApplyOffload implements device.OffloadSettings: ethtool -K, then a
// read-back, because ethtool exits 0 when the kernel changed some
// features and refused others ("[requested on]": tso stays off while sg
// or tx is off), so its exit status alone proves nothing.
func (d *Driver) ApplyOffload(ctx context.Context, desired device.OffloadConfig) error {
	script, err := RenderOffload(desired)
	if err != nil {
		return err
	}
	if err := d.run(ctx, "applying offload settings", script); err != nil {
		return err
	}
	res, err := d.t.Run(ctx, offloadReadScript(desired))
	if err != nil {
		return fmt.Errorf("reading offload settings back: %w", err)
	}
	if res.ExitStatus != 0 {
		return device.CommandError("reading offload settings back", res)
	}
	st, _, err := parseOffloadSections(sections(res.Stdout))
	if err != nil {
		return err
	}
	return offloadMismatch(desired, st)
}

// RenderOffload returns the script that sets every key of c, one
// `ethtool -K` per interface. An interface gone by apply time is skipped
// with a note: the same method restores originals on delete, which must
// not fail because a virtual interface was removed meanwhile (plan-time
// CheckOffload refuses missing interfaces for new settings).
func RenderOffload(c device.OffloadConfig) (string, error) {
	if err := ValidateOffload(c); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`command -v ethtool >/dev/null || { echo "ethtool is not installed on the device: apt-get install ethtool" >&2; exit 127; }` + "\n")
	for _, ifc := range device.SortedKeys(c.Settings) {
		dev := shell.Quote(ifc)
		var args []string
		for _, f := range offloadFeatures {
			if v, ok := c.Settings[ifc][f.key]; ok {
				args = append(args, f.key+" "+onOff(v))
			}
		}
		fmt.Fprintf(&b, "if [ -e /sys/class/net/%s ]; then ethtool -K %s %s; else echo %s >&2; fi\n",
			dev, dev, strings.Join(args, " "), shell.Quote("interface "+ifc+" is gone: its offload settings were skipped"))
	}
	return b.String(), nil
}

// offloadReadScript prints the snapshot's ##ethtool sections for the
// interfaces of c that exist.
func offloadReadScript(c device.OffloadConfig) string {
	var b strings.Builder
	b.WriteString("export LC_ALL=C\n")
	for _, ifc := range device.SortedKeys(c.Settings) {
		dev := shell.Quote(ifc)
		fmt.Fprintf(&b, "if [ -e /sys/class/net/%s ]; then echo %s; ethtool -k %s 2>/dev/null || true; fi\n", dev, shell.Quote("##ethtool "+ifc), dev)
	}
	return b.String()
}

// offloadMismatch names every key of desired the device reports at
// another value (interfaces it no longer reports were skipped).
func offloadMismatch(desired device.OffloadConfig, st device.OffloadState) error {
	var bad []string
	for _, ifc := range device.SortedKeys(desired.Settings) {
		have, ok := st.Settings[ifc]
		if !ok {
			continue
		}
		for _, f := range offloadFeatures {
			want, ok := desired.Settings[ifc][f.key]
			if ok && have[f.key] != want {
				bad = append(bad, fmt.Sprintf("%s %s is %s, not %s", ifc, f.key, onOff(have[f.key]), onOff(want)))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("after ethtool -K: %s (the driver refused it, or the key depends on another: tso needs sg and tx, sg needs tx)", strings.Join(bad, "; "))
	}
	return nil
}

package edgeossim

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Release is a firmware line the simulator models: its schema (the paths
// `set` takes), its `show version` and its factory default configuration.
type Release string

// The releases. EdgeOS 1.10 and 2.0 are Ubiquiti's; VyOS 1.3 (equuleus),
// 1.4 (sagitta) and 1.5 (circinus) are vyos-1x's release branches of those
// names, whose interface-definitions are the source of each schema.
const (
	EdgeOS110 Release = "edgeos-1.10"
	EdgeOS20  Release = "edgeos-2.0"
	VyOS13    Release = "vyos-1.3"
	VyOS14    Release = "vyos-1.4"
	VyOS15    Release = "vyos-1.5"
)

// Releases lists the modelled releases, oldest first per flavour.
func Releases() []Release { return []Release{EdgeOS110, EdgeOS20, VyOS13, VyOS14, VyOS15} }

// Flavour is the CLI dialect of the release.
func (r Release) Flavour() Flavour {
	if strings.HasPrefix(string(r), "vyos-") {
		return VyOS
	}
	return EdgeOS
}

// releaseInfo is what a release prints in `show version` and its default
// version string.
type releaseInfo struct {
	version string // a version of the release, as `show version` prints it
	train   string // VyOS: the release train (vyos-1x's branch name)
	buildID string // EdgeOS: "Build ID:"
	buildOn string // EdgeOS: "Build on:"
	year    string // EdgeOS: the copyright's last year
}

// releases: the version strings are real releases (EdgeOS v1.10.9 and
// v2.0.9-hotfix.7 as users publish `show version` of them; VyOS tags
// 1.3.8 and 1.4.0 of vyos/vyos-1x, and 1.5's rolling numbering
// "1.5-rolling-YYYYMMDDhhmm" of circinus before its LTS). Build IDs and
// dates are invented in the published shape.
var releases = map[Release]releaseInfo{
	EdgeOS110: {version: "v1.10.9", buildID: "5182454", buildOn: "03/22/19 11:29", year: "2019"},
	EdgeOS20:  {version: "v2.0.9-hotfix.7", buildID: "5619999", buildOn: "04/20/23 10:10", year: "2023"},
	VyOS13:    {version: "1.3.8", train: "equuleus"},
	VyOS14:    {version: "1.4.0", train: "sagitta"},
	VyOS15:    {version: "1.5-rolling-202410150000", train: "circinus"},
}

var (
	reEdgeOSVersion = regexp.MustCompile(`^v?([12])\.(\d+)\.\d+`)
	reVyOSVersion   = regexp.MustCompile(`^(?:VyOS )?1\.([345])(?:[.-]|$)`)
)

// ReleaseOf reads a `show version` version string of flavour f as one of
// the modelled releases: EdgeOS v1.x is 1.10's line (1.10 is the last 1.x
// and the one modelled), v2.x is 2.0's; VyOS 1.3.x, 1.4.x, 1.5.x (and
// their rolling builds, "1.5-rolling-...") by their minor number.
func ReleaseOf(f Flavour, version string) (Release, error) {
	if f == VyOS {
		m := reVyOSVersion.FindStringSubmatch(version)
		if m == nil {
			return "", fmt.Errorf("edgeossim: VyOS version %q: the simulator models 1.3, 1.4 and 1.5", version)
		}
		return Release("vyos-1." + m[1]), nil
	}
	m := reEdgeOSVersion.FindStringSubmatch(version)
	if m == nil {
		return "", fmt.Errorf("edgeossim: EdgeOS version %q: the simulator models v1.10 and v2.0", version)
	}
	if m[1] == "1" {
		return EdgeOS110, nil
	}
	return EdgeOS20, nil
}

// Board is an EdgeRouter model: what `show version` calls it and the
// Ethernet ports it has.
type Board struct {
	Model     string
	Ethernets []string
}

// Boards are the EdgeRouters modelled, by Ubiquiti's short name. The
// model strings are `show version`'s "HW model:" as users publish it
// ("EdgeRouter 6P", "EdgeRouter X 5-Port", "EdgeRouter Lite 3-Port");
// the ports are the boards' (ER-6P: eth0-eth5, ER-X: eth0-eth4, ERL:
// eth0-eth2; Ubiquiti's data sheets).
var Boards = map[string]Board{
	"ER-6P": {Model: "EdgeRouter 6P", Ethernets: ethNames(6)},
	"ER-X":  {Model: "EdgeRouter X 5-Port", Ethernets: ethNames(5)},
	"ERL":   {Model: "EdgeRouter Lite 3-Port", Ethernets: ethNames(3)},
}

func ethNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("eth%d", i)
	}
	return out
}

// boardOf finds the board named name ("" is the ER-6P).
func boardOf(name string) (Board, error) {
	if name == "" {
		name = "ER-6P"
	}
	b, ok := Boards[name]
	if !ok {
		names := make([]string, 0, len(Boards))
		for n := range Boards {
			names = append(names, n)
		}
		slices.Sort(names)
		return Board{}, fmt.Errorf("edgeossim: unknown board %q (have %s)", name, strings.Join(names, ", "))
	}
	return b, nil
}

// showVersion prints `show version` in the release's layout.
//
// EdgeOS (1.10 and 2.0 alike): ubnt-hal show-version's key/value lines
// (Version, Build ID, Build on, Copyright, HW model, HW S/N, Uptime), as
// users publish them for v1.10.x and v2.0.x.
//
// VyOS: vyos-1x's template. 1.3 (equuleus src/op_mode/show_version.py)
// renders the template with jinja2 and prints it: a blank first line
// (the template starts with a line break), no "Release flavor". 1.4 and
// 1.5 (sagitta/circinus src/op_mode/version.py, tag 1.4.0 too) add
// "Release flavor:" and strip the rendering before printing it, so the
// output starts at "Version:". The flavour value "generic" is vyos-build's
// build flavour of the ISO (data/build-flavors/generic.toml on circinus);
// assumption for 1.4, whose ISO flavour file is iso.toml.
func (d *Device) showVersion(out io.Writer) {
	info := releases[d.release]
	if d.flavour == VyOS {
		var b strings.Builder
		if d.release == VyOS13 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Version:          VyOS %s\nRelease train:    %s\n", d.version, info.train)
		if d.release != VyOS13 {
			b.WriteString("Release flavor:   generic\n")
		}
		b.WriteString("\nBuilt by:         routerlab edgeossim\nBuilt on:         Mon 01 Jan 2024 00:00 UTC\nBuild UUID:       00000000-0000-4000-8000-000000000000\nBuild commit ID:  0000000000000\n\n")
		b.WriteString("Architecture:     x86_64\nBoot via:         installed image\nSystem type:      KVM guest\n\n")
		fmt.Fprintf(&b, "Hardware vendor:  QEMU\nHardware model:   %s\nHardware S/N:     %s\nHardware UUID:    00000000-0000-4000-8000-000000000001\n\n", d.model, Serial)
		b.WriteString("Copyright:        VyOS maintainers and contributors\n")
		_, _ = io.WriteString(out, b.String())
		return
	}
	fmt.Fprintf(out, "Version:      %s\n", d.version)
	fmt.Fprintf(out, "Build ID:     %s\n", info.buildID)
	fmt.Fprintf(out, "Build on:     %s\n", info.buildOn)
	fmt.Fprintf(out, "Copyright:    2012-%s Ubiquiti Networks, Inc.\n", info.year)
	fmt.Fprintf(out, "HW model:     %s\n", d.model)
	fmt.Fprintf(out, "HW S/N:       %s\n", Serial)
	fmt.Fprintf(out, "Uptime:       12:00:00 up 3 days,  2:04,  1 user,  load average: 0.08, 0.03, 0.01\n")
}

// Release is the release the device runs.
func (d *Device) Release() Release { return d.release }

// setRelease fills the release, version, model and Ethernet ports from
// the flavour, Options.Version and the board.
func (d *Device) setRelease(board string) error {
	if d.version == "" {
		d.version = map[Flavour]string{EdgeOS: DefaultEdgeOSVersion, VyOS: DefaultVyOSVersion}[d.flavour]
	}
	r, err := ReleaseOf(d.flavour, d.version)
	if err != nil {
		return err
	}
	d.release = r
	if d.flavour == VyOS {
		if board != "" {
			return fmt.Errorf("edgeossim: board %q: VyOS runs on no EdgeRouter board", board)
		}
		if d.model == "" {
			d.model = DefaultVyOSModel
		}
		if d.ethernets == nil {
			d.ethernets = ethNames(4)
		}
		return nil
	}
	b, err := boardOf(board)
	if err != nil {
		return err
	}
	if d.model == "" {
		d.model = b.Model
	}
	if d.ethernets == nil {
		d.ethernets = slices.Clone(b.Ethernets)
	}
	return nil
}

// onPorts drops the lines of Ethernet ports the router does not have
// (DefaultLines is an ER-6P's: an ERL has no eth3-eth5).
func (d *Device) onPorts(lines []string) []string {
	return slices.DeleteFunc(slices.Clone(lines), func(l string) bool {
		w := strings.Fields(l)
		return len(w) > 3 && w[1] == "interfaces" && w[2] == "ethernet" && !slices.Contains(d.ethernets, w[3])
	})
}

// wgPeerKeyLeaf is the VyOS WireGuard peer's public key leaf: `pubkey` on
// 1.3 (equuleus interfaces-wireguard.xml.in), `public-key` from 1.4.
func (d *Device) wgPeerKeyLeaf() string {
	if d.release == VyOS13 {
		return "pubkey"
	}
	return "public-key"
}

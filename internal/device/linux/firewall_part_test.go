package linux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// fwCases are the presets and their combinations; the golden files are
// testdata/firewall_<name>.sh.golden. Lists are unsorted on purpose: the
// device keeps no order, so the state comes back sorted.
var fwCases = []struct {
	name string
	cfg  device.FirewallConfig
}{
	{"none", device.FirewallConfig{Preset: device.FirewallNone}},
	{"none_extras", device.FirewallConfig{Preset: device.FirewallNone, Masquerade: []string{"wan0"}, MSSClamp: &device.MSSClamp{Value: 1400}, NotrackInterfaces: []string{"lan0"}}},
	{"allow_all", device.FirewallConfig{Preset: device.FirewallAllowAll}},
	{"allow_all_masquerade", device.FirewallConfig{Preset: device.FirewallAllowAll, Masquerade: []string{"wan1", "wan0"}, MSSClamp: &device.MSSClamp{ToPMTU: true}}},
	{"stateful", device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"wan0"}, Masquerade: []string{"wan0"}}},
	{"stateful_full", device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"wan1", "wan0"}, Masquerade: []string{"wan1", "wan0"}, MSSClamp: &device.MSSClamp{ToPMTU: true}, NotrackInterfaces: []string{"lan0", "wan1"}}},
}

// sortedFirewall is c as the device reports it: lists sorted.
func sortedFirewall(c device.FirewallConfig) device.FirewallState {
	for _, l := range []*[]string{&c.WANInterfaces, &c.Masquerade, &c.NotrackInterfaces} {
		if len(*l) == 0 {
			*l = nil
			continue
		}
		*l = slices.Sorted(slices.Values(*l))
	}
	return device.FirewallState{Present: true, FirewallConfig: c}
}

func TestRenderFirewallGolden(t *testing.T) {
	for _, c := range fwCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := RenderFirewall(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "firewall_"+c.name+".sh.golden", got)
		})
	}
	golden(t, "firewall_delete.sh.golden", RenderFirewallDelete())
}

func TestValidateFirewallErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  device.FirewallConfig
		want string
	}{
		{"preset", device.FirewallConfig{Preset: "open"}, `preset "open": allowed are none, allow_all, stateful`},
		{"stateful without wan", device.FirewallConfig{Preset: device.FirewallStateful}, `needs wan_interfaces`},
		{"long name", device.FirewallConfig{Preset: device.FirewallNone, Masquerade: []string{"wan0123456789abc"}}, `masquerade: interface name "wan0123456789abc": Linux names are at most 15 characters`},
		{"slash", device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"a/b"}}, `wan_interfaces: interface name "a/b"`},
		{"colon", device.FirewallConfig{Preset: device.FirewallNone, NotrackInterfaces: []string{"eth0:1"}}, `notrack_interfaces: interface name "eth0:1"`},
		{"quote", device.FirewallConfig{Preset: device.FirewallNone, NotrackInterfaces: []string{`a" accept`}}, `notrack_interfaces: interface name "a\" accept"`},
		{"twice", device.FirewallConfig{Preset: device.FirewallNone, Masquerade: []string{"wan0", "wan0"}}, `masquerade: interface "wan0" is listed twice`},
		{"mss", device.FirewallConfig{Preset: device.FirewallNone, MSSClamp: &device.MSSClamp{Value: 70000}}, `mss_clamp 70000 is out of range: allowed are 88 to 65495 bytes, or "pmtu"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateFirewall(c.cfg)
			if err == nil || !contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if _, err := RenderFirewall(c.cfg); err == nil {
				t.Fatal("RenderFirewall rendered a configuration ValidateFirewall rejects")
			}
		})
	}
}

func TestCheckFirewall(t *testing.T) {
	snap := &device.Snapshot{Router: device.RouterState{Interfaces: map[string]device.InterfaceState{"lan0": {}, "wan0": {}}}}
	d := New(nil)
	cfg := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"wan0", "wan9"}, Masquerade: []string{"ppp0"}}
	err := d.CheckFirewall(cfg, snap)
	// ErrInterfaceAbsent: plan warns (a PPP session or tunnel may bring
	// the interface up), the check before the write refuses.
	if err == nil || !errors.Is(err, device.ErrInterfaceAbsent) ||
		err.Error() != "routerlab_firewall: interface ppp0, wan9 not found on the device; it has: lan0, wan0: interface not on the device now" {
		t.Fatalf("missing interfaces: got %v", err)
	}
	cfg = device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"wan0"}}
	if err := d.CheckFirewall(cfg, snap); err != nil {
		t.Fatalf("existing interfaces: %v", err)
	}
	snap.Facts.Missing = []string{"nft"}
	err = d.CheckFirewall(cfg, snap)
	if err == nil || !contains(err.Error(), "routerlab_firewall needs nft on the device, which it lacks: install nftables") {
		t.Fatalf("missing nft: got %v", err)
	}
}

// testdata/firewall_*.json are `nft -j list table inet routerlab` captured
// from nftables 1.0.6 after RenderFirewall's script ran in a network
// namespace that also held routerlab_router's conntrack chains and a
// tunnel's MSS chain (TestFirewallReal rewrites them with -update).
var fwCaptures = map[string]device.FirewallConfig{
	"firewall_stateful_full.json": fwCaseConfig("stateful_full"),
	"firewall_allow_all.json":     fwCaseConfig("allow_all"),
}

func fwCaseConfig(name string) device.FirewallConfig {
	for _, c := range fwCases {
		if c.name == name {
			return c.cfg
		}
	}
	panic(name)
}

func TestParseFirewallCaptured(t *testing.T) {
	for file, cfg := range fwCaptures {
		t.Run(file, func(t *testing.T) {
			st, text, err := ParseFirewall(readFixture(t, file))
			if err != nil {
				t.Fatal(err)
			}
			if want := sortedFirewall(cfg); !reflect.DeepEqual(st, want) {
				t.Fatalf("parsed %+v\nwant %+v", st, want)
			}
			golden(t, strings.TrimSuffix(file, ".json")+".text.golden", strings.Join(text, "\n")+"\n")
		})
	}
}

func TestParseFirewallAbsent(t *testing.T) {
	for _, in := range []string{"{}", readFixture(t, "firewall_others_only.json")} {
		st, text, err := ParseFirewall(in)
		if err != nil {
			t.Fatal(err)
		}
		if st.Present || text != nil {
			t.Fatalf("no fw_ chain must read as absent, got %+v %q", st, text)
		}
	}
	if _, _, err := ParseFirewall("nft: not json"); err == nil {
		t.Fatal("broken JSON must be an error")
	}
}

// The snapshot's ##nft section feeds the firewall part: a capture with
// conntrack chains only (snapshot_router.txt) has no firewall.
func TestSnapshotFirewallSection(t *testing.T) {
	snap, err := ParseSnapshot(readFixture(t, "snapshot_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if snap.Firewall.Present || contains(snap.Text, "firewall") {
		t.Fatalf("firewall = %+v, text:\n%s", snap.Firewall, snap.Text)
	}
	var sec = map[string]string{"nft": readFixture(t, "firewall_stateful_full.json")}
	var s device.Snapshot
	lines, err := firewallPart.parse(sec, &s)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Firewall.Present || s.Firewall.Preset != device.FirewallStateful || len(lines) == 0 {
		t.Fatalf("firewall part: %+v %q", s.Firewall, lines)
	}
}

// mutateListing edits a captured listing: f gets every object of the
// "nftables" array and returns it changed, or nil to drop it.
func mutateListing(t *testing.T, in string, f func(obj map[string]any) map[string]any) string {
	t.Helper()
	var doc struct {
		Nftables []map[string]any `json:"nftables"`
	}
	if err := json.Unmarshal([]byte(in), &doc); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, o := range doc.Nftables {
		if o = f(o); o != nil {
			out = append(out, o)
		}
	}
	doc.Nftables = out
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ruleText is the nft text of a rule object, "" for other objects.
func ruleText(t *testing.T, o map[string]any) (chain, text string) {
	r, ok := o["rule"].(map[string]any)
	if !ok {
		return "", ""
	}
	b, err := json.Marshal(r["expr"])
	if err != nil {
		t.Fatal(err)
	}
	var exprs []json.RawMessage
	if err := json.Unmarshal(b, &exprs); err != nil {
		t.Fatal(err)
	}
	return r["chain"].(string), nftRuleText(exprs)
}

// Every hand edit of a fw_ chain parses to another state than the
// configuration, and the text shows it.
func TestParseFirewallDrift(t *testing.T) {
	captured := readFixture(t, "firewall_stateful_full.json")
	want := sortedFirewall(fwCaseConfig("stateful_full"))
	dropRule := func(chain, text string) func(map[string]any) map[string]any {
		return func(o map[string]any) map[string]any {
			if c, r := ruleText(t, o); c == chain && r == text {
				return nil
			}
			return o
		}
	}
	cases := []struct {
		name   string
		mutate func(map[string]any) map[string]any
		check  func(device.FirewallState) bool
	}{
		{"invalid drop removed from forward", dropRule(fwForward, "ct state invalid drop"), func(s device.FirewallState) bool { return s.Preset == presetModified }},
		{"final drop removed from input", dropRule(fwInput, "drop"), func(s device.FirewallState) bool { return s.Preset == presetModified }},
		{"masquerade removed", dropRule(fwPostrouting, `oifname { "wan0", "wan1" } masquerade`), func(s device.FirewallState) bool { return s.Masquerade == nil }},
		{"notrack chain removed", func(o map[string]any) map[string]any {
			if c, ok := o["chain"].(map[string]any); ok && c["name"] == fwNotrack {
				return nil
			}
			if c, _ := ruleText(t, o); c == fwNotrack {
				return nil
			}
			return o
		}, func(s device.FirewallState) bool {
			return s.NotrackInterfaces == nil && s.Preset == device.FirewallStateful
		}},
		{"mss value changed", func(o map[string]any) map[string]any {
			if c, _ := ruleText(t, o); c == fwMSS {
				expr := o["rule"].(map[string]any)["expr"].([]any)
				expr[1].(map[string]any)["mangle"].(map[string]any)["value"] = 1300
			}
			return o
		}, func(s device.FirewallState) bool {
			return s.MSSClamp != nil && s.MSSClamp.Value == 1300 && !s.MSSClamp.ToPMTU
		}},
		{"forward policy drop", func(o map[string]any) map[string]any {
			if c, ok := o["chain"].(map[string]any); ok && c["name"] == fwForward {
				c["policy"] = "drop"
			}
			return o
		}, func(s device.FirewallState) bool { return s.Preset == presetModified }},
		{"WAN interface changed", func(o map[string]any) map[string]any {
			if c, _ := ruleText(t, o); c == fwInput {
				expr := o["rule"].(map[string]any)["expr"].([]any)
				if m, ok := expr[0].(map[string]any)["match"].(map[string]any); ok && m["op"] == "!=" {
					m["right"] = "wan7"
				}
			}
			return o
		}, func(s device.FirewallState) bool { return s.Preset == presetModified }},
		{"counter added to the masquerade rule", func(o map[string]any) map[string]any {
			if c, _ := ruleText(t, o); c == fwPostrouting {
				expr := o["rule"].(map[string]any)["expr"].([]any)
				o["rule"].(map[string]any)["expr"] = append([]any{map[string]any{"counter": map[string]any{"packets": 3, "bytes": 180}}}, expr...)
			}
			return o
		}, func(s device.FirewallState) bool { return s.Preset == presetModified }},
		{"unknown fw_ chain", func(o map[string]any) map[string]any {
			if c, ok := o["chain"].(map[string]any); ok && c["name"] == fwMarker {
				c["name"] = "fw_extra"
			}
			return o
		}, func(s device.FirewallState) bool { return s.Preset == presetModified }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := mutateListing(t, captured, c.mutate)
			st, text, err := ParseFirewall(in)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(st, want) {
				t.Fatalf("a hand edit parsed as the configuration: %+v", st)
			}
			if !c.check(st) {
				t.Fatalf("parsed %+v", st)
			}
			_, wantText, _ := ParseFirewall(captured)
			if slices.Equal(text, wantText) {
				t.Fatalf("the text did not change:\n%s", strings.Join(text, "\n"))
			}
		})
	}
	// The mutation helper itself changes nothing when f keeps all.
	st, _, err := ParseFirewall(mutateListing(t, captured, func(o map[string]any) map[string]any { return o }))
	if err != nil || !reflect.DeepEqual(st, want) {
		t.Fatalf("unmutated: %+v %v", st, err)
	}
}

// The text of a modified firewall lists every fw_ chain as found, with
// counters but never their values.
func TestFirewallTextModified(t *testing.T) {
	in := mutateListing(t, readFixture(t, "firewall_allow_all.json"), func(o map[string]any) map[string]any {
		if c, ok := o["chain"].(map[string]any); ok && c["name"] == fwInput {
			c["policy"] = "drop"
		}
		return o
	})
	st, text, err := ParseFirewall(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.Preset != presetModified {
		t.Fatalf("preset %q", st.Preset)
	}
	golden(t, "firewall_modified.text.golden", strings.Join(text, "\n")+"\n")
}

func TestNFTRuleTextFallback(t *testing.T) {
	exprs := []json.RawMessage{
		json.RawMessage(`{"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}}, "right": 22}}`),
		json.RawMessage(`{"log": {"prefix": "x"}}`),
		json.RawMessage(`{"jump": {"target": "fw_other"}}`),
	}
	if got, want := nftRuleText(exprs), `tcp dport 22 {"log":{"prefix":"x"}} jump fw_other`; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// --- the real tier: nft in a throwaway network namespace ---

var netnsSeq atomic.Int32

// testNetns makes a network namespace with veth pairs wan0, wan1 and
// lan0 (peers in the same namespace) and returns a runner of scripts
// there under `sh -e -x -s`, the way Driver.run sends them.
func testNetns(t *testing.T) *netnsRunner {
	t.Helper()
	return testNetnsWith(t, "wan0", "wan1", "lan0")
}

// testNetnsWith makes a namespace with veth pairs named ifaces.
func testNetnsWith(t *testing.T, ifaces ...string) *netnsRunner {
	t.Helper()
	testenv.RequireRoot(t, "the real-kernel tests (network namespaces, nft, ethtool)")
	testenv.RequireCommand(t, "ip", "apt-get install iproute2")
	ns := fmt.Sprintf("rlfw%d-%d", os.Getpid(), netnsSeq.Add(1))
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Fatalf("ip netns add: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	r := &netnsRunner{t: t, ns: ns}
	for _, ifc := range ifaces {
		r.mustRun(fmt.Sprintf("ip link add %s type veth peer name %sp\nip link set %s up\nip link set %sp up\n", ifc, ifc, ifc, ifc))
	}
	r.mustRun("ip link set lo up\n")
	return r
}

type netnsRunner struct {
	t  *testing.T
	ns string
}

func (r *netnsRunner) run(script string) (string, error) {
	cmd := exec.Command("ip", "netns", "exec", r.ns, "sh", "-e", "-x", "-s")
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (r *netnsRunner) mustRun(script string) string {
	r.t.Helper()
	out, err := r.run(script)
	if err != nil {
		r.t.Fatalf("%v:\n%s\nscript:\n%s", err, out, script)
	}
	return out
}

func (r *netnsRunner) output(args ...string) string {
	r.t.Helper()
	out, err := exec.Command("ip", append([]string{"netns", "exec", r.ns}, args...)...).Output()
	if err != nil {
		r.t.Fatalf("%v: %v", args, err)
	}
	return string(out)
}

// nftJSON is what the snapshot's ##nft section runs.
func (r *netnsRunner) nftJSON() string {
	out, err := exec.Command("ip", "netns", "exec", r.ns, "sh", "-c", "nft -j list table inet "+nftTable+" 2>/dev/null || echo '{}'").Output()
	if err != nil {
		r.t.Fatal(err)
	}
	return string(out)
}

// Runner makes the namespace a command.Runner, so the Driver's own
// methods run there.
func (r *netnsRunner) Run(ctx context.Context, cmd string) (command.Result, error) {
	return r.RunWrite(ctx, "sh -s", []byte(cmd))
}

func (r *netnsRunner) RunWrite(ctx context.Context, cmd string, stdin []byte) (command.Result, error) {
	c := exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", r.ns}, strings.Fields(cmd)...)...)
	c.Stdin = strings.NewReader(string(stdin))
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	res := command.Result{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.ExitStatus = ee.ExitCode()
		err = nil
	}
	return res, err
}

func (r *netnsRunner) Name() string { return r.ns }

func (r *netnsRunner) Start(context.Context, string) (command.Process, error) {
	return nil, fmt.Errorf("not used")
}

// The round trip on the real nft: each configuration applied over the
// last (from first create through every preset change) parses back to
// itself, the chains of routerlab_router and of tunnels stay untouched,
// and delete removes only the fw_ chains.
func TestFirewallReal(t *testing.T) {
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	r := testNetns(t)
	// Others' chains in the shared table.
	r.mustRun(strings.Join(renderConntrack(false), "\n") + "\n")
	r.mustRun(fmt.Sprintf("nft add chain inet %s tunnel_t1_mss '{ type filter hook forward priority mangle; }'\nnft add rule inet %s tunnel_t1_mss oifname wg0 tcp flags syn tcp option maxseg size set 1380\n", nftTable, nftTable))
	others := func() []string {
		var names []string
		var doc nftListing
		if err := json.Unmarshal([]byte(r.nftJSON()), &doc); err != nil {
			t.Fatal(err)
		}
		for _, o := range doc.Nftables {
			if o.Chain != nil && !strings.HasPrefix(o.Chain.Name, fwPrefix) {
				names = append(names, o.Chain.Name)
			}
		}
		slices.Sort(names)
		return names
	}
	wantOthers := []string{notrackPrerouting, notrackOutput, "tunnel_t1_mss"}
	slices.Sort(wantOthers)

	order := []string{"stateful_full", "allow_all", "none_extras", "none", "stateful", "allow_all_masquerade", "stateful_full"}
	for _, name := range order {
		cfg := fwCaseConfig(name)
		script, err := RenderFirewall(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r.mustRun(script)
		if name == "allow_all" {
			r.output("ping", "-c", "1", "-W", "1", "127.0.0.1") // counters with values in the capture
		}
		got := r.nftJSON()
		st, _, err := ParseFirewall(got)
		if err != nil {
			t.Fatal(err)
		}
		if want := sortedFirewall(cfg); !reflect.DeepEqual(st, want) {
			t.Fatalf("%s: parsed %+v\nwant %+v\nnft:\n%s", name, st, want, r.output("nft", "list", "table", "inet", nftTable))
		}
		if !slices.Equal(others(), wantOthers) {
			t.Fatalf("%s: other chains are now %v", name, others())
		}
		capture := "firewall_" + name + ".json"
		if _, ok := fwCaptures[capture]; ok && *update {
			if err := os.WriteFile(filepath.Join("testdata", capture), []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	r.mustRun(RenderFirewallDelete())
	if st, _, err := ParseFirewall(r.nftJSON()); err != nil || st.Present {
		t.Fatalf("after delete: %+v %v", st, err)
	}
	if !slices.Equal(others(), wantOthers) {
		t.Fatalf("delete touched other chains: %v", others())
	}
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", "firewall_others_only.json"), []byte(r.nftJSON()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.mustRun(RenderFirewallDelete()) // again: nothing to do is no error

	// With nothing else left, delete removes the table too.
	r.mustRun(fmt.Sprintf("nft delete table inet %s\n", nftTable))
	script, _ := RenderFirewall(fwCaseConfig("stateful"))
	r.mustRun(script)
	r.mustRun(RenderFirewallDelete())
	if out, err := r.run("nft list table inet " + nftTable + "\n"); err == nil {
		t.Fatalf("the table is still there:\n%s", out)
	}
}

// A failing transaction leaves the chains that were there.
func TestFirewallRealFailureKeepsOld(t *testing.T) {
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	r := testNetns(t)
	old := fwCaseConfig("stateful_full")
	script, _ := RenderFirewall(old)
	r.mustRun(script)
	script, _ = RenderFirewall(fwCaseConfig("allow_all_masquerade"))
	broken := replaceOnce(script, "masquerade\n", "jump fw_nosuch\n")
	if broken == script {
		t.Fatal("the script has no masquerade rule to break")
	}
	if out, err := r.run(broken); err == nil {
		t.Fatalf("a rule jumping to a missing chain applied:\n%s", out)
	}
	st, _, err := ParseFirewall(r.nftJSON())
	if err != nil {
		t.Fatal(err)
	}
	if want := sortedFirewall(old); !reflect.DeepEqual(st, want) {
		t.Fatalf("after a failed apply: %+v\nwant %+v", st, want)
	}
}

// Hand edits on the real device read as drift, and the next apply
// repairs them (it also removes a hand-made fw_ chain).
func TestFirewallRealDrift(t *testing.T) {
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	r := testNetns(t)
	cfg := fwCaseConfig("stateful_full")
	want := sortedFirewall(cfg)
	script, _ := RenderFirewall(cfg)
	handle := func(chain, text string) string {
		var doc struct {
			Nftables []struct {
				Rule *struct {
					Chain  string            `json:"chain"`
					Handle int               `json:"handle"`
					Expr   []json.RawMessage `json:"expr"`
				} `json:"rule"`
			} `json:"nftables"`
		}
		if err := json.Unmarshal([]byte(r.nftJSON()), &doc); err != nil {
			t.Fatal(err)
		}
		for _, o := range doc.Nftables {
			if o.Rule != nil && o.Rule.Chain == chain && nftRuleText(o.Rule.Expr) == text {
				return fmt.Sprint(o.Rule.Handle)
			}
		}
		t.Fatalf("no rule %q in %s", text, chain)
		return ""
	}
	edits := []struct {
		name string
		edit func() string
	}{
		{"rule deleted", func() string {
			return fmt.Sprintf("nft delete rule inet %s %s handle %s\n", nftTable, fwForward, handle(fwForward, "ct state invalid drop"))
		}},
		{"mss changed", func() string {
			return fmt.Sprintf("nft replace rule inet %s %s handle %s tcp flags syn tcp option maxseg size set 1300\n", nftTable, fwMSS, handle(fwMSS, "tcp flags syn tcp option maxseg size set rt mtu"))
		}},
		{"rule inserted", func() string {
			return fmt.Sprintf("nft insert rule inet %s %s tcp dport 22 accept\n", nftTable, fwInput)
		}},
		{"chain added", func() string {
			return fmt.Sprintf("nft add chain inet %s fw_extra\nnft add rule inet %s fw_extra counter\n", nftTable, nftTable)
		}},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			r.mustRun(script)
			r.mustRun(e.edit())
			st, _, err := ParseFirewall(r.nftJSON())
			if err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(st, want) {
				t.Fatalf("the hand edit was not seen:\n%s", r.output("nft", "list", "table", "inet", nftTable))
			}
			r.mustRun(script)
			if st, _, _ := ParseFirewall(r.nftJSON()); !reflect.DeepEqual(st, want) {
				t.Fatalf("apply did not repair it: %+v\n%s", st, r.output("nft", "list", "table", "inet", nftTable))
			}
		})
	}
}

// The driver's methods end to end: validate, check against a snapshot
// read from the namespace, apply, read, delete.
func TestFirewallDriverReal(t *testing.T) {
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	r := testNetns(t)
	d := New(r)
	ctx := context.Background()
	cfg := fwCaseConfig("stateful_full")
	snap, err := d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Firewall.Present {
		t.Fatalf("a fresh namespace has a firewall: %+v", snap.Firewall)
	}
	if err := d.ValidateFirewall(cfg); err != nil {
		t.Fatal(err)
	}
	if err := d.CheckFirewall(cfg, snap); err != nil {
		t.Fatal(err)
	}
	if err := d.ApplyFirewall(ctx, cfg, snap.Firewall); err != nil {
		t.Fatal(err)
	}
	snap, err = d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := sortedFirewall(cfg); !reflect.DeepEqual(snap.Firewall, want) {
		t.Fatalf("snapshot firewall %+v\nwant %+v", snap.Firewall, want)
	}
	if !contains(snap.Text, "firewall preset stateful\nfirewall wan wan0 wan1\n") {
		t.Fatalf("text:\n%s", snap.Text)
	}
	if err := d.DeleteFirewall(ctx, snap.Firewall); err != nil {
		t.Fatal(err)
	}
	snap, err = d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Firewall.Present {
		t.Fatalf("after delete: %+v", snap.Firewall)
	}
}

// Traffic through the presets on the real kernel: a router namespace
// between a LAN host and a WAN host, iperf3 both ways. stateful lets the
// LAN open connections to the WAN and refuses them the other way, with
// connection tracking on and with it off (routerlab_router's notrack
// chains: the untracked fallback); allow_all and none pass both ways.
func TestFirewallRealTraffic(t *testing.T) {
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3")
	router := testNetns(t)
	lan, wan := testNetnsWith(t), testNetnsWith(t)
	for _, l := range []struct {
		host       *netnsRunner
		routerIf   string
		routerAddr string
		hostAddr   string
	}{{lan, "lan0", "198.18.1.1/24", "198.18.1.2/24"}, {wan, "wan0", "198.18.2.1/24", "198.18.2.2/24"}} {
		router.mustRun(fmt.Sprintf("ip link set %sp netns %s\nip addr add %s dev %s\n", l.routerIf, l.host.ns, l.routerAddr, l.routerIf))
		gw := strings.Split(l.routerAddr, "/")[0]
		l.host.mustRun(fmt.Sprintf("ip addr add %s dev %sp\nip link set %sp up\nip route add default via %s\n", l.hostAddr, l.routerIf, l.routerIf, gw))
	}
	router.mustRun("sysctl -qw net.ipv4.ip_forward=1\n")
	for _, h := range []*netnsRunner{lan, wan} {
		srv := exec.Command("ip", "netns", "exec", h.ns, "iperf3", "-s", "-p", "7001")
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	}
	connects := func(from *netnsRunner, to string) bool {
		// Waiting for the server to listen: a refused connection is
		// retried, a filtered one times out.
		for range 20 {
			out, err := from.run(fmt.Sprintf("iperf3 -c %s -p 7001 -n 200K --connect-timeout 1000\n", to))
			if err == nil {
				return true
			}
			if !contains(out, "Connection refused") {
				t.Logf("%s -> %s: %s", from.ns, to, out)
				return false
			}
			from.mustRun("sleep 0.1\n")
		}
		return false
	}
	cases := []struct {
		preset    string
		conntrack bool
		inbound   bool // may the WAN host open connections to the LAN host?
	}{
		{device.FirewallStateful, true, false},
		{device.FirewallStateful, false, false},
		{device.FirewallAllowAll, true, true},
		{device.FirewallAllowAll, false, true},
		{device.FirewallNone, false, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s conntrack %v", c.preset, c.conntrack), func(t *testing.T) {
			cfg := device.FirewallConfig{Preset: c.preset}
			if c.preset == device.FirewallStateful {
				cfg.WANInterfaces = []string{"wan0"}
			}
			script, err := RenderFirewall(cfg)
			if err != nil {
				t.Fatal(err)
			}
			router.mustRun(strings.Join(renderConntrack(c.conntrack), "\n") + "\n" + script)
			if !connects(lan, "198.18.2.2") {
				t.Fatal("the LAN host cannot reach the WAN host")
			}
			if got := connects(wan, "198.18.1.2"); got != c.inbound {
				t.Fatalf("the WAN host reaching the LAN host: %v, want %v", got, c.inbound)
			}
		})
	}
}

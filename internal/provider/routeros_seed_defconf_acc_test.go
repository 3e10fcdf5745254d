package provider

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// Issue 21's acceptance: seeds 000, 002 (the CHR) and 003 applied with
// `terraform apply` (the examples' main.tf, with the variables their
// tftest files set) to simulated routers that still have MikroTik's
// factory defaults (rossim's Defconf), on the oldest version a seed ran
// and on a 7.17+ one. While the configuration is applied, rossim's Filter
// says which rule decides packets from the WAN; after `terraform destroy`
// the router's export must be as before, the defaults intact.
var defconfVersions = []string{"6.44.6", "7.20.4"}

// exampleApply is an examples/labs configuration in a work directory of
// its own, applied and destroyed with the terraform CLI.
type exampleApply struct {
	t        *testing.T
	work, rc string
	vars     []string
}

func newExampleApply(t *testing.T, dir string, vars ...string) *exampleApply {
	t.Helper()
	work, rc := exampleWorkdir(t, dir)
	// The tftest files are `terraform test`'s, not apply's.
	entries, err := os.ReadDir(work)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tftest.hcl") {
			if err := os.Remove(filepath.Join(work, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return &exampleApply{t: t, work: work, rc: rc, vars: vars}
}

// run runs terraform; it returns the output and the exit code.
func (e *exampleApply) run(args ...string) (string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, terraformPath(e.t), args...)
	cmd.Dir = e.work
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+e.rc, "TF_IN_AUTOMATION=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		e.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), 0
}

func (e *exampleApply) args(cmd string, vars ...string) []string {
	return append(append([]string{cmd, "-no-color", "-input=false"}, e.vars...), vars...)
}

// apply applies the configuration with the extra variables vars ("-var",
// "k=v", ...), and then a plan must find nothing to do: the router
// reports what was written and the defaults leave it so.
func (e *exampleApply) apply(vars ...string) {
	e.t.Helper()
	if out, rc := e.run(append(e.args("apply", vars...), "-auto-approve")...); rc != 0 {
		e.t.Fatalf("terraform apply %v: exit %d\n%s", vars, rc, out)
	}
	// A refresh may change config_sha256 of a routerlab_router, the
	// router's digest after its own apply, which later resources change
	// (and so an output): that is neither an action nor a stale report.
	// Any other resource that reads differently right after the apply
	// had reported in its state what the router did not run (Terraform
	// prints such drift only where the plan refers to it: a check that
	// catches some, not all; the tests read the attributes they need).
	out, rc := e.run(append(e.args("plan", vars...), "-detailed-exitcode")...)
	if rc == 1 || rc == 2 && strings.Contains(out, "\nPlan: ") {
		e.t.Fatalf("the plan after apply %v has actions (exit %d):\n%s", vars, rc, out)
	}
	for _, m := range changedOutside.FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "routerlab_router.") {
			e.t.Errorf("after apply %v, a refresh finds %s changed: its state was not what the router runs:\n%s", vars, m[1], out)
		}
	}
}

// refresh is `terraform apply -refresh-only`: the state takes what the
// router reports now.
func (e *exampleApply) refresh(vars ...string) {
	e.t.Helper()
	if out, rc := e.run(append(e.args("apply", vars...), "-refresh-only", "-auto-approve")...); rc != 0 {
		e.t.Fatalf("terraform apply -refresh-only: exit %d\n%s", rc, out)
	}
}

var changedOutside = regexp.MustCompile(`# (\S+) has changed`)

func (e *exampleApply) destroy(vars ...string) {
	e.t.Helper()
	if out, rc := e.run(append(e.args("destroy", vars...), "-auto-approve")...); rc != 0 {
		e.t.Fatalf("terraform destroy: exit %d\n%s", rc, out)
	}
}

// attribute is a resource's attribute in the applied state (`terraform
// show -json`).
func (e *exampleApply) attribute(address, name string) any {
	e.t.Helper()
	out, rc := e.run("show", "-json")
	if rc != 0 {
		e.t.Fatalf("terraform show: exit %d\n%s", rc, out)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		e.t.Fatalf("terraform show -json: %v", err)
	}
	for _, r := range st.Values.RootModule.Resources {
		if r.Address == address {
			return r.Values[name]
		}
	}
	e.t.Fatalf("no %s in the state", address)
	return nil
}

// ruleCase is a packet and the rule that must decide it.
type ruleCase struct {
	what    string
	chain   string
	p       rossim.Packet
	action  string
	comment string
}

func checkRules(t *testing.T, sim *rossim.Sim, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		if v := sim.Filter(c.chain, c.p); v.Action != c.action || v.Comment != c.comment {
			t.Errorf("%s: rule %d %q decides %s, want %s by %q", c.what, v.Rule, v.Comment, v.Action, c.action, c.comment)
		}
	}
}

func pkt(p rossim.Packet, proto string, port int, state string) rossim.Packet {
	p.Protocol, p.DstPort, p.ConnectionState = proto, port, state
	return p
}

// TestAccExample_rb750gr3L2TPDefconf: seed 000's server on a hEX with its
// factory defaults. IKE, NAT-T, L2TP and ESP from the Debian client's
// address on ether1 (defconf's WAN) are accepted by routerlab's rules, not
// dropped by "defconf: drop all not coming from LAN", which still drops
// the rest (winbox) while the tunnel is applied. The example is applied
// without its Debian client (debian unset): what is checked is the hEX's
// filter, the packets are rossim's Filter's, and the client needs a kernel
// with PPP, which the namespace lab lacks (TestAccExample_rb750gr3L2TP
// plans it on a lab router, TestAccPPP_l2tpIPsecUML applies it).
func TestAccExample_rb750gr3L2TPDefconf(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	for _, version := range defconfVersions {
		t.Run(version, func(t *testing.T) {
			sim, rb := startRouterOS(t, rossim.Options{Version: version, Model: "RB750Gr3", Defconf: true})
			before := exportWithoutHeader(sim)
			wan := rossim.Packet{InInterface: "ether1", SrcAddress: "198.18.10.2", DstAddress: "198.18.10.1", SrcPort: 500}
			defconfDrop := ruleCase{"winbox from the WAN", "input", pkt(wan, "tcp", 8291, "new"), "drop", "defconf: drop all not coming from LAN"}
			checkRules(t, sim, []ruleCase{defconfDrop, {"IKE before the apply", "input", pkt(wan, "udp", 500, "new"), "drop", "defconf: drop all not coming from LAN"}})

			// tunnel.tftest.hcl's variables.
			e := newExampleApply(t, "rb750gr3-l2tp-ipsec", "-var", "rb750gr3="+simRouterOSVar(rb),
				"-var", "psk=routerlab-test-psk", "-var", "ppp_password=routerlab-test-ppp")
			e.apply()
			checkRules(t, sim, []ruleCase{
				{"IKE", "input", pkt(wan, "udp", 500, "new"), "accept", "routerlab:l2tp"},
				{"NAT-T", "input", pkt(wan, "udp", 4500, "new"), "accept", "routerlab:l2tp"},
				{"L2TP", "input", pkt(wan, "udp", 1701, "new"), "accept", "routerlab:l2tp"},
				{"ESP", "input", pkt(wan, "ipsec-esp", 0, "new"), "accept", "routerlab:l2tp"},
				defconfDrop,
			})
			e.destroy()
			if after := exportWithoutHeader(sim); after != before {
				t.Errorf("the hEX is not as before after destroy:\n--- before\n%s\n--- after\n%s", before, after)
			}
		})
	}
}

// TestAccExample_rb1100ConntrackDefconf: seed 003's configuration on its
// RB1100AHx4 (whose defaults are an address only) and on a hEX (whose
// defaults have the drops and a fasttrack), with the factory defaults.
// allow_all (ct_no_fw): a new connection forwarded from the WAN, on either
// side (ether1 is the hEX's defconf WAN, ether2 seed 003's), is accepted by
// routerlab's rule, not dropped by "defconf: drop all from WAN not
// DSTNATed"; routerlab_offload's effective fasttrack is whether an
// established connection meets a fasttrack rule. stateful with fasttrack
// (ct_fw_fasttrack): an established connection meets routerlab's
// fasttrack, effective says fasttrack is on, and a new one from the WAN
// is dropped.
func TestAccExample_rb1100ConntrackDefconf(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	// Seed 003's RB1100 at both versions, and a hEX (whose own defconf
	// fasttrack rule routerlab_offload must report) at the newer one.
	type run struct{ model, version string }
	runs := []run{{"RB750Gr3", defconfVersions[len(defconfVersions)-1]}}
	for _, v := range defconfVersions {
		runs = append(runs, run{"RB1100AHx4", v})
	}
	for _, r := range runs {
		model, version := r.model, r.version
		t.Run(model+"/"+version, func(t *testing.T) {
			t.Parallel()
			sim, rb := startRouterOS(t, rossim.Options{Version: version, Model: model, Defconf: true})
			before := exportWithoutHeader(sim)
			e := newExampleApply(t, "rb1100-conntrack", "-var", "rb1100="+simRouterOSVar(rb))
			fromWAN := func(in, out string) rossim.Packet {
				return rossim.Packet{InInterface: in, OutInterface: out, Protocol: "tcp", SrcAddress: "198.19.0.2", DstAddress: "198.18.1.10", SrcPort: 40000, DstPort: 5201}
			}
			fasttrackEffective := func() bool {
				t.Helper()
				eff, _ := e.attribute("routerlab_offload.rb1100", "effective").(map[string]any)
				ip, _ := eff["ip"].(map[string]any)
				on, ok := ip["fasttrack"].(bool)
				if !ok {
					t.Fatalf("routerlab_offload effective = %v: no ip.fasttrack", eff)
				}
				return on
			}

			e.apply("-var", "connection_tracking=true", "-var", "firewall=allow_all", "-var", "fasttrack=false")
			checkRules(t, sim, []ruleCase{
				{"a new connection from ether1", "forward", pkt(fromWAN("ether1", "ether2"), "tcp", 5201, "new"), "accept", "routerlab:fw"},
				{"a new connection from ether2", "forward", pkt(fromWAN("ether2", "ether1"), "tcp", 5201, "new"), "accept", "routerlab:fw"},
			})
			established := pkt(fromWAN("ether2", "ether1"), "tcp", 5201, "established")
			// effective says what the filter does to an established
			// connection: fasttracked or not, by whichever rule.
			agrees := func(variant string) {
				t.Helper()
				v := sim.Filter("forward", established)
				if got, want := fasttrackEffective(), v.Action == "fasttrack-connection"; got != want {
					t.Errorf("%s: effective fasttrack = %v, but an established connection meets rule %d %q (%s)", variant, got, v.Rule, v.Comment, v.Action)
				}
			}
			agrees("allow_all")

			// stateful without routerlab's fasttrack: on the hEX
			// defconf's fasttrack is what established connections
			// reach, and effective must say so. The offload is not
			// written in this apply (its settings are the same), so
			// its effective is the one read before the firewall
			// changed until a refresh (the attribute's description).
			// (The RB1100 has no fasttrack of its own: left out.)
			if model == "RB750Gr3" {
				vars := []string{"-var", "connection_tracking=true", "-var", "firewall=stateful", "-var", "fasttrack=false"}
				e.apply(vars...)
				e.refresh(vars...)
				agrees("stateful")
				if v := sim.Filter("forward", established); v.Comment != "defconf: fasttrack" {
					t.Errorf("stateful on the hEX: an established connection meets rule %d %q (%s), want defconf's fasttrack", v.Rule, v.Comment, v.Action)
				}
			}

			e.apply("-var", "connection_tracking=true", "-var", "firewall=stateful", "-var", "fasttrack=true")
			checkRules(t, sim, []ruleCase{
				{"an established forwarded connection", "forward", established, "fasttrack-connection", "routerlab:fasttrack"},
			})
			// On the hEX ether2 is a port of defconf's bridge, whose
			// packets the IP firewall sees as the bridge's: the
			// example's wan_interfaces = ["ether2"] matches nothing
			// there (left open, see the report of issue 21).
			if v := sim.Filter("forward", pkt(fromWAN("ether2", "ether1"), "tcp", 5201, "new")); model == "RB1100AHx4" && v.Action != "drop" {
				t.Errorf("stateful: a new connection from the WAN (ether2) meets rule %d %q (%s), want a drop", v.Rule, v.Comment, v.Action)
			}
			agrees("stateful with fasttrack")
			e.destroy("-var", "connection_tracking=true", "-var", "firewall=stateful", "-var", "fasttrack=true")
			if after := exportWithoutHeader(sim); after != before {
				t.Errorf("the %s is not as before after destroy:\n--- before\n%s\n--- after\n%s", model, before, after)
			}
		})
	}
}

// TestAccExample_er6pPPPoEOffloadDefconf: seed 002's configuration, the
// EdgeRouter and the CHR, which ships no default configuration (rossim's
// Defconf leaves it as reset): the PPPoE server applies, the plan settles
// and destroy leaves both routers as before, on 6.44 and 7.20.
func TestAccExample_er6pPPPoEOffloadDefconf(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	for _, version := range defconfVersions {
		t.Run(version, func(t *testing.T) {
			er := edgeossim.New(edgeossim.Options{})
			dev := devicesim.New(t, er, devicesim.Options{})
			chr, chrDev := startRouterOS(t, rossim.Options{Version: version, Model: "CHR", Defconf: true})
			before, chrBefore := er.Config(), exportWithoutHeader(chr)
			if reset := exportWithoutHeader(rossim.New(rossim.Options{Version: version, Model: "CHR"})); chrBefore != reset {
				t.Fatalf("a CHR with Defconf is not a reset CHR (a CHR ships no default configuration):\n--- Defconf\n%s\n--- reset\n%s", chrBefore, reset)
			}
			e := newExampleApply(t, "er6p-pppoe-offload", "-var", "er6p="+simEdgeRouterVar(dev), "-var", "chr="+simRouterOSVar(chrDev))
			e.apply()
			exp := chr.Export("terse")
			for _, want := range []string{"service-name=lab", "max-mtu=1454", "name=ppp1", "198.18.201.1/24"} {
				if !strings.Contains(exp, want) {
					t.Errorf("the CHR's export lacks %q:\n%s", want, exp)
				}
			}
			e.destroy()
			if after := er.Config(); after != before {
				t.Errorf("the EdgeRouter is not as before after destroy:\n--- before\n%s--- after\n%s", before, after)
			}
			if after := exportWithoutHeader(chr); after != chrBefore {
				t.Errorf("the CHR is not as before after destroy:\n--- before\n%s\n--- after\n%s", chrBefore, after)
			}
		})
	}
}

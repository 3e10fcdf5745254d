// Command labctl brings a routerlab test lab (network namespaces + sshd) up
// and down from the shell, and can write a Terraform tfvars file for it.
//
//	labctl up     [-name rl] [-mgmt 254] [-rate 1gbit | -rate none] [-state DIR] [-tfvars FILE [-tfvars-for DIR]] [-spec s2s | -spec pppoe | -spec l2tp | -lans N] [-direct a,b] [-uml]
//	labctl down   [-name rl | -state DIR]
//	labctl status [-name rl | -state DIR]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
)

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  labctl up     [-name rl] [-mgmt 254] [-rate 1gbit | -rate none] [-state DIR] [-tfvars FILE [-tfvars-for DIR]] [-spec s2s | -spec pppoe | -spec l2tp | -lans N] [-direct a,b] [-uml]
  labctl down   [-name rl | -state DIR]
  labctl status [-name rl | -state DIR]   (no flags: every lab under `+lab.DefaultStateRoot+`)
`)
}

func main() {
	// Inside a UML lab's kernel, this executable is the agent (uml.go).
	lab.RunUMLAgentIfAsked()
	if len(os.Args) < 2 {
		usage(os.Stderr)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "up":
		err = cmdUp(ctx, os.Args[2:])
	case "down":
		err = cmdDown(ctx, os.Args[2:])
	case "status":
		err = cmdStatus(os.Args[2:])
	case "-h", "-help", "--help", "help":
		usage(os.Stdout)
		return
	default:
		usage(os.Stderr)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "labctl:", err)
		os.Exit(1)
	}
}

func stateDirFor(name, state string) string {
	if state != "" {
		return state
	}
	return filepath.Join(lab.DefaultStateRoot, name)
}

func cmdUp(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	name := fs.String("name", "rl", "lab name ([a-z][a-z0-9]{0,5})")
	mgmt := fs.Int("mgmt", lab.DefaultMgmtNet, "management network 198.19.<mgmt>.0/24")
	rate := fs.String("rate", lab.DefaultRate, "shape router links (and -direct links) to this tc rate, as the demos do; none: leave them unshaped veths, whose speed no link_speed describes")
	state := fs.String("state", "", "state directory (default "+lab.DefaultStateRoot+"/<name>)")
	tfvars := fs.String("tfvars", "", "write a Terraform tfvars JSON file here")
	tfvarsFor := fs.String("tfvars-for", "", "with -tfvars: write only the variables the Terraform configuration in this directory declares (no warnings for undeclared ones)")
	lans := fs.Int("lans", 0, "seed 004 topology: router r with this many LANs (2-4), hosts a, b, c, d; 0 = a — r — b")
	topo := fs.String("spec", "", "topology: s2s = site to site, host a — router r1 — router r2 — host b, the routers routing nothing for each other's LAN (a tunnel does); pppoe = seed 002's host a — PPPoE client cli — PPPoE server srv — host b inside a UML kernel of their own (a kernel with PPP); l2tp = seed 000's host a — L2TP/IPsec server srv — client cli, inside UML too; empty = a — r — b, or -lans")
	uml := fs.Bool("uml", false, "run the lab inside a user-mode-linux kernel of its own (a kernel with PPP, L2TP and ESP; -spec pppoe and -spec l2tp always do)")
	direct := fs.String("direct", "", "also link these two hosts straight to each other, bypassing the router (seed 003's direct connection), e.g. a,b: 198.18.99.10/24 — 198.18.99.20/24 on their next free interface, shaped to -rate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("up: unexpected arguments %q", fs.Args())
	}
	s := lab.DefaultSpec(*name)
	switch {
	case *topo != "" && *topo != "s2s" && *topo != "pppoe" && *topo != "l2tp":
		return fmt.Errorf("up: -spec %q: the named topologies are s2s, pppoe and l2tp", *topo)
	case *topo != "" && *lans > 0:
		return fmt.Errorf("up: -spec %s and -lans exclude each other", *topo)
	case *topo == "s2s":
		s = lab.SiteToSiteSpec(*name)
	case *topo == "pppoe":
		if *direct != "" {
			return errors.New("up: -spec pppoe has no direct links")
		}
		s = lab.PPPoESpec(*name)
	case *topo == "l2tp":
		if *direct != "" {
			return errors.New("up: -spec l2tp has no direct links")
		}
		s = lab.L2TPSpec(*name)
	case *lans > 0:
		s = lab.RoutingSpec(*name, *lans)
	}
	s.MgmtNet = *mgmt
	s.StateDir = *state
	if *uml {
		s.UML = true
	}
	if *rate == "none" {
		*rate = ""
	}
	if *rate != "" {
		s = s.WithRate(*rate)
	}
	var declared map[string]bool
	if *tfvarsFor != "" {
		if *tfvars == "" {
			return errors.New("up: -tfvars-for needs -tfvars")
		}
		var err error
		if declared, err = declaredVariables(*tfvarsFor); err != nil {
			return fmt.Errorf("up: -tfvars-for: %w", err)
		}
	}
	if *direct != "" {
		a, b, ok := strings.Cut(*direct, ",")
		if !ok || a == "" || b == "" || strings.Contains(b, ",") {
			return fmt.Errorf("up: -direct %q: want two host names, e.g. a,b", *direct)
		}
		s = s.WithDirectLink(strings.TrimSpace(a), strings.TrimSpace(b), *rate)
	}
	timeout := 60 * time.Second
	if s.UML {
		timeout = 3 * time.Minute // a kernel boots first
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	l, err := lab.Up(ctx, s)
	if err != nil {
		return err
	}
	printLab(os.Stdout, l)
	if *tfvars != "" {
		if err := writeTFVars(*tfvars, l, declared); err != nil {
			return err
		}
		fmt.Printf("tfvars:      %s\n", *tfvars)
	}
	fmt.Printf("tear down:   labctl down -state %s\n", l.StateDir())
	return nil
}

func cmdDown(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("down", flag.ContinueOnError)
	name := fs.String("name", "rl", "lab name")
	state := fs.String("state", "", "state directory (overrides -name)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir := stateDirFor(*name, *state)
	if _, err := os.Stat(filepath.Join(dir, "state.json")); errors.Is(err, os.ErrNotExist) {
		fmt.Printf("no lab state in %s: nothing to do\n", dir)
		return nil
	}
	l, err := lab.Load(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := l.Down(ctx); err != nil {
		return err
	}
	fmt.Printf("lab %s down\n", l.Name())
	return nil
}

func cmdStatus(args []string) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	name := fs.String("name", "", "lab name")
	state := fs.String("state", "", "state directory (overrides -name)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var dirs []string
	if *name != "" || *state != "" {
		dirs = []string{stateDirFor(*name, *state)}
	} else {
		matches, _ := filepath.Glob(filepath.Join(lab.DefaultStateRoot, "*", "state.json"))
		for _, m := range matches {
			dirs = append(dirs, filepath.Dir(m))
		}
		sort.Strings(dirs)
		if len(dirs) == 0 {
			fmt.Printf("no labs under %s\n", lab.DefaultStateRoot)
			return nil
		}
	}
	for i, dir := range dirs {
		if i > 0 {
			fmt.Println()
		}
		l, err := lab.Load(dir)
		if err != nil {
			return err
		}
		printLab(os.Stdout, l)
		if left := l.Leftovers(); len(left) > 0 {
			fmt.Printf("present:     %s\n", strings.Join(left, ", "))
		}
	}
	return nil
}

func printLab(w io.Writer, l *lab.Lab) {
	fmt.Fprintf(w, "lab %s (state %s)\n", l.Name(), l.StateDir())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tROLE\tNAMESPACE\tMGMT\tHOSTNAME\tSSHD\tINTERFACES")
	for _, n := range l.Nodes() {
		sshd := fmt.Sprintf("%d", n.SSHDPID)
		if !l.Alive(n.Name) {
			sshd += " (not running)"
		}
		var ifs []string
		for k, v := range n.Interfaces {
			ifs = append(ifs, k+"="+v)
		}
		sort.Strings(ifs)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%d\t%s\t%s\t%s\n", n.Name, n.Role, n.Namespace, n.MgmtAddr, n.SSHPort, n.Hostname, sshd, strings.Join(ifs, " "))
	}
	tw.Flush()
	for _, d := range l.DirectLinks() {
		shaped := "unshaped"
		if d.Rate != "" {
			shaped = "shaped to " + d.Rate
		}
		fmt.Fprintf(w, "direct link: %s.%s %s — %s.%s %s (bypasses the router; %s; bridge in namespace %s)\n", d.A, d.AIf, d.AAddr, d.B, d.BIf, d.BAddr, shaped, d.Wire)
	}
	for _, n := range l.Nodes() {
		if lab.Role(n.Role) != lab.RoleRouter || l.UML() != nil {
			// A UML lab's sshd and charon PIDs are the UML kernel's: the
			// host sees the kernel (uml: below), not them.
			continue
		}
		if err := l.CharonRunning(n.Name); err != nil {
			fmt.Fprintf(w, "charon:      %s: %v\n", n.Name, err)
		} else {
			fmt.Fprintf(w, "charon:      %s: pid %d (%s), files %s\n", n.Name, n.CharonPID, n.Charon, n.FilesDir)
		}
	}
	if u := l.UML(); u != nil {
		fmt.Fprintf(w, "uml:         pid %d, %s %s (modules %s), tap %s %s <-> %s, up in %.1f s; console %s\n", u.PID, u.Kernel, u.Version, u.ModulesDir, u.Tap, u.HostAddr, u.UMLAddr, u.BootSeconds, u.ConsoleLog)
		fmt.Fprintf(w, "boot:        %s\n", strings.Join(u.Cmdline, " "))
	}
	fmt.Fprintf(w, "line rate:   %s\n", lineRate(l))
	fmt.Fprintf(w, "private key: %s\n", l.ClientKeyPath())
	fmt.Fprintf(w, "known_hosts: %s\n", l.KnownHostsPath())
}

// tfVars builds the Terraform variables for a lab: the key and known_hosts
// files, router_host (first router), host_<name> for each host,
// <node>_host for every node and, for each end of a direct link, the
// host's address on it (no mask): <node>_direct_addr, or
// <node>_direct_addr_<peer> for a host on several direct links.
func tfVars(l *lab.Lab) map[string]string {
	v := map[string]string{
		"lab_known_hosts_file": l.KnownHostsPath(),
		"lab_private_key_file": l.ClientKeyPath(),
	}
	for _, n := range l.Nodes() {
		v[n.Name+"_host"] = n.MgmtAddr
		switch lab.Role(n.Role) {
		case lab.RoleRouter:
			if _, ok := v["router_host"]; !ok {
				v["router_host"] = n.MgmtAddr
			}
		case lab.RoleHost:
			v["host_"+n.Name] = n.MgmtAddr
		}
	}
	directs := l.DirectLinks()
	count := map[string]int{}
	for _, d := range directs {
		count[d.A]++
		count[d.B]++
	}
	for _, d := range directs {
		for _, end := range [][3]string{{d.A, d.AAddr, d.B}, {d.B, d.BAddr, d.A}} {
			node, cidr, peer := end[0], end[1], end[2]
			addr, _, _ := strings.Cut(cidr, "/")
			if count[node] == 1 {
				v[node+"_direct_addr"] = addr
			} else {
				v[node+"_direct_addr_"+peer] = addr
			}
		}
	}
	return v
}

// lineRate says what the routers' links are shaped to, and so which
// link_speed a benchmark through them should give; loudly when they are
// not shaped, since a line-rate percentage against a veth's speed is
// meaningless (issue 20: 9199 Mbit/s printed as 977 % of 1 Gbit/s).
func lineRate(l *lab.Lab) string {
	rates := map[string][]string{} // rate -> router interfaces ("" = unshaped)
	for _, n := range l.Nodes() {
		if lab.Role(n.Role) != lab.RoleRouter {
			continue
		}
		for ifname := range n.Interfaces {
			rate := n.Rates[ifname]
			rates[rate] = append(rates[rate], n.Name+"."+ifname)
		}
	}
	if len(rates) == 0 {
		return "no router links"
	}
	var shaped []string
	for rate, ifs := range rates {
		if rate != "" {
			sort.Strings(ifs)
			shaped = append(shaped, rate+" ("+strings.Join(ifs, ", ")+")")
		}
	}
	sort.Strings(shaped)
	if unshaped := rates[""]; len(unshaped) > 0 {
		sort.Strings(unshaped)
		msg := "WARNING: router links NOT SHAPED (" + strings.Join(unshaped, ", ") + "): a veth carries whatever the CPU manages, " +
			"often over 9 Gbit/s, so no link_speed describes it and a line-rate percentage means nothing; " +
			"bring the lab up with -rate " + lab.DefaultRate + " (make lab-up LAB_RATE=" + lab.DefaultRate + ")"
		if len(shaped) > 0 {
			msg += "; shaped: " + strings.Join(shaped, "; ")
		}
		return msg
	}
	if len(rates) == 1 {
		for rate := range rates {
			return "router links shaped to " + rate + " (tbf counting the Ethernet overhead, offloads off): benchmark with link_speed = \"" + rate + "\""
		}
	}
	return "router links shaped to different rates: " + strings.Join(shaped, "; ") + ": each pair's link_speed is its slowest link's"
}

// tfvarsDecl matches a variable block's first line: Terraform requires a
// top-level block to start a line, so an indented or commented mention
// does not count.
var tfvarsDecl = regexp.MustCompile(`(?m)^variable\s+"([^"]+)"`)

// declaredVariables lists the variables the .tf files in dir declare.
func declaredVariables(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.tf"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .tf files in %s", dir)
	}
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range tfvarsDecl.FindAllSubmatch(b, -1) {
			out[string(m[1])] = true
		}
	}
	return out, nil
}

// writeTFVars writes the lab's variables to path; only those in declared,
// unless it is nil.
func writeTFVars(path string, l *lab.Lab, declared map[string]bool) error {
	v := tfVars(l)
	if declared != nil {
		for k := range v {
			if !declared[k] {
				delete(v, k)
			}
		}
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write tfvars: %w", err)
	}
	return nil
}

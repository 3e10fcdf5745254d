// Command labctl brings a routerlab test lab (network namespaces + sshd) up
// and down from the shell, and can write a Terraform tfvars file for it.
//
//	labctl up     [-name rl] [-mgmt 254] [-rate 1gbit] [-state DIR] [-tfvars FILE] [-lans N]
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
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
)

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  labctl up     [-name rl] [-mgmt 254] [-rate 1gbit] [-state DIR] [-tfvars FILE] [-lans N]
  labctl down   [-name rl | -state DIR]
  labctl status [-name rl | -state DIR]   (no flags: every lab under `+lab.DefaultStateRoot+`)
`)
}

func main() {
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
	rate := fs.String("rate", "", "shape router links to this tc rate, e.g. 1gbit")
	state := fs.String("state", "", "state directory (default "+lab.DefaultStateRoot+"/<name>)")
	tfvars := fs.String("tfvars", "", "write a Terraform tfvars JSON file here")
	lans := fs.Int("lans", 0, "seed 004 topology: router r with this many LANs (2-4), hosts a, b, c, d; 0 = a — r — b")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("up: unexpected arguments %q", fs.Args())
	}
	s := lab.DefaultSpec(*name)
	if *lans > 0 {
		s = lab.RoutingSpec(*name, *lans)
	}
	s.MgmtNet = *mgmt
	s.StateDir = *state
	if *rate != "" {
		s = s.WithRate(*rate)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	l, err := lab.Up(ctx, s)
	if err != nil {
		return err
	}
	printLab(os.Stdout, l)
	if *tfvars != "" {
		if err := writeTFVars(*tfvars, l); err != nil {
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
	fmt.Fprintf(w, "private key: %s\n", l.ClientKeyPath())
	fmt.Fprintf(w, "known_hosts: %s\n", l.KnownHostsPath())
}

// tfVars builds the Terraform variables for a lab: the key and known_hosts
// files, router_host (first router), host_<name> for each host and
// <node>_host for every node.
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
	return v
}

func writeTFVars(path string, l *lab.Lab) error {
	b, err := json.MarshalIndent(tfVars(l), "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write tfvars: %w", err)
	}
	return nil
}

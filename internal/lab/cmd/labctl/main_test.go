package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
)

// loadState writes a lab state file as lab.Up would and loads it.
func loadState(t *testing.T, st map[string]any) *lab.Lab {
	t.Helper()
	dir := t.TempDir()
	st["version"], st["name"], st["state_dir"] = 1, "x", dir
	st["known_hosts_file"], st["client_key_file"] = dir+"/known_hosts", dir+"/client_ed25519"
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := lab.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestTFVarsDirectLink(t *testing.T) {
	nodes := []map[string]any{
		{"name": "r", "role": "router", "mgmt_addr": "198.19.254.2"},
		{"name": "a", "role": "host", "mgmt_addr": "198.19.254.6"},
		{"name": "b", "role": "host", "mgmt_addr": "198.19.254.10"},
		{"name": "c", "role": "host", "mgmt_addr": "198.19.254.14"},
	}
	ab := map[string]any{"a": "a", "a_if": "eth2", "a_addr": "198.18.99.10/24", "b": "b", "b_if": "eth2", "b_addr": "198.18.99.20/24", "rate": "1gbit", "wire_namespace": "x-a-b"}
	ac := map[string]any{"a": "a", "a_if": "eth3", "a_addr": "198.18.100.10/24", "b": "c", "b_if": "eth2", "b_addr": "198.18.100.20/24", "wire_namespace": "x-a-c"}
	base := map[string]string{
		"r_host": "198.19.254.2", "a_host": "198.19.254.6", "b_host": "198.19.254.10", "c_host": "198.19.254.14",
		"router_host": "198.19.254.2", "host_a": "198.19.254.6", "host_b": "198.19.254.10", "host_c": "198.19.254.14",
	}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		direct []map[string]any
		want   map[string]string
	}{
		{"none", nil, with(nil)},
		{"a-b", []map[string]any{ab}, with(map[string]string{"a_direct_addr": "198.18.99.10", "b_direct_addr": "198.18.99.20"})},
		// a is on two direct links: its addresses are named after the peer.
		{"a-b and a-c", []map[string]any{ab, ac}, with(map[string]string{
			"a_direct_addr_b": "198.18.99.10", "b_direct_addr": "198.18.99.20",
			"a_direct_addr_c": "198.18.100.10", "c_direct_addr": "198.18.100.20",
		})},
	} {
		st := map[string]any{"nodes": nodes}
		if tc.direct != nil {
			st["direct_links"] = tc.direct
		}
		l := loadState(t, st)
		got := tfVars(l)
		delete(got, "lab_known_hosts_file")
		delete(got, "lab_private_key_file")
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: tfVars = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// -spec names a topology; bad combinations fail before anything is built.
func TestUpSpecFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-spec", "star"}, `-spec "star": the named topologies are s2s, pppoe and l2tp`},
		{[]string{"-spec", "pppoe", "-lans", "2"}, "-spec pppoe and -lans exclude each other"},
		{[]string{"-spec", "pppoe", "-direct", "a,b"}, "-spec pppoe has no direct links"},
		{[]string{"-spec", "l2tp", "-direct", "a,cli"}, "-spec l2tp has no direct links"},
		{[]string{"-spec", "s2s", "-lans", "3"}, "-spec s2s and -lans exclude each other"},
		{[]string{"-tfvars-for", "."}, "-tfvars-for needs -tfvars"},
	} {
		err := cmdUp(context.Background(), tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("up %v: %v, want …%s…", tc.args, err, tc.want)
		}
	}
}

// What labctl says about the routers' links: the rate to give as
// link_speed when every one is shaped, a warning naming the unshaped ones.
func TestLineRate(t *testing.T) {
	node := func(name, role string, rates map[string]string) map[string]any {
		return map[string]any{"name": name, "role": role, "interfaces": map[string]string{"eth1": "198.18.1.1/24", "eth2": "198.18.2.1/24"}, "rates": rates}
	}
	for _, tc := range []struct {
		name  string
		nodes []map[string]any
		want  []string
		not   []string
	}{
		{"shaped", []map[string]any{node("a", "host", nil), node("r", "router", map[string]string{"eth1": "1gbit", "eth2": "1gbit"})},
			[]string{"router links shaped to 1gbit", `link_speed = "1gbit"`}, []string{"WARNING"}},
		// A host's unshaped links are no router's.
		{"unshaped", []map[string]any{node("a", "host", map[string]string{"eth1": "1gbit"}), node("r", "router", nil)},
			[]string{"WARNING: router links NOT SHAPED (r.eth1, r.eth2)", "-rate 1gbit"}, []string{"link_speed = "}},
		{"partly", []map[string]any{node("r", "router", map[string]string{"eth2": "100mbit"})},
			[]string{"NOT SHAPED (r.eth1)", "shaped: 100mbit (r.eth2)"}, nil},
		{"mixed", []map[string]any{node("r", "router", map[string]string{"eth1": "100mbit", "eth2": "1gbit"})},
			[]string{"different rates: 100mbit (r.eth1); 1gbit (r.eth2)"}, []string{"WARNING"}},
	} {
		got := lineRate(loadState(t, map[string]any{"nodes": tc.nodes}))
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lineRate = %q, want …%s…", tc.name, got, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: lineRate = %q, must not say %q", tc.name, got, w)
			}
		}
	}
}

// -tfvars-for writes only what the configuration declares; without it,
// every variable.
func TestWriteTFVarsDeclared(t *testing.T) {
	dir := t.TempDir()
	tf := `variable "r_host" { type = string }
variable "b_direct_addr" {
  type = string
}
# variable "a_host" is only mentioned in a comment
  variable "indented" {}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(tf), 0o644); err != nil {
		t.Fatal(err)
	}
	declared, err := declaredVariables(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"r_host": true, "b_direct_addr": true}; !reflect.DeepEqual(declared, want) {
		t.Errorf("declaredVariables = %v, want %v", declared, want)
	}
	l := loadState(t, map[string]any{
		"nodes":        []map[string]any{{"name": "r", "role": "router", "mgmt_addr": "198.19.254.2"}, {"name": "a", "role": "host", "mgmt_addr": "198.19.254.6"}, {"name": "b", "role": "host", "mgmt_addr": "198.19.254.10"}},
		"direct_links": []map[string]any{{"a": "a", "a_if": "eth2", "a_addr": "198.18.99.10/24", "b": "b", "b_if": "eth2", "b_addr": "198.18.99.20/24", "wire_namespace": "x-a-b"}},
	})
	read := func(declared map[string]bool) map[string]string {
		t.Helper()
		p := filepath.Join(t.TempDir(), "lab.auto.tfvars.json")
		if err := writeTFVars(p, l, declared); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]string
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got, want := read(declared), map[string]string{"r_host": "198.19.254.2", "b_direct_addr": "198.18.99.20"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with -tfvars-for: %v, want %v", got, want)
	}
	if got := read(nil); got["a_direct_addr"] != "198.18.99.10" || got["a_host"] != "198.19.254.6" || got["lab_private_key_file"] == "" {
		t.Errorf("without -tfvars-for: %v, want every variable", got)
	}
	if _, err := declaredVariables(t.TempDir()); err == nil {
		t.Error("declaredVariables of a directory without .tf files: no error")
	}
}

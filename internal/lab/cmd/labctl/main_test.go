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
		{[]string{"-spec", "star"}, `-spec "star": the only named topology is s2s`},
		{[]string{"-spec", "s2s", "-lans", "3"}, "-spec s2s and -lans exclude each other"},
	} {
		err := cmdUp(context.Background(), tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("up %v: %v, want …%s…", tc.args, err, tc.want)
		}
	}
}

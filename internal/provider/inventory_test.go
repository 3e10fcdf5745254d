package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The host key policy a device ends up with: its own settings win as a
// whole, then the ssh defaults, then ~/.ssh/known_hosts.
func TestEndpointForHostKeyPolicy(t *testing.T) {
	s, n := types.StringValue, types.StringNull()
	defaults := sshModel{KnownHostsFile: s("/lab/known_hosts"), Username: s("admin"), Port: types.Int64Value(2222)}
	cases := []struct {
		name         string
		dev          deviceModel
		def          sshModel
		wantKnown    string
		wantPinned   bool
		wantInsecure bool
		wantUser     string
		wantPort     int
		wantPassword string
	}{
		{"defaults apply", deviceModel{Host: s("h"), HostKey: n}, defaults, "/lab/known_hosts", false, false, "admin", 2222, ""},
		{"pin overrides shared known_hosts", deviceModel{Host: s("h"), HostKey: s(someHostKey)}, defaults, "", true, false, "admin", 2222, ""},
		{"device insecure overrides shared known_hosts", deviceModel{Host: s("h"), HostKey: n, sshModel: sshModel{InsecureIgnoreHostKey: types.BoolValue(true)}}, defaults, "", false, true, "admin", 2222, ""},
		{"nothing set: OpenSSH default", deviceModel{Host: s("h"), HostKey: n}, sshModel{}, "~/.ssh/known_hosts", false, false, "root", 22, ""},
		{"device credentials win", deviceModel{Host: s("h"), HostKey: n, sshModel: sshModel{Username: s("ops"), Password: s("pw"), Port: types.Int64Value(22)}}, defaults, "/lab/known_hosts", false, false, "ops", 22, "pw"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ep, err := endpointFor(c.dev, c.def)
			if err != nil {
				t.Fatal(err)
			}
			if ep.KnownHostsFile != c.wantKnown || (ep.HostKey != "") != c.wantPinned || ep.InsecureIgnoreHostKey != c.wantInsecure {
				t.Errorf("policy: known_hosts=%q pinned=%v insecure=%v", ep.KnownHostsFile, ep.HostKey != "", ep.InsecureIgnoreHostKey)
			}
			if ep.User != c.wantUser || ep.Port != c.wantPort || ep.Password != c.wantPassword {
				t.Errorf("user=%q port=%d password set=%v", ep.User, ep.Port, ep.Password != "")
			}
		})
	}
}

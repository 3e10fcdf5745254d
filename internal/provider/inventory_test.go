package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The host key policy a device ends up with: its own settings win as a
// whole, then the ssh defaults, then ~/.ssh/known_hosts.
func TestEndpointForHostKeyPolicy(t *testing.T) {
	t.Parallel()
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
		{"device opts back into checking", deviceModel{Host: s("h"), HostKey: n, sshModel: sshModel{InsecureIgnoreHostKey: types.BoolValue(false)}},
			sshModel{InsecureIgnoreHostKey: types.BoolValue(true)}, "~/.ssh/known_hosts", false, false, "root", 22, ""},
		{"device opts back in, shared known_hosts kept out", deviceModel{Host: s("h"), HostKey: n, sshModel: sshModel{InsecureIgnoreHostKey: types.BoolValue(false)}},
			sshModel{InsecureIgnoreHostKey: types.BoolValue(true), KnownHostsFile: s("/lab/known_hosts")}, "~/.ssh/known_hosts", false, false, "root", 22, ""},
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

// An insecure device is a warning the user sees on every plan and apply
// (a diagnostic, not only a log line); a device named "local" is refused.
func TestBuildInventoryDiagnostics(t *testing.T) {
	t.Parallel()
	s := types.StringValue
	dev := func(insecure bool) deviceModel {
		return deviceModel{Platform: s("linux"), Host: s("198.18.0.1"), HostKey: types.StringNull(),
			sshModel: sshModel{Password: s("pw"), InsecureIgnoreHostKey: types.BoolValue(insecure)}}
	}
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(known, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	safe := dev(false)
	safe.KnownHostsFile = s(known)
	inv, diags := buildInventory(context.Background(), providerModel{Devices: namedBlocks(map[string]deviceModel{"lab": dev(true), "safe": safe})})
	defer inv.Close()
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want exactly one warning: %v", diags)
	}
	w := diags.Warnings()[0]
	if w.Summary() != "Host Key Not Verified" || !strings.Contains(w.Detail(), `device "lab"`) || !strings.Contains(w.Detail(), "198.18.0.1:22") {
		t.Errorf("warning = %s: %s", w.Summary(), w.Detail())
	}
	_, diags = buildInventory(context.Background(), providerModel{Devices: namedBlocks(map[string]deviceModel{"local": safe})})
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), `device name "local" is reserved`) {
		t.Fatalf("device named local: %v", diags)
	}
}

// A credential with a line break is refused at plan, naming the attribute
// and never the value: an RTX administrator password is typed as a line
// at the console, so the text after a break would run as an administrator
// command (issue 18).
func TestBuildInventoryRefusesCredentialsWithLineBreaks(t *testing.T) {
	t.Parallel()
	s := types.StringValue
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(known, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	base := func() deviceModel {
		return deviceModel{Platform: s("rtx"), Host: s("198.18.0.1"), HostKey: types.StringNull(),
			sshModel: sshModel{Password: s("pw"), KnownHostsFile: s(known)}}
	}
	for attr, set := range map[string]func(*deviceModel){
		"administrator_password": func(d *deviceModel) { d.AdministratorPassword = s("admin-secret\nsave-secret") },
		"password":               func(d *deviceModel) { d.Password = s("ssh-secret\r\n") },
		"user":                   func(d *deviceModel) { d.Username = s("admin\x1b[2J") },
	} {
		d := base()
		set(&d)
		inv, diags := buildInventory(context.Background(), providerModel{Devices: namedBlocks(map[string]deviceModel{"rtx810": d})})
		inv.Close()
		if !diags.HasError() {
			t.Errorf("%s: accepted", attr)
			continue
		}
		e := diags.Errors()[0]
		if !strings.Contains(e.Detail(), attr) || !strings.Contains(e.Detail(), `device "rtx810"`) {
			t.Errorf("%s: the error does not name the attribute: %s", attr, e.Detail())
		}
		if strings.Contains(e.Detail(), "secret") {
			t.Errorf("%s: the error shows the value: %s", attr, e.Detail())
		}
		if _, ok := inv.Lookup("rtx810"); ok == nil {
			t.Errorf("%s: the device was registered anyway", attr)
		}
	}
}

// namedBlocks turns name → device into the provider's device blocks, in
// name order.
func namedBlocks(byName map[string]deviceModel) []deviceModel {
	var blocks []deviceModel
	for _, name := range sortedNames(byName) {
		dm := byName[name]
		dm.Name = types.StringValue(name)
		blocks = append(blocks, dm)
	}
	return blocks
}

// A name given by two device blocks is an error naming both, and the rest
// of the inventory is still checked.
func TestDuplicateDeviceNameRefused(t *testing.T) {
	t.Parallel()
	dm := deviceModel{Name: types.StringValue("r"), Platform: types.StringValue("linux"), Host: types.StringValue("198.18.0.1"),
		HostKey: types.StringValue(someHostKey), sshModel: sshModel{Password: types.StringValue("pw")}}
	inv, diags := buildInventory(t.Context(), providerModel{Devices: []deviceModel{dm, dm}})
	defer inv.Close()
	if !diags.HasError() {
		t.Fatal("two device blocks named r were accepted")
	}
	d := diags.Errors()[0]
	if d.Summary() != "Duplicate Device Name" || !strings.Contains(d.Detail(), `"r"`) || !strings.Contains(d.Detail(), "device[0]") || !strings.Contains(d.Detail(), "device[1]") {
		t.Errorf("error = %s: %s", d.Summary(), d.Detail())
	}
	if names := inv.Names(); len(names) != 1 || names[0] != "r" {
		t.Errorf("inventory = %v, want the first block's r", names)
	}
}

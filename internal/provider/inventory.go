package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

type sshModel struct {
	Port                  types.Int64  `tfsdk:"port"`
	Username              types.String `tfsdk:"username"`
	Password              types.String `tfsdk:"password"`
	PrivateKey            types.String `tfsdk:"private_key"`
	PrivateKeyPassphrase  types.String `tfsdk:"private_key_passphrase"`
	UseAgent              types.Bool   `tfsdk:"use_agent"`
	KnownHostsFile        types.String `tfsdk:"known_hosts_file"`
	InsecureIgnoreHostKey types.Bool   `tfsdk:"insecure_ignore_host_key"`
	Timeout               types.String `tfsdk:"connect_timeout"`
	CommandTimeout        types.String `tfsdk:"command_timeout"`
}

type deviceModel struct {
	sshModel
	Name      types.String `tfsdk:"name"`
	Platform  types.String `tfsdk:"platform"`
	Host      types.String `tfsdk:"host"`
	HostKey   types.String `tfsdk:"host_key"`
	JumpHosts []string     `tfsdk:"jump_hosts"`
	// AdministratorPassword is RTX's privileged-mode password.
	AdministratorPassword types.String `tfsdk:"administrator_password"`
}

type providerModel struct {
	SSH     *sshModel     `tfsdk:"ssh"`
	Devices []deviceModel `tfsdk:"device"`
}

// Inventory is the provider's configured state: every named device, each
// with a lazily connected SSH client and a snapshot cache.
type Inventory struct {
	pool    *sshx.Pool
	devices map[string]*Device
}

// Device is one inventory entry: its SSH client (the command path) and its
// device.Session, which holds the one snapshot read and the one write lock
// every resource and data source on the device shares.
type Device struct {
	*device.Session
	Name     string
	Platform device.Platform
	client   *sshx.Client
}

// sessionInterfaces names the interfaces of st that carry routerlab's own
// SSH session to d: those holding the address the connection reached the
// device on. None while no connection is open.
func (d *Device) sessionInterfaces(st device.RouterState) []string {
	if d.client == nil {
		return nil
	}
	addr, ok := d.client.ServerAddr()
	if !ok {
		return nil
	}
	return st.InterfacesWithAddress(addr)
}

// Names returns the device names, sorted, for error messages.
func (inv *Inventory) Names() []string {
	names := make([]string, 0, len(inv.devices))
	for n := range inv.devices {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup finds a device by name; the error lists the known names.
func (inv *Inventory) Lookup(name string) (*Device, error) {
	if d, ok := inv.devices[name]; ok {
		return d, nil
	}
	known := "none: the provider configuration has no device blocks"
	if names := inv.Names(); len(names) > 0 {
		known = strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("device %q is not one of the provider's device blocks; known devices: %s", name, known)
}

// Dials reports how many SSH connections this inventory opened.
func (inv *Inventory) Dials() int64 { return inv.pool.Dials() }

// Close ends every connection.
func (inv *Inventory) Close() error { return inv.pool.Close() }

// buildInventory merges the ssh defaults into each device, validates the
// result without any I/O and registers each device with the SSH pool.
func buildInventory(ctx context.Context, cfg providerModel) (*Inventory, diag.Diagnostics) {
	var diags diag.Diagnostics
	defaults := sshModel{}
	if cfg.SSH != nil {
		defaults = *cfg.SSH
	}
	inv := &Inventory{pool: sshx.NewPool(), devices: map[string]*Device{}}
	models, paths := namedDevices(cfg.Devices, &diags)
	endpoints := map[string]sshx.Endpoint{}
	for _, name := range sortedNames(models) {
		dm := models[name]
		at := paths[name]
		if name == command.LocalName {
			// "local" names the machine running Terraform in benchmark
			// pairs and power meters; a device of that name would be
			// silently shadowed there.
			diags.AddAttributeError(at, "Invalid Device Name",
				fmt.Sprintf("device name %q is reserved: it names the machine running Terraform in routerlab_benchmark_run pairs and power meters. Choose another name for this device.", name))
			continue
		}
		if dm.Host.IsUnknown() || dm.Platform.IsUnknown() {
			continue // known only at apply; resources on it fail then
		}
		ep, err := endpointFor(dm, defaults)
		if err != nil {
			diags.AddAttributeError(at, "Invalid Device Configuration", fmt.Sprintf("device %q: %s", name, err))
			continue
		}
		if err := sshx.ValidateEndpoint(ep); err != nil {
			diags.AddAttributeError(at, "Invalid Device Configuration", fmt.Sprintf("device %q: %s", name, err))
			continue
		}
		if ep.InsecureIgnoreHostKey {
			// Shown on every plan and apply, not only in TF_LOG output:
			// the user chose this and should keep seeing that they did.
			diags.AddAttributeWarning(at, "Host Key Not Verified",
				fmt.Sprintf("device %q: insecure_ignore_host_key is true, so any host key is accepted at %s and a man in the middle would go unnoticed. Pin host_key or use known_hosts_file outside throw-away labs.", name, ep.Addr()))
		}
		endpoints[name] = ep
	}
	for _, name := range sortedNames(models) {
		ep, ok := endpoints[name]
		if !ok {
			continue
		}
		dm := models[name]
		// Validated by the schema; empty means the client's default.
		cmdTimeout, err := parseDuration(firstSet(dm.CommandTimeout, defaults.CommandTimeout, ""))
		if err != nil {
			diags.AddAttributeError(paths[name], "Invalid Device Configuration", fmt.Sprintf("device %q: command_timeout: %s", name, err))
			continue
		}
		platform := device.Platform(dm.Platform.ValueString())
		dialect := drivers.Dialect(platform)
		admin := firstSet(dm.AdministratorPassword, types.StringNull(), "")
		// Only a console CLI with a privileged mode (RTX) takes one; the
		// registry says which platforms that is.
		if admin != "" && (dialect.Console == nil || dialect.Console.Enable == "") {
			diags.AddAttributeError(paths[name].AtName("administrator_password"), "Invalid Device Configuration",
				fmt.Sprintf("device %q: administrator_password is for platform \"rtx\" (its privileged mode); platform %q has none", name, platform))
			continue
		}
		if err := sshx.ValidateCredential("administrator_password", admin); err != nil {
			diags.AddAttributeError(paths[name].AtName("administrator_password"), "Invalid Device Configuration", fmt.Sprintf("device %q: %s", name, err))
			continue
		}
		c := sshx.Config{Endpoint: ep, CommandTimeout: cmdTimeout, Dialect: dialect, EnablePassword: admin, Warnf: func(format string, args ...any) {
			tflog.Warn(ctx, fmt.Sprintf(format, args...), map[string]any{"device": name})
		}}
		for _, hop := range dm.JumpHosts {
			hep, ok := endpoints[hop]
			if !ok {
				diags.AddAttributeError(paths[name].AtName("jump_hosts"), "Unknown Jump Host",
					fmt.Sprintf("device %q: jump host %q is not a valid device block; known devices: %s", name, hop, strings.Join(sortedNames(models), ", ")))
				continue
			}
			c.JumpHosts = append(c.JumpHosts, hep)
		}
		inv.pool.Register(name, c)
		client, ok := inv.pool.Get(name)
		if !ok {
			diags.AddError("Unable to Configure Provider", fmt.Sprintf("device %q: SSH client not registered; please report this issue to the provider developers", name))
			continue
		}
		runner, warning, err := recordTranscript(name, platform, client, []string{ep.Password, ep.Passphrase, admin})
		if err != nil {
			diags.AddAttributeError(paths[name], "Unable to Record Transcript", fmt.Sprintf("device %q: %s", name, err))
			continue
		}
		if warning != "" {
			diags.AddAttributeWarning(paths[name], "Transcript Not Recorded", warning)
		}
		drv, drvErr := drivers.New(platform, runner)
		inv.devices[name] = &Device{Session: device.NewSession(name, drv, drvErr), Name: name, Platform: platform, client: client}
	}
	return inv, diags
}

// namedDevices indexes the device blocks by name, with the path of each for
// diagnostics. A name given twice is an error at the second block (the
// first wins, so the rest of the checks still run); a name known only at
// apply is left out, and resources on it fail then.
func namedDevices(blocks []deviceModel, diags *diag.Diagnostics) (map[string]deviceModel, map[string]path.Path) {
	models := map[string]deviceModel{}
	paths := map[string]path.Path{}
	for i, dm := range blocks {
		at := devicesPath.AtListIndex(i)
		if dm.Name.IsUnknown() || dm.Name.IsNull() {
			continue
		}
		name := dm.Name.ValueString()
		if first, dup := paths[name]; dup {
			diags.AddAttributeError(at.AtName("name"), "Duplicate Device Name",
				fmt.Sprintf("device name %q is given by two device blocks (%s and %s); each device needs its own name.", name, first, at))
			continue
		}
		models[name] = dm
		paths[name] = at
	}
	return models, paths
}

// endpointFor merges a device's settings over the defaults.
func endpointFor(dm deviceModel, def sshModel) (sshx.Endpoint, error) {
	timeout, err := parseDuration(firstSet(dm.Timeout, def.Timeout, ""))
	if err != nil {
		return sshx.Endpoint{}, fmt.Errorf("connect_timeout: %w", err)
	}
	port := int64(sshx.DefaultPort)
	for _, p := range []types.Int64{def.Port, dm.Port} {
		if !p.IsNull() && !p.IsUnknown() {
			port = p.ValueInt64()
		}
	}
	ep := sshx.Endpoint{
		Host: dm.Host.ValueString(),
		Port: int(port),
		User: firstSet(dm.Username, def.Username, sshx.DefaultUser),
		Auth: sshx.Auth{
			Password:   firstSet(dm.Password, def.Password, ""),
			PrivateKey: firstSet(dm.PrivateKey, def.PrivateKey, ""),
			Passphrase: firstSet(dm.PrivateKeyPassphrase, def.PrivateKeyPassphrase, ""),
			UseAgent:   firstBool(dm.UseAgent, def.UseAgent),
		},
		ConnectTimeout: timeout,
	}
	// Host key policy: a device that sets any of its own host key settings
	// uses only those (a pinned key overrides the shared known_hosts file);
	// otherwise the ssh defaults; otherwise OpenSSH's ~/.ssh/known_hosts.
	deviceOwn := sshModel{KnownHostsFile: dm.KnownHostsFile, InsecureIgnoreHostKey: dm.InsecureIgnoreHostKey}
	switch {
	case hasHostKeyPolicy(dm.HostKey, deviceOwn):
		ep.HostKey = dm.HostKey.ValueString()
		ep.KnownHostsFile = firstSet(dm.KnownHostsFile, types.StringNull(), "")
		ep.InsecureIgnoreHostKey = firstBool(dm.InsecureIgnoreHostKey, types.BoolNull())
	case hasHostKeyPolicy(types.StringNull(), def):
		ep.KnownHostsFile = firstSet(def.KnownHostsFile, types.StringNull(), "")
		ep.InsecureIgnoreHostKey = firstBool(def.InsecureIgnoreHostKey, types.BoolNull())
	}
	if ep.HostKey == "" && ep.KnownHostsFile == "" && !ep.InsecureIgnoreHostKey {
		// Nothing said, or only insecure_ignore_host_key = false (how a
		// device opts back into checking when the ssh block opts out):
		// OpenSSH's own file.
		ep.KnownHostsFile = sshx.DefaultKnownHostsFile
	}
	return ep, nil
}

// hasHostKeyPolicy tells whether a device or the ssh block says anything
// about host keys. An explicit insecure_ignore_host_key = false counts: it
// is how one device opts back into checking.
func hasHostKeyPolicy(hostKey types.String, m sshModel) bool {
	return hostKey.ValueString() != "" || m.KnownHostsFile.ValueString() != "" ||
		(!m.InsecureIgnoreHostKey.IsNull() && !m.InsecureIgnoreHostKey.IsUnknown())
}

// parseDuration reads a Go duration; "" is zero, which leaves the
// client's default (sshx.Default*Timeout) in force.
func parseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	return time.ParseDuration(s)
}

func firstSet(v, def types.String, fallback string) string {
	for _, s := range []types.String{v, def} {
		if !s.IsNull() && !s.IsUnknown() && s.ValueString() != "" {
			return s.ValueString()
		}
	}
	return fallback
}

func firstBool(v, def types.Bool) bool {
	for _, b := range []types.Bool{v, def} {
		if !b.IsNull() && !b.IsUnknown() {
			return b.ValueBool()
		}
	}
	return false
}

func sortedNames[V any](m map[string]V) []string {
	return device.SortedKeys(m)
}

// Package provider is the Terraform face of routerlab: schemas, models and
// CRUD. Device knowledge lives in internal/device; this package converts
// between Terraform values and device types and nothing more.
package provider

import (
	"context"
	"fmt"
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var _ provider.Provider = (*routerlabProvider)(nil)
var _ provider.ProviderWithFunctions = (*routerlabProvider)(nil)

// routerlabProvider holds the inventory built by Configure. One provider
// process serves one Terraform operation; the inventory's SSH connections
// and snapshot cache live as long as it does.
type routerlabProvider struct {
	version string
	// configured is called with the inventory after Configure; tests use it
	// to reach the SSH pool. Nil in production.
	configured func(*Inventory)
}

// New returns a constructor for the provider, as providerserver expects.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &routerlabProvider{version: version} }
}

func (p *routerlabProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "routerlab"
	resp.Version = p.version
}

// sshFields are the connection settings shared by the ssh defaults block and
// each device; a device value overrides the default.
func sshFields(forDevice bool) map[string]schema.Attribute {
	scope := "Default for every device; a device's own setting wins."
	if forDevice {
		scope = "Overrides the provider's `ssh` default."
	}
	return map[string]schema.Attribute{
		"port": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "SSH port, 1–65535 (default 22). " + scope,
			Validators:          []validator.Int64{int64validator.Between(1, 65535)},
		},
		"username": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "SSH user name (default `root`). " + scope,
			Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"password": schema.StringAttribute{
			Optional:            true,
			Sensitive:           true,
			MarkdownDescription: "SSH password. Sensitive; never logged. " + scope,
		},
		"private_key": schema.StringAttribute{
			Optional:            true,
			Sensitive:           true,
			MarkdownDescription: "SSH private key in PEM or OpenSSH format, e.g. `file(\"~/.ssh/id_ed25519\")`. Sensitive. " + scope,
		},
		"private_key_passphrase": schema.StringAttribute{
			Optional:            true,
			Sensitive:           true,
			MarkdownDescription: "Passphrase of an encrypted `private_key`. Sensitive. " + scope,
		},
		"use_agent": schema.BoolAttribute{
			Optional:            true,
			MarkdownDescription: "Authenticate with the keys of the ssh-agent at `$SSH_AUTH_SOCK`. " + scope,
		},
		"known_hosts_file": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "OpenSSH known_hosts file that verifies host keys (default `~/.ssh/known_hosts` when no `host_key` is pinned). " + scope,
		},
		"insecure_ignore_host_key": schema.BoolAttribute{
			Optional:            true,
			MarkdownDescription: "Accept any host key. Explicit opt-in only, for throw-away labs; every connection logs a warning. " + scope,
		},
		"connect_timeout": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "How long the TCP connect and SSH handshake may take (each jump host's too), as a Go duration (default `10s`). " + scope,
			Validators:          []validator.String{durationValidator{}},
		},
		"command_timeout": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Timeout of one remote command as a Go duration (default `60s`). EdgeOS and VyOS changes (one exec with their commit, which on an EdgeRouter often takes longer than a minute) are bounded by `5m` instead. " + scope,
			Validators:          []validator.String{durationValidator{}},
		},
	}
}

func (p *routerlabProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	deviceAttrs := sshFields(true)
	deviceAttrs["name"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "The device's name, by which resources, data sources, `jump_hosts` and benchmark pairs refer to it, e.g. `r1`. Unique among the `device` blocks; `local` is reserved for the machine running Terraform.",
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
	deviceAttrs["platform"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Device platform: one of `routeros`, `edgeos`, `vyos`, `rtx`, `linux`. `vyos` runs on the EdgeOS driver with router settings and WireGuard tunnels for now.",
		Validators:          []validator.String{stringvalidator.OneOf(device.Platforms()...)},
	}
	deviceAttrs["host"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Address or name the device's SSH server listens on.",
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
	deviceAttrs["administrator_password"] = schema.StringAttribute{
		Optional:            true,
		Sensitive:           true,
		MarkdownDescription: "`rtx` only: the password of `administrator`, the privileged mode every configuration change needs, typed at its `Password:` prompt. Sensitive; never logged or shown in errors. Unset: the router asks for none.",
	}
	deviceAttrs["host_key"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Pinned SSH host key as an authorized_keys line, e.g. `ssh-ed25519 AAAAC3Nza...`. Takes precedence over `known_hosts_file`.",
		Validators:          []validator.String{hostKeyValidator{}},
	}
	deviceAttrs["jump_hosts"] = schema.ListAttribute{
		ElementType:         types.StringType,
		Optional:            true,
		MarkdownDescription: "Names of other `device` blocks to hop through, in order (the first is dialled directly). Each hop uses its own credentials and host key.",
	}
	// Blocks, not nested attributes: Terraform drops a key it does not know
	// from a nested attribute's object silently (hashicorp/terraform#33570),
	// so `ssh = { connect_timeoutt = "3s" }` would plan as if unset; a block
	// refuses it with "Did you mean …".
	resp.Schema = schema.Schema{
		MarkdownDescription: "Configures routers of a benchmark lab over SSH and runs iperf3 benchmarks through them. Name every device once in a `device` block; resources refer to devices by name.",
		Blocks: map[string]schema.Block{
			"ssh": schema.SingleNestedBlock{
				MarkdownDescription: "SSH settings shared by every device.",
				Attributes:          sshFields(false),
			},
			"device": schema.ListNestedBlock{
				MarkdownDescription: "One block per device of the lab inventory: its name and connection. Connections are opened lazily, one per device, only when a resource or data source uses the device.",
				NestedObject:        schema.NestedBlockObject{Attributes: deviceAttrs},
			},
		},
	}
}

func (p *routerlabProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	inv, diags := buildInventory(ctx, cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if p.configured != nil {
		p.configured(inv)
	}
	resp.ResourceData = inv
	resp.DataSourceData = inv
}

func (p *routerlabProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewRouterResource, NewBenchmarkRunResource, NewTunnelResource, NewFirewallResource, NewOffloadResource, NewPPPoESessionResource}
}

// Functions are the provider-defined functions (Terraform 1.8 and later).
func (p *routerlabProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{NewParseConfigFunction}
}

func (p *routerlabProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{NewDeviceDataSource, NewRunningConfigDataSource, NewLineRateDataSource, NewBenchmarkArchiveDataSource}
}

// inventoryFrom is the shared Configure step of resources and data sources.
func inventoryFrom(data any) (*Inventory, error) {
	if data == nil {
		return nil, nil // provider not configured yet (validation)
	}
	inv, ok := data.(*Inventory)
	if !ok {
		return nil, fmt.Errorf("expected *provider.Inventory, got %T; please report this issue to the provider developers", data)
	}
	return inv, nil
}

var devicesPath = path.Root("device")

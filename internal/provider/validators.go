package provider

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// stringCheck adapts a plain Go check to a framework string validator, so
// the rules stay in internal/device and internal/sshx.
type stringCheck struct {
	desc  string
	check func(string) error
}

func (v stringCheck) Description(context.Context) string         { return v.desc }
func (v stringCheck) MarkdownDescription(context.Context) string { return v.desc }
func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", fmt.Sprintf("%s: %s", req.Path, err))
	}
}

// mssValidator is iperf3.CheckMSS for each element of an MSS list, so that
// the schema and the engine allow the same values.
type mssValidator struct{}

func (mssValidator) Description(context.Context) string {
	return fmt.Sprintf("0 (iperf3's default) or %d to %d", iperf3.MinMSS, iperf3.MaxMSS)
}
func (v mssValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (mssValidator) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := iperf3.CheckMSS(int(req.ConfigValue.ValueInt64())); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid MSS", fmt.Sprintf("%s: %s", req.Path, err))
	}
}

type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "a positive Go duration such as 10s or 2m"
}
func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	stringCheck{check: func(s string) error {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return fmt.Errorf("%q is not a positive duration; use a Go duration such as 10s or 2m", s)
		}
		return nil
	}}.ValidateString(ctx, req, resp)
}

type hostKeyValidator struct{}

func (hostKeyValidator) Description(context.Context) string {
	return "an SSH public key as an authorized_keys line"
}
func (v hostKeyValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (v hostKeyValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	stringCheck{check: func(s string) error {
		_, err := sshx.ParseHostKey(s)
		return err
	}}.ValidateString(ctx, req, resp)
}

var (
	addressValidator = stringCheck{desc: "an interface address in canonical CIDR form, e.g. 198.18.1.1/24", check: device.ValidateInterfaceAddress}
	// routerlab_router's names: the schema does not know the platform, so
	// it refuses only what no platform takes (empty, control characters,
	// over-long); each driver's ValidateRouter applies its platform's rule
	// at plan, before anything is written (RouterOS's identity and
	// interface names hold spaces, issue 21 point 8).
	anyHostnameValidator = stringCheck{desc: "a host name without control characters (the platform's own rule is checked at plan)", check: device.ValidateAnyHostname}
	anyIfNameValidator   = stringCheck{desc: "an interface name without control characters (the platform's own rule is checked at plan)", check: device.ValidateAnyInterfaceName}
	descriptionChecker   = stringCheck{desc: "printable text without control characters", check: func(s string) error {
		return device.ValidateDescription(s, 255)
	}}
	ipValidator      = stringCheck{desc: "an IP address", check: func(s string) error { _, err := device.ParseIP(s); return err }}
	gatewayValidator = stringCheck{desc: "an IP address in canonical form", check: func(s string) error {
		return device.ValidateGateway("", s)
	}}
)

// prefixKeyCheck validates a route map key: a prefix in canonical form.
func prefixKeyCheck(s string) error { return device.ValidateRouteDestination(s) }

// udpRateRE is what iperf3 accepts for -b: a number with an optional K/M/G
// suffix.
var udpRateRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[KMGkmg]?$`)

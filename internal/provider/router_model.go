package provider

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// routerModel is routerlab_router's Terraform model. It converts to the
// device's desired configuration with toDevice and back from what the
// device reports with fromDevice; nothing else crosses between the two.
type routerModel struct {
	ID                 types.String              `tfsdk:"id"`
	Device             types.String              `tfsdk:"device"`
	Hostname           types.String              `tfsdk:"hostname"`
	Interfaces         map[string]interfaceModel `tfsdk:"interfaces"`
	StaticRoutes       map[string]routeModel     `tfsdk:"static_routes"`
	IPForwarding       types.Bool                `tfsdk:"ip_forwarding"`
	IPv6Forwarding     types.Bool                `tfsdk:"ipv6_forwarding"`
	ConnectionTracking types.Bool                `tfsdk:"connection_tracking"`
	DHCPServers        map[string]dhcpModel      `tfsdk:"dhcp_servers"`
	Model              types.String              `tfsdk:"model"`
	Firmware           types.String              `tfsdk:"firmware"`
	Serial             types.String              `tfsdk:"serial"`
	CPUCount           types.Int64               `tfsdk:"cpu_count"`
	ConfigSHA256       types.String              `tfsdk:"config_sha256"`
	RestoreValues      types.String              `tfsdk:"restore_values"`
}

type interfaceModel struct {
	Addresses   []string     `tfsdk:"addresses"`
	MTU         types.Int64  `tfsdk:"mtu"`
	Description types.String `tfsdk:"description"`
}

type dhcpModel struct {
	Subnet        types.String `tfsdk:"subnet"`
	RangeStart    types.String `tfsdk:"range_start"`
	RangeStop     types.String `tfsdk:"range_stop"`
	DefaultRouter types.String `tfsdk:"default_router"`
	DNSServers    []string     `tfsdk:"dns_servers"`
	Authoritative types.Bool   `tfsdk:"authoritative"`
}

type routeModel struct {
	Gateway   types.String `tfsdk:"gateway"`
	Interface types.String `tfsdk:"interface"`
	Metric    types.Int64  `tfsdk:"metric"`
}

// differsFrom tells whether applying plan over state would change anything
// managed (computed attributes aside).
func (m routerModel) differsFrom(o routerModel) bool {
	return !reflect.DeepEqual(toDevice(m), toDevice(o))
}

// toDevice converts the Terraform model to the device's desired config.
func toDevice(m routerModel) device.RouterConfig {
	var c device.RouterConfig
	if !m.Hostname.IsNull() && !m.Hostname.IsUnknown() {
		h := m.Hostname.ValueString()
		c.Hostname = &h
	}
	if m.Interfaces != nil {
		c.Interfaces = map[string]device.InterfaceConfig{}
		for name, im := range m.Interfaces {
			var ic device.InterfaceConfig
			if im.Addresses != nil {
				ic.Addresses = append([]string{}, im.Addresses...)
				sort.Strings(ic.Addresses)
			}
			ic.MTU = int64Ptr(im.MTU)
			if !im.Description.IsNull() && !im.Description.IsUnknown() {
				d := im.Description.ValueString()
				ic.Description = &d
			}
			c.Interfaces[name] = ic
		}
	}
	if m.StaticRoutes != nil {
		c.Routes = map[string]*device.Route{}
		for dst, rm := range m.StaticRoutes {
			c.Routes[dst] = &device.Route{
				Destination: dst,
				Gateway:     rm.Gateway.ValueString(),
				Interface:   rm.Interface.ValueString(),
				Metric:      int64Ptr(rm.Metric),
			}
		}
	}
	if m.DHCPServers != nil {
		c.DHCPServers = map[string]*device.DHCPServer{}
		for name, d := range m.DHCPServers {
			c.DHCPServers[name] = &device.DHCPServer{
				Subnet: d.Subnet.ValueString(), Start: d.RangeStart.ValueString(), Stop: d.RangeStop.ValueString(),
				DefaultRouter: d.DefaultRouter.ValueString(), DNSServers: d.DNSServers, Authoritative: d.Authoritative.ValueBool(),
			}
		}
	}
	c.IPv4Forwarding = boolPtr(m.IPForwarding)
	c.IPv6Forwarding = boolPtr(m.IPv6Forwarding)
	c.ConnectionTracking = boolPtr(m.ConnectionTracking)
	return c
}

// fromDevice fills template's managed keys with what the device reports:
// a key the template leaves null stays null, so unmanaged settings never
// show as drift. An interface or route that vanished drops out of the map,
// which plans as re-adding it.
func fromDevice(t routerModel, snap *device.Snapshot, adopting bool) routerModel {
	st := snap.Router
	m := t
	m.ID = t.Device
	if !t.Hostname.IsNull() {
		m.Hostname = types.StringValue(st.Hostname)
		if adopting && st.Hostname == "" {
			// A device without a host name (an EdgeOS factory
			// configuration has no system host-name) is adopted as
			// unset, like an empty description: "" would be refused by
			// the validator in the generated configuration (issue 22,
			// point 11).
			m.Hostname = types.StringNull()
		}
	}
	if t.Interfaces != nil {
		m.Interfaces = map[string]interfaceModel{}
		for name, ti := range t.Interfaces {
			have, ok := st.Interfaces[name]
			if !ok {
				continue
			}
			im := ti
			if ti.Addresses != nil {
				im.Addresses = append([]string{}, have.Addresses...)
			}
			if !ti.MTU.IsNull() {
				im.MTU = types.Int64Value(int64(have.MTU))
			}
			if !ti.Description.IsNull() {
				im.Description = types.StringValue(have.Description)
			}
			m.Interfaces[name] = im
		}
	}
	if t.StaticRoutes != nil {
		m.StaticRoutes = map[string]routeModel{}
		for dst, tr := range t.StaticRoutes {
			have, ok := st.Routes[dst]
			if !ok {
				continue
			}
			rm := routeModel{Gateway: types.StringNull(), Interface: tr.Interface, Metric: tr.Metric}
			if have.Gateway != "" {
				rm.Gateway = types.StringValue(have.Gateway)
			}
			if !tr.Interface.IsNull() || (adopting && have.Gateway == "") {
				rm.Interface = types.StringValue(have.Interface)
			}
			metric := int64(0)
			if have.Metric != nil {
				metric = int64(*have.Metric)
			}
			if !tr.Metric.IsNull() || (adopting && metric != 0) {
				rm.Metric = types.Int64Value(metric)
			}
			m.StaticRoutes[dst] = rm
		}
	}
	if t.DHCPServers != nil {
		m.DHCPServers = map[string]dhcpModel{}
		for name, td := range t.DHCPServers {
			have, ok := st.DHCPServers[name]
			if !ok {
				continue // deleted by hand: planned as added again
			}
			dm := dhcpModel{
				Subnet: types.StringValue(have.Subnet), RangeStart: types.StringValue(have.Start), RangeStop: types.StringValue(have.Stop),
				DefaultRouter: stringOrNull(have.DefaultRouter), DNSServers: have.DNSServers, Authoritative: types.BoolValue(have.Authoritative),
			}
			if len(have.DNSServers) == 0 && td.DNSServers != nil {
				dm.DNSServers = []string{}
			}
			m.DHCPServers[name] = dm
		}
	}
	if !t.IPForwarding.IsNull() {
		m.IPForwarding = types.BoolValue(st.IPv4Forwarding)
	}
	if !t.IPv6Forwarding.IsNull() {
		m.IPv6Forwarding = types.BoolValue(st.IPv6Forwarding)
	}
	if !t.ConnectionTracking.IsNull() {
		m.ConnectionTracking = types.BoolValue(st.ConnectionTracking)
	}
	m.Model = types.StringValue(snap.Facts.Model)
	m.Firmware = types.StringValue(snap.Facts.Firmware)
	m.Serial = types.StringValue(snap.Facts.Serial)
	m.CPUCount = types.Int64Value(int64(snap.Facts.CPUCount))
	m.ConfigSHA256 = types.StringValue(snap.SHA256)
	return m
}

// adoptTemplate marks every key as managed for the first Read after import:
// the interfaces named in the import ID (or all but the loopback and the
// session's), and every route carrying routerlab's tag. An empty
// description is adopted as unset (null), which is what Terraform's
// generated configuration writes for it, so the import plans empty.
func adoptTemplate(m routerModel, names []string, st device.RouterState, session []string) routerModel {
	m.Hostname = types.StringValue("")
	m.IPForwarding = types.BoolValue(false)
	m.IPv6Forwarding = types.BoolValue(false)
	m.ConnectionTracking = types.BoolValue(false)
	if len(names) == 0 {
		for name := range st.Interfaces {
			if name != "lo" && !slices.Contains(session, name) {
				names = append(names, name)
			}
		}
	}
	m.Interfaces = map[string]interfaceModel{}
	for _, name := range names {
		description := types.StringNull()
		if have, ok := st.Interfaces[name]; ok && have.Description != "" {
			description = types.StringValue("")
		}
		m.Interfaces[name] = interfaceModel{Addresses: []string{}, MTU: types.Int64Value(0), Description: description}
	}
	m.StaticRoutes = map[string]routeModel{}
	for dst := range st.Routes {
		m.StaticRoutes[dst] = routeModel{Gateway: types.StringNull(), Interface: types.StringNull(), Metric: types.Int64Null()}
	}
	return m
}

// dropUnwritableInterfaces leaves out of an import the interfaces the
// platform's own rule refuses as a managed name, one warning each: what
// import stores, the next plan validates, and an adopted name the driver
// refuses would fail every plan. On RouterOS these are the internal ids
// (*3D) an export gives an address whose interface has no name (removed,
// or dynamic; community.routeros PR #391): the address stays as read, and
// nothing is offered to write to an interface RouterOS cannot name.
func dropUnwritableInterfaces(m routerModel, rs device.RouterSettings) (routerModel, []string) {
	var warnings []string
	for _, name := range device.SortedKeys(m.Interfaces) {
		err := rs.ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{name: {}}})
		if err == nil {
			continue
		}
		delete(m.Interfaces, name)
		warnings = append(warnings, fmt.Sprintf("interface %s is left out of the import: %s", name, err))
	}
	return m, warnings
}

// dropUnwritableRoutes leaves out of an import the routes the platform's
// rule refuses as routerlab would write them, one warning each, for the
// reason dropUnwritableInterfaces gives: an adopted route the validator
// refuses would fail every plan. On RTX these are the gateway forms
// routerlab reads whole but does not write (`gateway dhcp lan2`, a
// policy route `gateway pp 1 filter 600000 gateway tunnel 1`, several
// gateways, options): left unmanaged, so routerlab never touches them,
// and the warning says so.
func dropUnwritableRoutes(m routerModel, snap *device.Snapshot, rs device.RouterSettings) (routerModel, []string) {
	var warnings []string
	for _, dst := range device.SortedKeys(m.StaticRoutes) {
		one := routerModel{StaticRoutes: map[string]routeModel{dst: m.StaticRoutes[dst]}}
		adopted := toDevice(fromDevice(one, snap, true))
		err := rs.ValidateRouter(device.RouterConfig{Routes: adopted.Routes})
		if err == nil {
			continue
		}
		delete(m.StaticRoutes, dst)
		r := snap.Router.Routes[dst]
		via := r.Gateway
		if via == "" {
			via = r.Interface
		}
		warnings = append(warnings, fmt.Sprintf("route %s via %s is left out of the import and unmanaged (routerlab leaves it as it is on the router): %s", dst, device.Snippet(via), err))
	}
	return m, warnings
}

func int64Ptr(v types.Int64) *int {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	i := int(v.ValueInt64())
	return &i
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// restoreValues encodes the originals destroy puts back (restore_values).
func restoreValues(orig device.RouterConfig) (types.String, error) {
	b, err := json.Marshal(orig)
	if err != nil {
		return types.StringNull(), fmt.Errorf("encoding restore_values: %w", err)
	}
	return types.StringValue(string(b)), nil
}

// originals decodes restore_values; null (an imported router) is nothing
// to restore.
func (m routerModel) originals() (device.RouterConfig, error) {
	var orig device.RouterConfig
	if m.RestoreValues.IsNull() || m.RestoreValues.IsUnknown() || m.RestoreValues.ValueString() == "" {
		return orig, nil
	}
	if err := json.Unmarshal([]byte(m.RestoreValues.ValueString()), &orig); err != nil {
		return orig, fmt.Errorf("restore_values is not what routerlab wrote: %w", err)
	}
	return orig, nil
}

package routeros

import (
	"fmt"
	"regexp"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// RouterOS names. /system identity's name and an interface's name are free
// text on RouterOS, not host names:
//
//   - the Identity page (help.mikrotik.com/docs/spaces/ROS/pages/40992856/Identity)
//     documents name as a string (default "MikroTik") and nothing more;
//   - published exports set identities such as "Branch 27", "Box G-27",
//     "hAP lite", "MikroTik  Provedor" (two spaces) and
//     "1002075_FIDEICOMISO 1243/2017 TRESOR - MK3" (found with
//     find_string "/system identity\nset name=\"");
//   - andre4freelance/juniper-vpls RO-SITE-A.rsc (RouterOS 7.14.3) names a
//     VLAN `name="[VLAN100] - RO-SITE-B"` and puts an address on it
//     (`/ip address add ... interface="[VLAN100] - RO-SITE-B"`): spaces and
//     brackets, quoted, "[" literal inside the quotes;
//   - a RouterOS 7.20.1 CCR1072 export (find_string "interface=*", the one
//     with `interface=*1F21 name="VLAN2001 - COBUS BUCKLE"`) has dozens of
//     VLANs named "VLANnnnn - TEXT", addresses on them, and dynamic server
//     bindings named <l2tp-ADM-Charl>.
//
// What routerlab refuses is what the console cannot take as one inert
// value, or what would not be a name at all:
//
//   - control characters and NUL (device.ValidateAnyHostname's rule):
//     Quote would write them as \XX escapes, but no router in the exports
//     above has one, and a newline in an identity ends the console prompt's
//     line (assumption: refused rather than relied on);
//   - an internal id (*3D, *1F21): that is how RouterOS prints a reference
//     to an interface that has no name to print (community.routeros PR
//     #391: "missing interfaces on addresses are reported by the raw .id
//     ... The CLI represents this as *id (e.g. *23), and in WinBox the
//     interface name is shown as \"unknown\""; the CCR1072 export above
//     has `/interface list member add interface=*96` and a VLAN on
//     interface=*1F21). Written as a value it selects an item by id, not
//     a name, so it cannot be a managed interface's name;
//   - more than device.MaxNameBytes (assumption: RouterOS documents no
//     limit).

// internalID is a RouterOS internal item id as the console prints it:
// "*" and hex digits (*0, *3D, *FFFFFFFE in /ppp profile).
var internalID = regexp.MustCompile(`^\*[0-9A-Fa-f]+$`)

// IsInternalID reports whether v is an internal id (*3D), the form an
// export gives a reference to an interface that has no name.
func IsInternalID(v string) bool { return internalID.MatchString(v) }

// ValidateIdentity checks a /system identity name RouterOS accepts and the
// console can carry (see the rules above).
func ValidateIdentity(name string) error {
	return device.ValidateAnyHostname(name)
}

// ValidateInterfaceName checks an interface name RouterOS accepts and the
// console can carry (see the rules above).
func ValidateInterfaceName(name string) error {
	if err := device.ValidateAnyInterfaceName(name); err != nil {
		return err
	}
	if IsInternalID(name) {
		return fmt.Errorf("interface name %q is a RouterOS internal id, not a name: the export refers so to an interface that has no name (removed, or dynamic); routerlab manages interfaces by name", name)
	}
	return nil
}

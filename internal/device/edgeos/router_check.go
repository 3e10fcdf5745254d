package edgeos

import (
	"fmt"
	"slices"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// checkAddressesUnique refuses at plan an address routerlab_router would
// put on an interface while another interface carries it after the
// change: EdgeOS's commit refuses an address on two interfaces (Ubiquiti's
// vyatta-cfg fork, Lochnair/vyatta-cfg src/ubnt/interface/ubnt_interface.cpp,
// is_valid_addr_commit: "duplicate address" unless
// InterfaceT::is_uniq_address), so the apply would fail at commit. A
// factory EdgeRouter has its LAN address on eth0 (192.168.1.1/24): moving
// that LAN to another port with routerlab_router managing only the new
// port is the common way to meet it.
//
// An interface the resource manages keeps only its desired addresses
// (addresses are authoritative), so an address moved between two managed
// interfaces is no conflict. Addresses compare as the CIDR text the
// router prints (canonical on both sides).
func checkAddressesUnique(desired device.RouterConfig, observed device.RouterState) error {
	holders := map[string][]string{} // address → interfaces that hold it after the change
	for _, name := range device.SortedKeys(observed.Interfaces) {
		if ic, managed := desired.Interfaces[name]; managed && ic.Addresses != nil {
			continue
		}
		for _, a := range observed.Interfaces[name].Addresses {
			holders[a] = append(holders[a], name)
		}
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		for _, a := range desired.Interfaces[name].Addresses {
			others := slices.DeleteFunc(slices.Clone(holders[a]), func(h string) bool { return h == name })
			if len(others) > 0 {
				return fmt.Errorf("interfaces[%q].addresses: %s is already on %s, and EdgeOS refuses an address on two interfaces at commit; "+
					"remove it there (add %s to interfaces with the addresses it keeps) or choose another address",
					name, a, device.ListInterfaceNames(others), device.ListInterfaceNames(others[:1]))
			}
			holders[a] = append(holders[a], name)
		}
	}
	return nil
}

package linuxsim

import (
	"fmt"
	"strings"
)

// /sys/class/net: a directory per interface (with ifindex, mtu,
// operstate, address and type), made up from the interfaces when read,
// as sysfs is. Scripts glob it to list interfaces and test
// /sys/class/net/NAME to see whether one exists.
func (r *Router) sysNode(p string) (*fsNode, bool) {
	switch p {
	case "/sys/class", "/sys/class/net":
		return &fsNode{kind: kindDir, mode: 0o755}, true
	}
	rest, ok := strings.CutPrefix(p, "/sys/class/net/")
	if !ok {
		return nil, false
	}
	name, file, _ := strings.Cut(rest, "/")
	ifc, err := r.findIface(name)
	if err != nil {
		return nil, false
	}
	var data string
	switch file {
	case "":
		return &fsNode{kind: kindDir, mode: 0o755}, true
	case "ifindex":
		data = fmt.Sprint(ifc.index)
	case "mtu":
		data = fmt.Sprint(ifc.mtu)
	case "operstate":
		data = strings.ToLower(ifc.operstate())
	case "address":
		data = ifc.mac
	case "type":
		data = fmt.Sprint(ifc.arphrd())
	default:
		return nil, false
	}
	return &fsNode{kind: kindFile, mode: 0o444, data: []byte(data + "\n")}, true
}

func (r *Router) sysNames(dir string) []string {
	switch dir {
	case "/sys":
		return []string{"class"}
	case "/sys/class":
		return []string{"net"}
	case "/sys/class/net":
		var names []string
		for _, ifc := range r.ifaces {
			names = append(names, ifc.name)
		}
		return names
	}
	if name, ok := strings.CutPrefix(dir, "/sys/class/net/"); ok && !strings.Contains(name, "/") {
		if _, err := r.findIface(name); err == nil {
			return []string{"address", "ifindex", "mtu", "operstate", "type"}
		}
	}
	return nil
}

package rossim

// board is what a model reports about itself (`/system resource print`,
// `/system routerboard print`) and what it has (ports, switch chip,
// sensors). The figures follow MikroTik's product pages for each model.
type board struct {
	boardName    string // resource board-name
	arch         string // architecture-name
	cpu          string
	cpuCount     int
	cpuMHz       int
	totalMemory  string
	totalHDD     string
	ethernets    int
	routerboard  bool   // a RouterBOARD (CHR and x86 are not)
	firmwareType string // routerboard firmware-type
	hasSwitch    bool   // a switch chip: /interface ethernet switch
	l3hw         bool   // the switch chip offloads L3 (RouterOS v7)
	voltage      string // /system health input voltage, "" for none
	temperature  string

	// ports are the ethernet ports after ether1..N ("sfp-sfpplus1").
	ports []string
}

// boards are the models the seeds use; another model name gets the
// defaultBoard figures under its own name.
var boards = map[string]board{
	// hEX (seed 000): MT7621A, 4 threads, 256 MB; its MT7621 switch
	// chip has l3-hw-offloading in RouterOS 7 (assumption: MikroTik's L3
	// Hardware Offloading page lists supported chips in a table the
	// stored copies read here did not show; v7 defconf gives the hEX's
	// fasttrack rule hw-offload=yes, as the RB5009's).
	"RB750Gr3": {boardName: "hEX", arch: "mmips", cpu: "MIPS 1004Kc V2.15", cpuCount: 4, cpuMHz: 880,
		totalMemory: "256.0MiB", totalHDD: "16.0MiB", ethernets: 5, routerboard: true, firmwareType: "mt7621L",
		hasSwitch: true, l3hw: true, voltage: "24.1", temperature: "41"},
	// RB1100AHx4 (seed 003's RB1100 successor): Alpine AL21400, 4 cores.
	"RB1100AHx4": {boardName: "RB1100AHx4", arch: "arm", cpu: "ARMv7", cpuCount: 4, cpuMHz: 1400,
		totalMemory: "1024.0MiB", totalHDD: "128.0MiB", ethernets: 13, routerboard: true, firmwareType: "al2",
		hasSwitch: true, voltage: "12.1", temperature: "38"},
	// RB5009UG+S+IN: Marvell Armada 7040 (ARM64, 4 cores at 1400 MHz,
	// 1 GB), ether1 (2.5G) to ether8 and sfp-sfpplus1, all on a Marvell
	// 88E6393X switch chip (MikroTik's RB5009UG+S+IN product page), which
	// offloads L3 from RouterOS 7 (MikroTik's "L3 Hardware Offloading"
	// page, help.mikrotik.com/docs/display/ROS/L3+Hardware+Offloading).
	// Sold with RouterOS 7 only.
	"RB5009UG+S+IN": {boardName: "RB5009UG+S+", arch: "arm64", cpu: "ARM64", cpuCount: 4, cpuMHz: 1400,
		totalMemory: "1024.0MiB", totalHDD: "1024.0MiB", ethernets: 8, ports: []string{"sfp-sfpplus1"},
		routerboard: true, firmwareType: "7040", hasSwitch: true, l3hw: true, voltage: "24.2", temperature: "37"},
	// CHR (seed 002's PPPoE server): a virtual machine, no RouterBOARD,
	// no sensors, no switch chip.
	"CHR": {boardName: "CHR", arch: "x86_64", cpu: "Intel(R)", cpuCount: 2, cpuMHz: 2400,
		totalMemory: "512.0MiB", totalHDD: "128.0MiB", ethernets: 5},
	// CCR2116-12G-4S+: Annapurna Labs Alpine, 16 cores at 2 GHz, 16 GB
	// (its brochure), ether1..ether13 and four SFP+ cages (a 7.14.3 export
	// of one names ether13 and sfp-sfpplus4).
	// MikroTik's L3 Hardware Offloading page lists it under "L3HW Device
	// Support" (CCR2000: CCR2116-12G-4S+, 98DX3255, from 7.1):
	// help.mikrotik.com/docs/display/ROS/L3+Hardware+Offloading. Its
	// firmware type and sensor figures are assumptions.
	"CCR2116-12G-4S+": {boardName: "CCR2116-12G-4S+", arch: "arm64", cpu: "ARM64", cpuCount: 16, cpuMHz: 2000,
		totalMemory: "16.0GiB", totalHDD: "128.0MiB", ethernets: 13, routerboard: true, firmwareType: "al64v2",
		hasSwitch: true, l3hw: true, voltage: "24.2", temperature: "39",
		ports: []string{"sfp-sfpplus1", "sfp-sfpplus2", "sfp-sfpplus3", "sfp-sfpplus4"}},
	// CCR1036-8G-2S+: Tilera, 36 cores, with a power sensor.
	"CCR1036-8G-2S+": {boardName: "CCR1036-8G-2S+", arch: "tile", cpu: "tilegx", cpuCount: 36, cpuMHz: 1200,
		totalMemory: "4096.0MiB", totalHDD: "128.0MiB", ethernets: 8, routerboard: true, firmwareType: "tilegx",
		voltage: "24.2", temperature: "45"},
}

var defaultBoard = board{arch: "arm", cpu: "ARMv7", cpuCount: 4, cpuMHz: 1000, totalMemory: "256.0MiB",
	totalHDD: "16.0MiB", ethernets: 5, routerboard: true, firmwareType: "unknown", voltage: "24.0", temperature: "40"}

// The RB5009UG+S+IN reports itself as "RB5009UG+S+" (the model line of
// its exports, e.g. a published 7.2rc3 export, gist BertLamb); both names
// select it.
//
// The RB1100AHx4's exports print "# model = RB1100x4" (6.47-6.49 exports
// users published, found by searching for that line), so that name
// selects it too.
func init() {
	boards["RB5009UG+S+"] = boards["RB5009UG+S+IN"]
	boards["RB1100x4"] = boards["RB1100AHx4"]
}

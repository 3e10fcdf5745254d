// Command simctl starts and stops simulated routers for a user to try
// routerlab on without hardware (make sim-up, make sim-down).
//
//	simctl up   -state DIR [-routeros 7.20.1] [-provider BIN]
//	simctl down -state DIR
//	simctl show -state DIR NAME   (a simulator's configuration as it prints it)
//
// `up` starts one background process (`simctl serve`) holding every
// simulator on 127.0.0.1, waits until they listen, and prints how to reach
// them; it writes into DIR the process's PID, a Terraform CLI
// configuration pointing at the provider binary (-provider), and one
// variables file per seed example. `down` stops that process by the PID it
// recorded, and waits for it to be gone.
//
// What a simulator is and is not: an in-process model of a router's CLI,
// written from vendor references and published outputs (each simulator's
// testdata/README.md lists its sources and its assumptions). It parses,
// stores and prints configuration as the router does; it forwards no
// packet, runs no IKE and measures nothing. Its state lives in the serve
// process and is gone when it stops.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	state := fs.String("state", "/run/routerlab-sim", "directory for the PID file, the Terraform CLI configuration and the variables files")
	routerOS := fs.String("routeros", "7.20.1", "RouterOS version of the RB750Gr3 (6.x or 7.x)")
	provider := fs.String("provider", "", "the provider binary Terraform should use (dev_overrides); empty: none written")
	_ = fs.Parse(os.Args[2:])
	var err error
	switch os.Args[1] {
	case "up":
		err = up(*state, *routerOS, *provider)
	case "serve":
		err = serve(*state, *routerOS)
	case "down":
		err = down(*state)
	case "show":
		if fs.NArg() != 1 {
			usage()
		}
		err = show(*state, fs.Arg(0))
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "simctl:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: simctl up|down|show -state DIR [-routeros VERSION] [-provider BIN] [NAME]")
	os.Exit(2)
}

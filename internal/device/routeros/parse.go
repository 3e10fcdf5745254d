package routeros

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Resource is what `/system resource print` says about the CPU and the
// board (RouterOS v6 and v7 print the same "key: value" list).
type Resource struct {
	Version         string // "7.12.1 (stable)"
	BoardName       string // "hEX"
	CPU             string // "MIPS 1004Kc V2.15"
	Architecture    string // architecture-name: "mmips"
	CPUCount        int
	CPUFrequencyMHz int
	CPULoad         float64 // cpu-load: the figure Winbox and WebFig show
}

// ParseResource reads the output of RouterOS `/system resource
// print`, v6 or v7:
//
//	    cpu-count: 4
//	cpu-frequency: 880MHz
//	     cpu-load: 12%
//
// cpu-load is required; the other fields are filled when present.
func ParseResource(out string) (Resource, error) {
	var r Resource
	haveLoad := false
	for _, line := range device.Lines(out) {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "version":
			r.Version = val
		case "board-name":
			r.BoardName = val
		case "cpu":
			r.CPU = val
		case "architecture-name":
			r.Architecture = val
		case "cpu-count":
			n, err := strconv.Atoi(val)
			if err != nil {
				return r, fmt.Errorf("/system resource print: cpu-count %s is not a number", device.Snippet(val))
			}
			r.CPUCount = n
		case "cpu-frequency":
			// v6 and v7 print "880MHz"; some builds print a bare "1333".
			n, err := strconv.Atoi(strings.TrimSuffix(val, "MHz"))
			if err != nil {
				return r, fmt.Errorf("/system resource print: cpu-frequency %s is not a frequency in MHz", device.Snippet(val))
			}
			r.CPUFrequencyMHz = n
		case "cpu-load":
			p, err := parsePercent(val)
			if err != nil {
				return r, fmt.Errorf("/system resource print: cpu-load: %w", err)
			}
			r.CPULoad, haveLoad = p, true
		}
	}
	if !haveLoad {
		return r, fmt.Errorf("/system resource print: no cpu-load in output %s", device.Snippet(out))
	}
	return r, nil
}

// ParseCPU reads the per-core table of RouterOS `/system resource
// cpu print` (v7; v6 prints the same columns with wider spacing):
//
//	Columns: CPU, LOAD, IRQ, DISK
//	#  CPU   LOAD  IRQ  DISK
//	0  cpu0  12%   3%   0%
//
// CorePercent holds each row's LOAD; Percent is their mean (use cpu-load
// from `/system resource print` for the overall figure RouterOS itself
// shows).
func ParseCPU(out string) (device.CPUSample, error) {
	var r device.CPUSample
	loadCol := -1
	for _, line := range device.Lines(out) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if f[0] == "#" {
			for i, h := range f {
				if h == "LOAD" {
					loadCol = i
				}
			}
			continue
		}
		if _, err := strconv.Atoi(f[0]); err != nil {
			continue // "Columns: ..." and anything else that is not a row
		}
		var cell string
		if loadCol > 0 && loadCol < len(f) && strings.HasSuffix(f[loadCol], "%") {
			cell = f[loadCol]
		} else {
			// Without a usable header, LOAD is the first percentage.
			for _, x := range f[1:] {
				if strings.HasSuffix(x, "%") {
					cell = x
					break
				}
			}
		}
		if cell == "" {
			return r, fmt.Errorf("/system resource cpu print: no LOAD in row %s", device.Snippet(line))
		}
		p, err := parsePercent(cell)
		if err != nil {
			return r, fmt.Errorf("/system resource cpu print: row %s: %w", device.Snippet(line), err)
		}
		r.CorePercent = append(r.CorePercent, p)
	}
	if len(r.CorePercent) == 0 {
		return r, fmt.Errorf("/system resource cpu print: no CPU rows in output %s", device.Snippet(out))
	}
	sum := 0.0
	for _, c := range r.CorePercent {
		sum += c
	}
	r.Percent = sum / float64(len(r.CorePercent))
	return r, nil
}

// parsePercent reads a load: "12%" (or "12"), 0 to 100. What the device
// prints is not trusted: NaN, Inf and figures over 100 % are refused (one
// of them would spoil every average it enters).
func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 100 {
		return 0, fmt.Errorf("%s is not a percentage (a load from 0 to 100)", device.Snippet(s))
	}
	return v, nil
}

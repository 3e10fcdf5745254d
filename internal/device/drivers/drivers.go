// Package drivers is the platform registry: the only place that knows every
// platform package, and the only switch on platform values in the tree.
package drivers

import (
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
)

// Dialect is what platform p's CLI needs from the command path. It is
// known before any driver exists, because the transport is built first.
func Dialect(p device.Platform) command.Dialect {
	switch p {
	case device.Linux, device.EdgeOS, device.VyOS:
		// A POSIX shell (EdgeOS and VyOS are Debian underneath): started commands
		// can be killed by process group.
		return command.Dialect{POSIXShell: true}
	case device.RouterOS:
		// "+cet1024w": no colours, no terminal detection, 1024 columns,
		// so that prints and exports are not wrapped for a terminal.
		return command.Dialect{LoginSuffix: "+cet1024w"}
	case device.RTX:
		// An interactive console only: administrator mode, lines typed
		// at the prompt, Shift_JIS output on Japanese firmware.
		return command.Dialect{Console: rtx.Console(), Decode: rtx.Decode}
	}
	return command.Dialect{}
}

// New returns the driver for platform p over transport t. Every known
// platform has one; what a driver cannot do yet (configure RouterOS, say)
// is a missing capability, reported by device.Capability where it is asked
// for, or an ErrUnsupported from Snapshot.
func New(p device.Platform, t command.Runner) (device.Driver, error) {
	switch p {
	case device.Linux:
		return linux.New(t), nil
	case device.RouterOS:
		return routeros.New(t), nil
	case device.EdgeOS:
		return edgeos.New(t), nil
	case device.VyOS:
		return edgeos.NewVyOS(t), nil
	case device.RTX:
		return rtx.New(t), nil
	default:
		return nil, fmt.Errorf("unknown platform %q: known platforms are %v", p, device.Platforms())
	}
}

// ConfigParser returns platform p's offline configuration reader, or an
// error naming the platforms that have one (Linux has no single
// configuration text: its driver reads files, nft and ip output).
func ConfigParser(p device.Platform) (device.ConfigParser, error) {
	switch p {
	case device.RouterOS:
		return routeros.ParseConfig, nil
	case device.EdgeOS:
		return edgeos.ParseConfig, nil
	case device.VyOS:
		return edgeos.ParseVyOSConfig, nil
	case device.RTX:
		return rtx.ParseConfig, nil
	}
	if p == device.Linux {
		return nil, fmt.Errorf("platform %q has no one configuration text to read (its driver reads files, nft and ip output); %s", p, ConfigPlatformsText())
	}
	return nil, fmt.Errorf("unknown platform %q; %s", p, ConfigPlatformsText())
}

// ConfigPlatforms are the platforms ConfigParser knows, with the command
// whose output each reads.
func ConfigPlatforms() map[string]string {
	return map[string]string{
		string(device.RouterOS): "/export",
		string(device.EdgeOS):   "show configuration commands",
		string(device.VyOS):     "show configuration commands",
		string(device.RTX):      "show config",
	}
}

// ConfigPlatformsText lists them for messages.
func ConfigPlatformsText() string {
	m := ConfigPlatforms()
	s := "the platforms parse_config reads are:"
	for _, p := range device.SortedKeys(m) {
		s += fmt.Sprintf(" %s (the output of `%s`);", p, m[p])
	}
	return s[:len(s)-1]
}

// TranscriptRedactor returns platform p's redaction of console text for
// a transcript (internal/command/transcript), or nil where the platform
// has none yet: its sessions are then not recorded, since a transcript
// must never hold a secret. RTX commands and answers are configuration
// lines alike, redacted line by line as its parser redacts them; RouterOS
// scripts and exports are CLI text alike, every secret attribute's value
// and script body redacted; EdgeOS and VyOS change scripts travel on
// stdin, which a transcript never keeps, and their answers are redacted
// line by line by the configuration's secret leaves; Linux scripts that
// carry a secret travel on stdin too, and no read prints one back (the
// redactor only catches what looks like a secret assignment).
func TranscriptRedactor(p device.Platform) func(string) string {
	switch p {
	case device.RTX:
		return rtx.RedactTranscript
	case device.RouterOS:
		return routeros.RedactTranscript
	case device.EdgeOS, device.VyOS:
		return edgeos.RedactTranscript
	case device.Linux:
		return linux.RedactTranscript
	}
	return nil
}

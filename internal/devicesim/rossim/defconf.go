package rossim

import (
	_ "embed"
	"fmt"
)

// The default configurations MikroTik ships ("defconf"), each written as
// the `/export` the router prints right after a reset with its defaults
// (testdata/README.md says what each follows and what is assumed).
var (
	//go:embed testdata/defconf_v6_hex.rsc
	defconfV6Hex string
	//go:embed testdata/defconf_v7_hex.rsc
	defconfV7Hex string
	//go:embed testdata/defconf_v7_rb5009.rsc
	defconfV7RB5009 string
	//go:embed testdata/defconf_rb1100ahx4.rsc
	defconfRB1100 string
)

// Defconf is the export of the default configuration MikroTik ships for
// model on version ("" when the board ships none, as a CHR), before the
// version adjustments loadDefconf makes.
func Defconf(model, version string) (string, error) {
	major := version
	if len(version) > 0 {
		major = version[:1]
	}
	switch {
	case model == "RB750Gr3" && major == "6":
		return defconfV6Hex, nil
	case model == "RB750Gr3" && major == "7":
		return defconfV7Hex, nil
	case (model == "RB5009UG+S+IN" || model == "RB5009UG+S+") && major == "7":
		return defconfV7RB5009, nil
	case model == "RB5009UG+S+IN" || model == "RB5009UG+S+":
		return "", fmt.Errorf("rossim: the RB5009 runs RouterOS 7 only, not %s", version)
	case model == "RB1100AHx4":
		return defconfRB1100, nil
	case model == "CHR":
		return "", nil
	}
	return "", fmt.Errorf("rossim: no default configuration known for %s on %s", model, version)
}

// loadDefconf loads the board's default configuration.
func (s *Sim) loadDefconf() error {
	text, err := Defconf(s.model, s.version)
	if err != nil || text == "" {
		return err
	}
	if err := s.load(text); err != nil {
		return err
	}
	if s.major == 7 && s.minor < 13 {
		// port-cost-mode came with RouterOS 7.13 (assumption: the
		// 7.12.2 defconf export, pastebin eX6RUWhU, has no
		// port-cost-mode=short on its bridge, the 7.16.1 one,
		// pastebin Uc8mNVX6, has); before, the bridge has no such
		// attribute.
		if t := s.tables["/interface bridge"]; t != nil {
			for _, it := range t.items {
				if li := s.loaded[it]; li != nil && it.vals["port-cost-mode"] != "" {
					delete(it.vals, "port-cost-mode")
					delete(li.pinned, "port-cost-mode")
					li.snapshot, li.src.lines = nil, nil
				}
			}
		}
	}
	return nil
}

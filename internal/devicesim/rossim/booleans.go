package rossim

// SetExportBooleans chooses how exports print yes/no attributes and the
// default items' "[ find default=yes ]": "yes/no" (what a new Sim does) or
// "true/false".
//
// Which RouterOS exports print true/false is not a matter of version.
// Published exports print "disabled=false", "[ find default=true ]",
// "enabled=true", "allow-remote-requests=true" under RouterOS
// 6.30, 6.43.4, 6.47.9 and 7.12.1 (RB3011, RB941, hEX files in public
// repositories; the 7.12.1 router writes its export with `/export file=`
// from a script), while exports of 7.11, 7.11.2, 7.14.3, 7.16, 7.17.2,
// 7.18.2, 7.19.3, 7.19.4 and 7.20beta4 print yes/no. What makes a router
// print one or the other is not known (assumption: the console's /export
// over SSH prints yes/no on every version of Matrix), so the simulator
// prints yes/no unless a test asks for true/false; enumerations whose
// values are yes/no (use-encryption, authoritative) print yes/no either
// way, as the 6.30 file shows. The console reads both words in any
// version, in arguments and in find (assumption: an export in either
// style is a script meant to be run again).
func (s *Sim) SetExportBooleans(style string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch style {
	case "yes/no":
		s.trueFalse = false
	case "true/false":
		s.trueFalse = true
	default:
		panic("rossim: SetExportBooleans wants \"yes/no\" or \"true/false\", not " + style)
	}
}

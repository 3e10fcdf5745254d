package device

// ParsedConfig is what routerlab reads from a configuration text offline
// (provider::routerlab::parse_config): the snapshot the platform's driver
// would build from the same configuration read from the device, and what
// the reading tolerated.
type ParsedConfig struct {
	// Snapshot has Facts (where the text says them), every resource
	// section, Text and SHA256 exactly as the driver's Snapshot fills them
	// from this configuration; Status is empty (a text has no state).
	Snapshot *Snapshot
	// Warnings are what was tolerated or skipped, one line each: sections
	// routerlab does not manage, lines it could not read. Never a secret.
	Warnings []string
}

// ConfigParser is a platform's offline reader of its configuration text:
// the exact code its driver's Snapshot uses for the configuration part
// (the driver calls it too), with the version given where the text does
// not carry one ("" when unknown; the text's own version wins).
type ConfigParser func(text, version string) (ParsedConfig, error)

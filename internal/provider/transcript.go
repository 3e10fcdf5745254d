package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
)

// Transcripts (issue 24): with ROUTERLAB_TRANSCRIPT_DIR set, every device
// session a driver runs is recorded there, one JSON-lines file per device
// and provider process (internal/command/transcript documents the
// format), secrets redacted. ROUTERLAB_TRANSCRIPT_SOURCE=simulated labels
// a recording of a simulator as such; the default is "device".
const (
	transcriptDirEnv    = "ROUTERLAB_TRANSCRIPT_DIR"
	transcriptSourceEnv = "ROUTERLAB_TRANSCRIPT_SOURCE"
)

// recordTranscript wraps r in a transcript recorder when the environment
// asks for one. It returns r itself, and a warning, for a platform without
// a redactor: a transcript never holds a secret. secrets are the device's
// own credentials, scrubbed from every string besides the platform's
// redaction.
func recordTranscript(name string, p device.Platform, r command.Runner, secrets []string) (command.Runner, string, error) {
	dir := os.Getenv(transcriptDirEnv)
	if dir == "" {
		return r, "", nil
	}
	platformRedact := drivers.TranscriptRedactor(p)
	if platformRedact == nil {
		return r, fmt.Sprintf("device %q: %s is set, but routerlab cannot yet redact %s sessions, so none is recorded (a transcript never holds a secret)", name, transcriptDirEnv, p), nil
	}
	source := transcript.SourceDevice
	if os.Getenv(transcriptSourceEnv) == transcript.SourceSimulated {
		source = transcript.SourceSimulated
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("%s: %w", transcriptDirEnv, err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s-%d.jsonl", name, time.Now().UTC().Format("20060102T150405.000000000Z"), os.Getpid()))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", transcriptDirEnv, err)
	}
	var pairs []string
	for _, s := range secrets {
		if s != "" {
			pairs = append(pairs, s, "<redacted>")
		}
	}
	scrub := strings.NewReplacer(pairs...)
	redact := func(s string) string { return platformRedact(scrub.Replace(s)) }
	// The file is written a record at a time and closed with the process.
	return transcript.NewRecorder(r, f, source, redact), "", nil
}

package edgeos

import (
	"context"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// What a killed change leaves on the router (script.go): its session
// directory, its files under /config (the saved configuration from
// before it, the journal and its replacement) and the `.routerlab-old`
// copies of the files it was replacing. A snapshot reports them as a
// warning, so that a plan after a killed apply says what was left and
// that the next apply puts it right; they never reach Text or the
// digest, so state and plan compare configurations only.

// leftoverFiles are the change's own files, in the order a warning names
// them (the journal itself is read apart).
var leftoverFiles = []string{BeforePath, AfterPath, JournalPath + ".new", FinishPath}

// leftoversScript is the snapshot's section "leftovers": "session" for an
// open routerlab session, "file PATH" for each file of leftoverFiles
// there, and the journal's text after a "journal" section line (its
// header names its kind and files; it holds no secret).
func leftoversScript() string {
	s := "echo '##leftovers'\n[ ! -d " + SessionDir + " ] || echo session\n"
	for _, f := range leftoverFiles {
		s += "[ ! -e " + f + " ] || echo 'file " + f + "'\n"
	}
	return s + "[ ! -e " + JournalPath + " ] || { echo '##journal'; cat " + JournalPath + "; }\n"
}

// leftBehind is what a killed change left, read from the snapshot.
type leftBehind struct {
	session bool
	files   []string // routerlab's own files, the journal first
	kind    string   // the journal's: journalUndo, journalFinish, "" (none)
	writes  []string // the files the journal names
	old     []string // their `.routerlab-old` copies that are there
}

// parseLeftovers reads the "leftovers" and "journal" sections.
func parseLeftovers(sec map[string]string) leftBehind {
	var l leftBehind
	journal, hasJournal := sec["journal"]
	if hasJournal {
		l.files = append(l.files, JournalPath)
		l.kind = "unknown"
	}
	for _, line := range device.Lines(sec["leftovers"]) {
		if line == "session" {
			l.session = true
		} else if f, ok := strings.CutPrefix(line, "file "); ok {
			l.files = append(l.files, f)
		}
	}
	for _, line := range device.Lines(journal) {
		if k, ok := strings.CutPrefix(line, journalKind); ok {
			l.kind = k
		} else if f, ok := strings.CutPrefix(line, journalFile); ok && plainPath(f) {
			l.writes = append(l.writes, f)
		}
	}
	return l
}

// oldCopiesScript prints each `.routerlab-old` copy of files that is there.
func oldCopiesScript(files []string) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "[ ! -e %[1]s%[2]s ] || echo %[1]s%[2]s\n", f, oldSuffix)
	}
	return b.String()
}

// readOldCopies asks the router which old copies of the journal's files
// are there: a second exec, run only when a journal was found.
func (d *Driver) readOldCopies(ctx context.Context, l *leftBehind) error {
	if len(l.writes) == 0 {
		return nil
	}
	res, err := d.t.Run(ctx, oldCopiesScript(l.writes))
	if err != nil {
		return fmt.Errorf("reading what an interrupted change left: %w", err)
	}
	if res.ExitStatus != 0 {
		return device.CommandError("reading what an interrupted change left", res)
	}
	for _, f := range device.Lines(res.Stdout) {
		if f = strings.TrimSpace(f); f != "" {
			l.old = append(l.old, f)
		}
	}
	return nil
}

// warning is the snapshot's warning of l, "" when nothing was left.
func (l leftBehind) warning() string {
	var left []string
	if l.session {
		left = append(left, "the open configuration session "+SessionDir)
	}
	left = append(left, l.files...)
	left = append(left, l.old...)
	if len(left) == 0 {
		return ""
	}
	head := "an earlier routerlab change on this router was interrupted (killed by a timeout or Ctrl-C, unless another routerlab run is changing the router right now) and left: " + strings.Join(left, ", ") + ". "
	switch l.kind {
	case "":
		return head + "It was cut off before it changed anything; the next apply removes what it left."
	case journalFinish:
		return head + "Its commit had gone through: the router runs that change, not yet saved (a reboot would lose it). " +
			"The next apply first finishes it (saves the configuration, removes the old copies), then applies."
	}
	back := "the configuration from before that change"
	if len(l.writes) > 0 {
		back = "the files it was writing (" + strings.Join(l.writes, ", ") + ") and " + back
	}
	return head + "Its commit had not completed: until the next apply the router may run part of that change (unsaved), and this plan is computed from what it runs now. " +
		"The next apply first puts back " + back + "; " +
		"if that changes what the router runs, the apply stops there and asks to be run once more."
}

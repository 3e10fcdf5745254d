package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteRendered archives renderings made elsewhere, as WriteArchive does,
// but only with run.json among them and only plain file names.
func TestWriteRendered(t *testing.T) {
	dir := t.TempDir()
	const id = "20261130T021500Z-1a2b3c4d"
	if _, err := WriteRendered(dir, id, []File{{ResultsMDFile, []byte("x")}}); err == nil || !strings.Contains(err.Error(), "no run.json") {
		t.Errorf("without run.json: %v", err)
	}
	if _, err := WriteRendered(dir, id, []File{{RunJSONFile, []byte("{}")}, {"../x", nil}}); err == nil {
		t.Error("a file name with a separator was accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, id)); !os.IsNotExist(err) {
		t.Errorf("refused writes left %s: %v", id, err)
	}
	paths, err := WriteRendered(dir, id, []File{{RunJSONFile, []byte("{}")}, {ResultsMDFile, []byte("# x")}})
	if err != nil || len(paths) != 2 || filepath.Base(paths[1]) != ResultsMDFile {
		t.Fatalf("WriteRendered = %v, %v", paths, err)
	}
	if _, err := WriteRendered(dir, id, []File{{RunJSONFile, []byte("{}")}}); err == nil || !strings.Contains(err.Error(), ErrRunExists.Error()) {
		t.Errorf("second write: %v", err)
	}
}

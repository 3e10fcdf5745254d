package linux

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// The "##kernel" section sets BootID and SharedKernel by the form of its
// lines; a capture without it (snapshot_router.txt predates it) sets
// neither.
func TestParseSnapshotKernel(t *testing.T) {
	const id = "5f0d3c2e-8b1a-4c6f-9e7d-2a4b6c8d0e1f"
	base := readFixture(t, "snapshot_router.txt")
	for _, tc := range []struct {
		name, section    string
		bootID, shareErr string
	}{
		{"absent", "", "", ""},
		{"shared", "##kernel\n" + id + "\nnetns-shared\n", id, SharedNetns},
		{"own", "##kernel\n" + id + "\nnetns-own\n", id, ""},
		// Not root: /proc/1/ns cannot be read; nothing is claimed.
		{"unknown", "##kernel\n" + id + "\nnetns-unknown\n", id, ""},
		// No boot id (the cat failed): the empty line is trimmed away
		// with the section, and the netns line is still read.
		{"no boot id", "##kernel\n\nnetns-shared\n", "", SharedNetns},
		{"not a boot id", "##kernel\nnetns-shared but not quite\n5F0D3C2E-8B1A\n", "", ""},
	} {
		snap, err := ParseSnapshot(base + tc.section)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if snap.Facts.BootID != tc.bootID || snap.Facts.SharedKernel != tc.shareErr {
			t.Errorf("%s: BootID %q SharedKernel %q; want %q, %q", tc.name, snap.Facts.BootID, snap.Facts.SharedKernel, tc.bootID, tc.shareErr)
		}
	}
}

// kernelScript run by dash on this machine: in the test's own network
// namespace it reports what os.SameFile says of PID 1's, PID 2's and its
// own network namespace, and in a new network namespace (unshare -n, the
// host's PID namespace, as routerlab's lab routers run) it says shared;
// the boot id is this kernel's either way.
func TestKernelScriptLocal(t *testing.T) {
	testenv.RequireRoot(t, "reading /proc/1/ns/net and unshare -n")
	testenv.RequireCommand(t, "unshare", "apt-get install util-linux")
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		t.Fatal(err)
	}
	bootID := strings.TrimSpace(string(b))
	// What this namespace is, by os.SameFile: shared when it is not PID 1's
	// or PID 2's (whichever this sandbox lets root read), own when it is.
	self, err := os.Stat("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	wantHere := "netns-unknown"
	for _, p := range []string{"/proc/1/ns/net", "/proc/2/ns/net"} {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
		case !os.SameFile(fi, self):
			wantHere = "netns-shared"
		case wantHere != "netns-shared":
			wantHere = "netns-own"
		}
	}
	if wantHere == "netns-unknown" {
		t.Fatal("root can read neither /proc/1/ns/net nor /proc/2/ns/net: nothing to compare the script with")
	}
	for _, tc := range []struct {
		name string
		argv []string
		want string
	}{
		{"this namespace", []string{"sh", "-c", snapshotFuncs + kernelScript}, wantHere},
		{"a new network namespace", []string{"unshare", "--net", "--", "sh", "-c", snapshotFuncs + kernelScript}, "netns-shared"},
	} {
		out, err := exec.Command(tc.argv[0], tc.argv[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, out)
		}
		want := "##kernel\n" + bootID + "\n" + tc.want + "\n"
		if string(out) != want {
			t.Errorf("%s: kernelScript printed\n%s\nwant\n%s", tc.name, out, want)
		}
	}
}

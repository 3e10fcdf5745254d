package provider

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
)

// Issue 24 point 2: with ROUTERLAB_TRANSCRIPT_DIR set, every session the
// RTX driver runs is recorded there, labelled as asked, without a secret.
func TestAccRTX_transcript(t *testing.T) {
	// Not parallel: t.Setenv points the in-process provider of every test at
	// its transcript directory.
	requireAcc(t)
	simOnly(t, "rtx", "compare with the answers of a simulator in this process (the replay)")
	dir := t.TempDir()
	t.Setenv(transcriptDirEnv, dir)
	t.Setenv(transcriptSourceEnv, transcript.SourceSimulated)
	sim, dev := startRTXSim(t, rtxSeedBase)
	recorded := func(*terraform.State) error {
		files, _ := filepath.Glob(filepath.Join(dir, "rtx810-*.jsonl"))
		if len(files) == 0 {
			t.Fatalf("no transcript in %s", dir)
		}
		var all []transcript.Record
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{rtxSimAdminPassword, dev.Password, "lab-psk-not-secret"} {
				if bytes.Contains(b, []byte(secret)) {
					t.Errorf("%s holds a secret", f)
				}
			}
			recs, err := transcript.Read(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, recs...)
		}
		typed := false
		for _, r := range all {
			if r.Source != transcript.SourceSimulated || r.Device != "rtx810" {
				t.Errorf("record %+v: want source simulated, device rtx810", r)
			}
			if r.Op == transcript.OpWrite && strings.Contains(r.Cmd, "ipsec ike pre-shared-key 1 text <redacted>") {
				typed = true
			}
		}
		if !typed {
			t.Errorf("no write with the redacted pre-shared key among %d records", len(all))
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             rtxConfigRestored(sim, sim.Config()),
		Steps: []resource.TestStep{{
			Config: rtxProvider(dev) + `
resource "routerlab_tunnel" "s2s" {
  device = "rtx810"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes256-sha256"]
    psk            = "lab-psk-not-secret"
    remote_address = "198.18.10.2"
    remote_subnets = ["198.18.200.0/24"]
  }
}
`,
			Check: recorded,
		}},
	})
}

package rtx

import (
	"slices"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The ledger cannot be read as a name: names hold no '+'.
func TestLedgerWord(t *testing.T) {
	for _, name := range []string{"s2s", "a-b_c", "x23456789012345"} {
		if err := device.ValidateObjectName(name); err != nil {
			t.Fatal(err)
		}
		w := ownerWord(name, []string{ledgerIPsecAutoRefresh, ledgerL2TPService})
		if len(w) > 64 {
			t.Errorf("%q is longer than a description may be (64)", w)
		}
		if QuoteWord(w) != w {
			t.Errorf("%q needs quoting", w)
		}
		got, ledger, ok := parseOwnerWord(w)
		if !ok || got != name || !slices.Equal(ledger, []string{ledgerIPsecAutoRefresh, ledgerL2TPService}) {
			t.Errorf("parseOwnerWord(%q) = %q %q %v", w, got, ledger, ok)
		}
	}
	if device.ValidateObjectName("a+b") == nil {
		t.Error("a tunnel name may hold '+': the ledger would be ambiguous")
	}
}

package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Private state keys.
//
// The values destroy restores are not kept here but in the computed
// attribute restore_values: Terraform drops a tainted object's private
// state when it plans the replacement, so a create that failed half-way
// could otherwise never be undone.
const (
	// privateAdopt marks a fresh import: the next Read adopts what the
	// device has instead of only what the configuration names.
	privateAdopt = "adopt"
)

// privateStore is the part of the framework's private state both request
// and response sides offer.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

func setPrivateJSON(ctx context.Context, p privateSetter, key string, v any) diag.Diagnostics {
	b, err := json.Marshal(v)
	if err != nil {
		var d diag.Diagnostics
		d.AddError("Unable to Save Private State", err.Error())
		return d
	}
	return p.SetKey(ctx, key, b)
}

func getPrivateJSON(ctx context.Context, p privateGetter, key string, v any) diag.Diagnostics {
	b, diags := p.GetKey(ctx, key)
	if diags.HasError() || len(b) == 0 {
		return diags
	}
	if err := json.Unmarshal(b, v); err != nil {
		diags.AddError("Unable to Load Private State", fmt.Sprintf("%s: %s", key, err))
	}
	return diags
}

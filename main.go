// Command terraform-provider-routerlab serves the routerlab Terraform
// provider over the plugin protocol version 6.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/routerlab/terraform-provider-routerlab/internal/provider"
)

// Generate the documentation: schema descriptions, templates/ and examples/
// become docs/ (run `make generate`).
//go:generate go run ./internal/device/cmd/supportdoc
//go:generate go tool tfplugindocs generate --provider-name routerlab

// version is set by goreleaser.
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/routerlab/routerlab",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}

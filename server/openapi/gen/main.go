// Command gen writes server/openapi/openapi.json, the OpenAPI document the
// server builds from its route table and Go types. Run it from the
// repository root: go run ./server/openapi/gen (or go generate ./server).
package main

import (
	"fmt"
	"os"

	"github.com/layerfix/layerfix/server"
)

func main() {
	out := "server/openapi/openapi.json"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	doc, err := server.OpenAPIDocument()
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(out, doc, 0o644); err != nil { //nolint:gosec // a committed source file, readable by all
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
}

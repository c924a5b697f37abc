package server

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestOpenAPICoversEveryRoute holds the OpenAPI document to the real
// router: every /api route has an operation and every operation a route,
// with {param} for :param. Catch-alls (the JSON 404 of /api/*) are not
// routes of the API.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	w := ts.do(t, "GET", "/api/openapi.json", "")
	if w.Code != 200 {
		t.Fatalf("/api/openapi.json: %d", w.Code)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	documented, public := map[string]bool{}, map[string]bool{}
	param := regexp.MustCompile(`\{([^}]+)\}`)
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			key := strings.ToUpper(method) + " " + param.ReplaceAllString(path, ":$1")
			documented[key] = true
			var o struct {
				Responses map[string]json.RawMessage `json:"responses"`
				Security  []map[string][]string      `json:"security"`
			}
			if json.Unmarshal(raw, &o) != nil || len(o.Responses) == 0 {
				t.Errorf("%s %s has no responses", method, path)
			}
			if len(o.Security) == 0 {
				public[key] = true
			}
		}
	}
	routed := map[string]bool{}
	for _, r := range ts.Server.e.Routes() {
		if !strings.HasPrefix(r.Path, "/api/") || strings.HasSuffix(r.Path, "*") || strings.HasPrefix(r.Method, "echo_") {
			continue
		}
		routed[r.Method+" "+r.Path] = true
	}
	missing, extra := keysOnlyIn(routed, documented), keysOnlyIn(documented, routed)
	if len(missing) > 0 {
		t.Errorf("routes without a document: %v", missing)
	}
	if len(extra) > 0 {
		t.Errorf("documented operations without a route: %v", extra)
	}
	// The document's public operations are exactly the table's public routes.
	publicAPI := map[string]bool{}
	for _, r := range routeTable(&handlers{}) {
		if r.Auth == authPublic || r.Auth == authWebhook {
			publicAPI[r.Method+" "+r.Path] = true
		}
	}
	for k := range publicAPI {
		if routed[k] && !public[k] {
			t.Errorf("%s needs no token but the document asks for one", k)
		}
	}
	for k := range public {
		if !publicAPI[k] {
			t.Errorf("%s needs a token but the document says it does not", k)
		}
	}
	if len(routed) < 30 {
		t.Fatalf("only %d routes found: the router walk is broken", len(routed))
	}
}

// TestOpenAPIDocumentIsCurrent: the committed document is the one the route
// table and the Go types make now; after changing either, run
// `go generate ./server`.
func TestOpenAPIDocumentIsCurrent(t *testing.T) {
	doc, err := OpenAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, openAPIDoc) {
		t.Fatal("server/openapi/openapi.json is stale: run `go generate ./server` and commit it")
	}
}

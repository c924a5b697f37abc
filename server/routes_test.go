package server

import (
	"sort"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestRoutesAllInTable: the router holds exactly the route table's entries
// that exist under the configuration, in every auth mode and with and
// without a base path: a route added outside the table fails here.
func TestRoutesAllInTable(t *testing.T) {
	for _, env := range []map[string]string{
		nil,
		{"LAYERFIX_BASE_PATH": "/lf", "LAYERFIX_METRICS": "on"},
	} {
		ts := newTestServer(t, env, nil)
		want := map[string]bool{}
		for _, r := range routeTable(&handlers{}) {
			if !r.exists(ts.cfg) {
				continue
			}
			path := r.Path
			if !r.Root {
				path = ts.cfg.BasePath + path
			}
			want[r.Method+" "+path] = true
		}
		got := map[string]bool{}
		for _, r := range ts.Server.e.Routes() {
			key := r.Method + " " + r.Path
			if want[anyMethod+" "+r.Path] && r.Method != echo.RouteNotFound {
				key = anyMethod + " " + r.Path
			}
			got[key] = true
		}
		extra, missing := keysOnlyIn(got, want), keysOnlyIn(want, got)
		if len(extra) > 0 {
			t.Errorf("base path %q: routes registered outside the table: %v", ts.cfg.BasePath, extra)
		}
		if len(missing) > 0 {
			t.Errorf("base path %q: table routes not registered: %v", ts.cfg.BasePath, missing)
		}
		if len(got) < 50 {
			t.Fatalf("only %d routes: the router walk is broken", len(got))
		}
	}
}

// TestRouteAuthFromTable: a route the table marks for users answers 401
// without a token, every public one does not.
func TestRouteAuthFromTable(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	for _, r := range routeTable(&handlers{}) {
		if r.Auth == authNone || r.Method == anyMethod || r.Method == echo.RouteNotFound || !r.exists(ts.cfg) {
			continue
		}
		path := strings.NewReplacer(":shareId", "x", ":name", "x", ":id", "1", ":n", "0").Replace(r.Path)
		w := ts.do(t, r.Method, path, "")
		if (w.Code == 401) != (r.Auth == authUser) {
			t.Errorf("%s %s (auth %d) without a token: %d", r.Method, r.Path, r.Auth, w.Code)
		}
	}
}

// keysOnlyIn is the keys of a that b lacks, sorted.
func keysOnlyIn(a, b map[string]bool) []string {
	var only []string
	for k := range a {
		if !b[k] {
			only = append(only, k)
		}
	}
	sort.Strings(only)
	return only
}

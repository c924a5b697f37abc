package server

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

func shareBody(t *testing.T, data any) string {
	return mustJSON(t, map[string]any{"title": "Stringing on my Ender", "troubleshootingData": data})
}

// signed adds the server's signature to a share body, as the app does with
// the result the server gave it.
func signed(t *testing.T, ts *testServer, data any) string {
	t.Helper()
	var res ai.Result
	json.Unmarshal([]byte(mustJSON(t, data)), &res)
	sig, err := ts.signer.sign(t.Context(), &res)
	if err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, map[string]any{"title": "Stringing on my Ender", "troubleshootingData": data, "signature": sig})
}

var goodResult = map[string]any{
	"summary": "Stringing from low retraction",
	"steps": []map[string]string{
		{"title": "Increase retraction", "description": "Go to 5 mm", "priority": "high"},
		{"title": "Dry the filament", "description": "50 °C for 6 h", "priority": "medium"},
	},
	"additionalTips": []string{"Store filament dry"},
	"owner":          "maker@example.com",
	// Not signed: which engine answered stays with the maker.
	"engine": "openai", "model": "Visit evil.example", "fallbackFrom": "gemini",
}

func TestShareRoundTrip(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	w := ts.do(t, "POST", "/api/share-results", signed(t, ts, goodResult))
	if w.Code != 201 {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	var created struct{ ShareID string }
	json.Unmarshal(w.Body.Bytes(), &created)
	if len(created.ShareID) < 22 || !shareIDPattern.MatchString(created.ShareID) {
		t.Fatalf("share id %q is not 128+ random bits", created.ShareID)
	}
	g := ts.do(t, "GET", "/api/share/"+created.ShareID, "")
	if g.Code != 200 || g.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("get: %d %v", g.Code, g.Header())
	}
	if strings.Contains(g.Body.String(), "maker@example.com") || strings.Contains(g.Body.String(), "evil.example") ||
		strings.Contains(g.Body.String(), `"engine"`) || !strings.Contains(g.Body.String(), "Dry the filament") {
		t.Fatalf("shared body %s", g.Body.String())
	}
	if p := ts.do(t, "GET", "/share/"+created.ShareID, ""); p.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Fatal("shared page without no-referrer")
	}
	for _, id := range []string{"AAAAAAAAAAAAAAAAAAAAAA", "short", "has%20space-aaaaaaaaaaaaaaa", strings.Repeat("a", 65)} {
		if w := ts.do(t, "GET", "/api/share/"+id, ""); w.Code != 404 {
			t.Errorf("GET share %q: %d", id, w.Code)
		}
	}
	// A second share gets a different id.
	w2 := ts.do(t, "POST", "/api/share-results", signed(t, ts, goodResult))
	if strings.Contains(w2.Body.String(), created.ShareID) {
		t.Fatal("share ids repeat")
	}
}

func TestShareValidation(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	bad := map[string]any{
		"missing":        nil,
		"string":         "hello",
		"no summary":     map[string]any{"summary": "", "steps": goodResult["steps"], "additionalTips": []string{}},
		"bad priority":   map[string]any{"summary": "s", "steps": []map[string]string{{"title": "t", "description": "d", "priority": "urgent"}}, "additionalTips": []string{}},
		"empty title":    map[string]any{"summary": "s", "steps": []map[string]string{{"title": " ", "description": "d", "priority": "low"}}, "additionalTips": []string{}},
		"huge summary":   map[string]any{"summary": strings.Repeat("x", 5000), "steps": goodResult["steps"], "additionalTips": []string{}},
		"too many steps": map[string]any{"summary": "s", "steps": make([]map[string]string, 30), "additionalTips": []string{}},
	}
	for name, data := range bad {
		w := ts.do(t, "POST", "/api/share-results", shareBody(t, data))
		if w.Code != 400 {
			t.Errorf("%s: %d %s", name, w.Code, w.Body.String())
			continue
		}
		if e := decodeError(t, w); e.Fields["troubleshootingData"] == "" {
			t.Errorf("%s: fields %v", name, e.Fields)
		}
	}
}

func TestShareRateLimit(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_SHARE_RATE": "2"}, nil)
	for i := 0; i < 2; i++ {
		if w := ts.do(t, "POST", "/api/share-results", signed(t, ts, goodResult)); w.Code != 201 {
			t.Fatalf("share %d: %d", i, w.Code)
		}
	}
	w := ts.do(t, "POST", "/api/share-results", signed(t, ts, goodResult))
	if w.Code != 429 || decodeError(t, w).Code != CodeRateLimited {
		t.Fatalf("third share: %d", w.Code)
	}
	if w := ts.do(t, "POST", "/api/share-results", signed(t, ts, goodResult), "RemoteAddr", "192.0.2.77:1"); w.Code != 201 {
		t.Fatalf("another IP: %d", w.Code)
	}
}

func TestShareScrubsOwnerDetails(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	s := signup(t, ts, "ada@example.com", "spaghetti-monster")
	w := ts.do(t, "POST", "/api/printers", `{"name":"Workshop Beast","brand":"Creality Ender 3 V2","nozzleSize":0.4}`, bearer(s.Token)...)
	if w.Code != 201 && w.Code != 200 {
		t.Fatalf("add printer: %d %s", w.Code, w.Body.String())
	}
	data := map[string]any{
		"summary":        "Ada Lovelace, your Workshop Beast (a creality ender 3 v2) strings; ask ADA@Example.COM or aDa",
		"steps":          []map[string]string{{"title": "Tune the Creality Ender 3 V2 retraction", "description": "Email ada@example.com, wOrKsHoP bEaSt is loud", "priority": "high"}},
		"additionalTips": []string{"WORKSHOP BEAST likes dry filament", "Lovelace printed it"},
	}
	var res ai.Result
	json.Unmarshal([]byte(mustJSON(t, data)), &res)
	sig, _ := ts.signer.sign(t.Context(), &res)
	w = ts.do(t, "POST", "/api/share-results", mustJSON(t, map[string]any{"title": "Workshop Beast strings", "troubleshootingData": data, "signature": sig}), bearer(s.Token)...)
	if w.Code != 201 {
		t.Fatalf("share: %d %s", w.Code, w.Body.String())
	}
	var created struct{ ShareID string }
	json.Unmarshal(w.Body.Bytes(), &created)
	body := strings.ToLower(ts.do(t, "GET", "/api/share/"+created.ShareID, "").Body.String())
	for _, leak := range []string{"ada", "workshop beast", "ender 3 v2", "example.com", "lovelace"} {
		if strings.Contains(body, leak) {
			t.Errorf("shared guide contains %q: %s", leak, body)
		}
	}
	if !strings.Contains(body, "the printer") {
		t.Fatalf("scrubbed text lost its meaning: %s", body)
	}
}

// TestShareOnlyOurResults: a result this server made can be shared with its
// signature; anything else, or a result changed after signing, cannot.
func TestShareOnlyOurResults(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
	var got struct {
		ai.Result
		Signature string `json:"signature"`
	}
	json.Unmarshal(w.Body.Bytes(), &got)
	if w.Code != 200 || got.Signature == "" {
		t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
	}
	share := func(res ai.Result, sig string) int {
		return ts.do(t, "POST", "/api/share-results", mustJSON(t, map[string]any{"title": "x", "troubleshootingData": res, "signature": sig})).Code
	}
	if c := share(got.Result, got.Signature); c != 201 {
		t.Fatalf("sharing our own result: %d", c)
	}
	forged := got.Result
	forged.Summary = "Visit evil.example for a free printer"
	for name, c := range map[string]int{
		"changed after signing": share(forged, got.Signature),
		"no signature":          share(got.Result, ""),
		"made-up signature":     share(got.Result, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
	} {
		if c != 400 {
			t.Errorf("%s: %d", name, c)
		}
	}
}

// TestShareTitleFromSummary: the heading of a shared guide is the signed
// summary's start cut at a word, whatever title the client sends (or none).
func TestShareTitleFromSummary(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	data := map[string]any{
		"summary":        "This looks most like stringing and\noozing between parts (Stringing & Oozing).",
		"steps":          goodResult["steps"],
		"additionalTips": []string{},
	}
	var res ai.Result
	json.Unmarshal([]byte(mustJSON(t, data)), &res)
	sig, err := ts.signer.sign(t.Context(), &res)
	if err != nil {
		t.Fatal(err)
	}
	const want = "This looks most like stringing and oozing…"
	for name, body := range map[string]map[string]any{
		"a free-text title": {"title": "Visit evil.example for the fix", "troubleshootingData": data, "signature": sig},
		"a long title":      {"title": strings.Repeat("evil ", 100), "troubleshootingData": data, "signature": sig},
		"no title":          {"troubleshootingData": data, "signature": sig},
	} {
		w := ts.do(t, "POST", "/api/share-results", mustJSON(t, body))
		if w.Code != 201 {
			t.Fatalf("%s: %d %s", name, w.Code, w.Body.String())
		}
		var created struct{ ShareID string }
		json.Unmarshal(w.Body.Bytes(), &created)
		var got struct{ Title string }
		json.Unmarshal(ts.do(t, "GET", "/api/share/"+created.ShareID, "").Body.Bytes(), &got)
		if got.Title != want {
			t.Errorf("%s: title %q, want %q", name, got.Title, want)
		}
	}
}

// TestShareTitleOfOlderShares: a guide stored with a title of the sharer's
// own is shown under its summary's title.
func TestShareTitleOfOlderShares(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	sr := &store.SharedResult{ShareID: newShareID(), Title: "Visit evil.example for the fix",
		TroubleshootingData: store.JSON(mustJSON(t, goodResult))}
	if err := ts.store.CreateShare(t.Context(), sr); err != nil {
		t.Fatal(err)
	}
	var got struct{ Title string }
	json.Unmarshal(ts.do(t, "GET", "/api/share/"+sr.ShareID, "").Body.Bytes(), &got)
	if got.Title != "Stringing from low retraction" {
		t.Fatalf("title %q", got.Title)
	}
}

func TestShareTitleRule(t *testing.T) {
	for _, c := range []struct{ summary, want string }{
		{"Stringing from retraction.", "Stringing from retraction."},
		{"  Stringing\tfrom\n\nretraction.  ", "Stringing from retraction."},
		{"Warping, lifting, curling, peeling, cracking — splitting corners and more", "Warping, lifting, curling, peeling, cracking…"},
		{strings.Repeat("🔥", 60), strings.Repeat("🔥", 49) + "…"},
		{"Visit\x00 evil\x1b.example", "Visit evil.example"},
	} {
		got := shareTitle(c.summary)
		if got != c.want {
			t.Errorf("shareTitle(%q) = %q, want %q", c.summary, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > shareTitleSource {
			t.Errorf("shareTitle(%q) has %d characters", c.summary, n)
		}
	}
}

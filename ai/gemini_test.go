package ai

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

const (
	testGeminiKey   = "test-key-123"
	testGeminiModel = "gemini-test-flash"
)

// geminiCall is one request the fake Gemini server received.
type geminiCall struct {
	at     time.Time
	path   string
	apiKey string
	body   map[string]any
}

// fakeGemini speaks the REST shape of generateContent. respond answers call
// n (1-based).
type fakeGemini struct {
	srv     *httptest.Server
	respond func(n int, w http.ResponseWriter, r *http.Request)
	mu      sync.Mutex
	calls   []geminiCall
}

func newFakeGemini(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *fakeGemini {
	t.Helper()
	f := &fakeGemini{respond: respond}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGemini) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	f.mu.Lock()
	f.calls = append(f.calls, geminiCall{at: time.Now(), path: r.URL.Path, apiKey: r.Header.Get("x-goog-api-key"), body: body})
	n := len(f.calls)
	f.mu.Unlock()

	if r.Method != http.MethodPost || r.URL.Path != "/v1beta/models/"+testGeminiModel+":generateContent" {
		geminiError(w, http.StatusNotFound, "NOT_FOUND", "no such method", nil)
		return
	}
	if r.Header.Get("x-goog-api-key") != testGeminiKey {
		geminiError(w, http.StatusForbidden, "PERMISSION_DENIED", "bad key", nil)
		return
	}
	f.respond(n, w, r)
}

func (f *fakeGemini) callList() []geminiCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]geminiCall(nil), f.calls...)
}

func geminiText(w http.ResponseWriter, text string) {
	geminiJSON(w, http.StatusOK, map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"parts": []any{map[string]any{"text": text}}, "role": "model"},
			"finishReason": "STOP",
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 1200, "candidatesTokenCount": 300},
	})
}

func geminiError(w http.ResponseWriter, code int, status, msg string, details []any) {
	e := map[string]any{"code": code, "message": msg, "status": status}
	if details != nil {
		e["details"] = details
	}
	geminiJSON(w, code, map[string]any{"error": e})
}

func geminiJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

const geminiGoodReply = `{
 "summary": "The nozzle sits too high above the bed, so the first layer does not squish.",
 "steps": [
  {"title": "Lower the Z offset", "description": "Lower it by 0.05 mm steps until lines touch.", "priority": "high"},
  {"title": "Clean the bed", "description": "Wipe the PEI sheet with 90% isopropyl alcohol.", "priority": "medium"},
  {"title": "Slow the first layer", "description": "Print the first layer at 20 mm/s.", "priority": "low"}
 ],
 "additionalTips": ["Re-level after changing the nozzle."]
}`

func geminiAnswerGood(_ int, w http.ResponseWriter, _ *http.Request) { geminiText(w, geminiGoodReply) }

// geminiFakeGrounder returns one fixed candidate and records the n asked for.
type geminiFakeGrounder struct{ asked atomic.Int64 }

func (g *geminiFakeGrounder) Candidates(_ Request, n int) []Candidate {
	g.asked.Store(int64(n))
	return []Candidate{{
		ID: "z-offset-high", Category: "first-layer", Name: "Nozzle too far from the bed",
		Summary: "Lines lie round and loose.", Causes: []string{"Z offset too high"},
		Fixes: []Step{{Title: "Lower Z offset", Description: "By 0.05 mm", Priority: PriorityHigh}}, Score: 0.91,
	}}
}

// fakeFallbackEngine is the fallback analyzer.
type fakeFallbackEngine struct{ calls atomic.Int64 }

const fakeEngineSummary = "Built-in engine: the first layer is not squished enough."

func (e *fakeFallbackEngine) Analyze(context.Context, Request) (*Result, error) {
	e.calls.Add(1)
	return &Result{
		Summary: fakeEngineSummary,
		Steps: []Step{
			{Title: "Lower Z offset", Description: "By 0.05 mm", Priority: PriorityHigh},
			{Title: "Clean the bed", Description: "With isopropyl alcohol", Priority: PriorityMedium},
			{Title: "Check the sheet", Description: "Look for warps", Priority: PriorityLow},
		},
		AdditionalTips: []string{"Keep the bed clean."},
	}, nil
}

func newTestGemini(t *testing.T, url string, timeout time.Duration) *Gemini {
	t.Helper()
	g, err := NewGemini(context.Background(), GeminiConfig{
		APIKey: testGeminiKey, Model: testGeminiModel, BaseURL: url, Timeout: timeout,
	}, &geminiFakeGrounder{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("NewGemini: %v", err)
	}
	g.backoff = 5 * time.Millisecond // fast retries unless the server names a delay
	return g
}

func geminiPtr(v float64) *float64 { return &v }

func geminiTestRequest() Request {
	return Request{
		Category:         "first-layer",
		Description:      "The first layer of my PETG benchy will not stick and lines look round.",
		Material:         "PETG",
		NozzleTemp:       geminiPtr(235),
		BedTemp:          geminiPtr(80),
		LayerHeight:      geminiPtr(0.2),
		PrintSpeed:       geminiPtr(60),
		Infill:           geminiPtr(15),
		PrinterBrand:     "Prusa",
		PrinterModel:     "MK4",
		NozzleSize:       geminiPtr(0.6),
		FilamentDiameter: geminiPtr(1.75),
		Slicer:           &SlicerSettings{Slicer: "PrusaSlicer", RetractionLength: geminiPtr(0.8), FanSpeed: geminiPtr(100)},
		Photos: []Photo{
			{MIMEType: "image/jpeg", Data: []byte("\xff\xd8\xff\xe0 fake jpeg one")},
			{MIMEType: "image/png", Data: []byte("\x89PNG fake png two")},
		},
		History: []PastFix{{Category: "stringing", Description: "Strings between towers", StepTitles: []string{"Raise retraction to 1.2 mm"}, ResolvedAt: "12 March"}},
	}
}

func TestGeminiFaults(t *testing.T) {
	tests := []struct {
		name       string
		timeout    time.Duration
		fallbackOn bool
		respond    func(n int, w http.ResponseWriter, r *http.Request)
		wantGemini bool   // Gemini's result, else the fallback's (or an error with fallback off)
		wantReason string // counted reason when Gemini failed
		wantCalls  int
		check      func(t *testing.T, calls []geminiCall, elapsed time.Duration)
	}{
		{
			name: "good answer", timeout: 2 * time.Second, fallbackOn: true,
			respond: geminiAnswerGood, wantGemini: true, wantCalls: 1,
		},
		{
			name: "503 then success", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					geminiError(w, 503, "UNAVAILABLE", "The model is overloaded.", nil)
					return
				}
				geminiAnswerGood(n, w, r)
			},
			wantGemini: true, wantCalls: 2,
		},
		{
			name: "429 with RetryInfo delay then success", timeout: 3 * time.Second, fallbackOn: true,
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					geminiError(w, 429, "RESOURCE_EXHAUSTED", "Quota exceeded.", []any{map[string]any{
						"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.4s",
					}})
					return
				}
				geminiAnswerGood(n, w, r)
			},
			wantGemini: true, wantCalls: 2,
			check: func(t *testing.T, calls []geminiCall, _ time.Duration) {
				if gap := calls[1].at.Sub(calls[0].at); gap < 400*time.Millisecond {
					t.Errorf("retried after %v, server asked for 400ms", gap)
				}
			},
		},
		{
			name: "429 with Retry-After header then success", timeout: 3 * time.Second, fallbackOn: true,
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					w.Header().Set("Retry-After", "1")
					geminiError(w, 429, "RESOURCE_EXHAUSTED", "Quota exceeded.", nil)
					return
				}
				geminiAnswerGood(n, w, r)
			},
			wantGemini: true, wantCalls: 2,
			check: func(t *testing.T, calls []geminiCall, _ time.Duration) {
				if gap := calls[1].at.Sub(calls[0].at); gap < time.Second {
					t.Errorf("retried after %v, server asked for 1s", gap)
				}
			},
		},
		{
			name: "429 with a delay past the budget falls back at once", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiError(w, 429, "RESOURCE_EXHAUSTED", "Quota exceeded.", []any{map[string]any{
					"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "30s",
				}})
			},
			wantReason: ReasonRateLimited, wantCalls: 1,
			check: func(t *testing.T, _ []geminiCall, elapsed time.Duration) {
				if elapsed > time.Second {
					t.Errorf("took %v, want an immediate fallback", elapsed)
				}
			},
		},
		{
			name: "hang past the timeout", timeout: 300 * time.Millisecond, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
				geminiAnswerGood(0, w, r)
			},
			wantReason: ReasonTimeout, wantCalls: 1,
		},
		{
			name: "prompt blocked for safety", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiJSON(w, 200, map[string]any{"promptFeedback": map[string]any{"blockReason": "SAFETY"}})
			},
			wantReason: ReasonBlocked, wantCalls: 1,
		},
		{
			name: "answer stopped for safety", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiJSON(w, 200, map[string]any{"candidates": []any{map[string]any{"finishReason": "SAFETY"}}})
			},
			wantReason: ReasonBlocked, wantCalls: 1,
		},
		{
			name: "empty candidate list", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiJSON(w, 200, map[string]any{"candidates": []any{}})
			},
			wantReason: ReasonInvalidReply, wantCalls: 1,
		},
		{
			name: "not JSON, retried once, then fallback", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiText(w, "Sorry, I cannot help with that print.")
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "not JSON once, then a good answer", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					geminiText(w, `{"summary": "cut off`)
					return
				}
				geminiAnswerGood(n, w, r)
			},
			wantGemini: true, wantCalls: 2,
		},
		{
			name: "wrong priority value", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiText(w, strings.Replace(geminiGoodReply, `"medium"`, `"urgent"`, 1))
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "too few steps", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiText(w, `{"summary":"s","steps":[{"title":"t","description":"d","priority":"high"}],"additionalTips":[]}`)
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "400 not retried", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiError(w, 400, "INVALID_ARGUMENT", "Unsupported MIME type.", nil)
			},
			wantReason: ReasonClientError, wantCalls: 1,
		},
		{
			name: "403 not retried, fallback off", timeout: 2 * time.Second, fallbackOn: false,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiError(w, 403, "PERMISSION_DENIED", "API key not valid.", nil)
			},
			wantReason: ReasonClientError, wantCalls: 1,
		},
		{
			name: "503 throughout, fallback off", timeout: 2 * time.Second, fallbackOn: false,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request) {
				geminiError(w, 503, "UNAVAILABLE", "The model is overloaded.", nil)
			},
			wantReason: ReasonServerError, wantCalls: geminiMaxCalls,
		},
		{
			name: "hang, fallback off", timeout: 300 * time.Millisecond, fallbackOn: false,
			respond: func(_ int, w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			},
			wantReason: ReasonTimeout, wantCalls: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeGemini(t, tc.respond)
			engine := &fakeFallbackEngine{}
			an := WithFallback(newTestGemini(t, fake.srv.URL, tc.timeout), engine, tc.fallbackOn, slog.New(slog.DiscardHandler))
			before := FallbackCounts()

			start := time.Now()
			res, err := an.Analyze(context.Background(), geminiTestRequest())
			elapsed := time.Since(start)

			if limit := tc.timeout + time.Second; elapsed > limit {
				t.Errorf("took %v, want at most the timeout plus a second (%v)", elapsed, limit)
			}
			calls := fake.callList()
			if len(calls) != tc.wantCalls {
				t.Errorf("Gemini got %d calls, want %d", len(calls), tc.wantCalls)
			}
			if got := FallbackCounts()[tc.wantReason] - before[tc.wantReason]; !tc.wantGemini && got != 1 {
				t.Errorf("FallbackCounts()[%q] grew by %d, want 1 (counts %v)", tc.wantReason, got, FallbackCounts())
			}
			switch {
			case tc.wantGemini:
				if err != nil {
					t.Fatalf("Analyze: %v", err)
				}
				if !strings.Contains(res.Summary, "nozzle sits too high") || len(res.Steps) != 3 {
					t.Errorf("got %+v, want Gemini's result", res)
				}
				if engine.calls.Load() != 0 {
					t.Errorf("fallback called although Gemini answered")
				}
			case tc.fallbackOn:
				if err != nil {
					t.Fatalf("Analyze: %v", err)
				}
				if res.Summary != fakeEngineSummary {
					t.Errorf("summary %q, want the fallback's", res.Summary)
				}
			default:
				checkProviderFailure(t, err, "Gemini AI provider", testGeminiKey, engine)
			}
			checkValidResult(t, res)
			if tc.check != nil && len(calls) >= tc.wantCalls {
				tc.check(t, calls, elapsed)
			}
		})
	}
}

// TestGeminiRequest checks what is sent to Google: the key, the model, the
// text with the description, settings, printer and history, the photos as
// inline data, the grounding and the response schema.
func TestGeminiRequest(t *testing.T) {
	fake := newFakeGemini(t, geminiAnswerGood)
	grounder := &geminiFakeGrounder{}
	g, err := NewGemini(context.Background(), GeminiConfig{
		APIKey: testGeminiKey, Model: testGeminiModel, BaseURL: fake.srv.URL + "/", Timeout: 2 * time.Second,
	}, grounder, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	req := geminiTestRequest()
	if _, err := g.Analyze(context.Background(), req); err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	calls := fake.callList()
	if len(calls) != 1 {
		t.Fatalf("got %d calls, want 1", len(calls))
	}
	if n := grounder.asked.Load(); n != 5 {
		t.Errorf("asked the grounder for %d candidates, want 5", n)
	}
	body := calls[0].body

	var texts []string
	inline := map[string]string{} // data -> mimeType
	contents, _ := body["contents"].([]any)
	if len(contents) != 1 {
		t.Fatalf("got %d contents, want 1: %v", len(contents), body)
	}
	parts, _ := contents[0].(map[string]any)["parts"].([]any)
	for _, p := range parts {
		p := p.(map[string]any)
		if s, ok := p["text"].(string); ok {
			texts = append(texts, s)
		}
		if d, ok := p["inlineData"].(map[string]any); ok {
			inline[fmt.Sprint(d["data"])] = fmt.Sprint(d["mimeType"])
		}
	}
	text := strings.Join(texts, "\n")
	for _, want := range []string{
		"First Layer Problems", req.Description, "Material: PETG", "Nozzle temperature: 235 °C",
		"Bed temperature: 80 °C", "Layer height: 0.2 mm", "Print speed: 60 mm/s", "Infill: 15%",
		"Printer: Prusa MK4", "Nozzle diameter: 0.6 mm", "Filament diameter: 1.75 mm",
		"Raise retraction to 1.2 mm", "2 photo(s)", "Nozzle too far from the bed", "Z offset too high",
		"Read from the PrusaSlicer file", "Retraction length: 0.8 mm", "Part fan: 100%",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("request text lacks %q:\n%s", want, text)
		}
	}
	for _, p := range req.Photos {
		enc := base64.StdEncoding.EncodeToString(p.Data)
		if got, ok := inline[enc]; !ok || got != p.MIMEType {
			t.Errorf("photo %s not sent as inlineData (got %v)", p.MIMEType, inline)
		}
	}

	sys, _ := json.Marshal(body["systemInstruction"])
	for _, want := range []string{"3D-printing technician", "metric", "thermal runaway"} {
		if !strings.Contains(string(sys), want) {
			t.Errorf("system instruction lacks %q: %s", want, sys)
		}
	}

	gen, _ := body["generationConfig"].(map[string]any)
	if gen["responseMimeType"] != "application/json" {
		t.Errorf("responseMimeType = %v", gen["responseMimeType"])
	}
	if temp, _ := gen["temperature"].(float64); temp <= 0 || temp > 0.5 {
		t.Errorf("temperature = %v, want a low one", gen["temperature"])
	}
	schema, _ := gen["responseSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	steps, _ := props["steps"].(map[string]any)
	items, _ := steps["items"].(map[string]any)
	stepProps, _ := items["properties"].(map[string]any)
	prio, _ := stepProps["priority"].(map[string]any)
	if got := fmt.Sprint(prio["enum"]); got != "[high medium low]" {
		t.Errorf("priority enum = %s, want [high medium low]; schema %v", got, schema)
	}
	for _, k := range []string{"summary", "steps", "additionalTips"} {
		if props[k] == nil {
			t.Errorf("schema lacks %q", k)
		}
	}
}

func TestGeminiPhotosAndSettingsOptional(t *testing.T) {
	fake := newFakeGemini(t, geminiAnswerGood)
	g := newTestGemini(t, fake.srv.URL, 2*time.Second)
	g.grounder = nil
	req := Request{Category: "stringing", Description: "Fine hairs between the towers."}
	if _, err := g.Analyze(context.Background(), req); err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	raw, _ := json.Marshal(fake.callList()[0].body["contents"])
	s := string(raw)
	for _, want := range []string{"Stringing \\u0026 Oozing", "No photos were given", "none given"} {
		if !strings.Contains(s, want) {
			t.Errorf("request lacks %q: %s", want, s)
		}
	}
	if strings.Contains(s, "inlineData") || strings.Contains(s, "Knowledge-base candidates") {
		t.Errorf("request has photos or grounding it was not given: %s", s)
	}
}

func TestNewGeminiNeedsKey(t *testing.T) {
	if _, err := NewGemini(context.Background(), GeminiConfig{}, nil, nil); err == nil {
		t.Fatal("NewGemini without a key: want an error")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 6, 7, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"3", 3 * time.Second, true},
		{"0", 0, true},
		{"Sat, 07 Jun 2025 12:00:05 GMT", 5 * time.Second, true},
		{"Sat, 07 Jun 2025 11:00:00 GMT", 0, true},
		{"", 0, false},
		{"soon", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestParseRetryDelay(t *testing.T) {
	tests := []struct {
		in     any
		want   time.Duration
		wantOK bool
	}{
		{"17s", 17 * time.Second, true},
		{"0.25s", 250 * time.Millisecond, true},
		{map[string]any{"seconds": "2", "nanos": float64(5e8)}, 2500 * time.Millisecond, true},
		{map[string]any{"seconds": float64(1)}, time.Second, true},
		{"later", 0, false},
		{nil, 0, false},
	}
	for _, tc := range tests {
		got, ok := parseRetryDelay(tc.in)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("parseRetryDelay(%v) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.wantOK)
		}
	}
}

// geminiPromptText is the text parts of the one request the fake received.
func geminiPromptText(t *testing.T, fake *fakeGemini) string {
	t.Helper()
	calls := fake.callList()
	if len(calls) != 1 {
		t.Fatalf("got %d calls, want 1", len(calls))
	}
	var texts []string
	contents, _ := calls[0].body["contents"].([]any)
	for _, c := range contents {
		parts, _ := c.(map[string]any)["parts"].([]any)
		for _, p := range parts {
			if s, ok := p.(map[string]any)["text"].(string); ok {
				texts = append(texts, s)
			}
		}
	}
	return strings.Join(texts, "\n")
}

// The prompt carries of each attachment its end and its earlier error
// lines, and never more than the budget of attachment text in all.
func TestGeminiAttachmentExcerpts(t *testing.T) {
	fake := newFakeGemini(t, geminiAnswerGood)
	g := newTestGemini(t, fake.srv.URL, 20*time.Second) // reading 200 KB of log takes seconds under -race
	g.grounder = nil
	var log strings.Builder
	log.WriteString("Starting Klippy...\n")
	log.WriteString("Unable to read tmc uart 'stepper_x' register IFCNT\n")
	for i := 0; log.Len() < 200<<10; i++ {
		fmt.Fprintf(&log, "Stats %d.0: gcodein=0 mcu: mcu_awake=0.004 bytes_write=%d print_time=%d\n", i, i*7, i)
	}
	log.WriteString("Transition to shutdown state: MCU 'mcu' shutdown: ADC out of range\n")
	req := Request{Category: "heating-issues", Description: "The printer halts at 200 degrees.",
		Attachments: []Attachment{{Name: "klippy.log", Text: log.String()}, {Name: "M503.txt", Text: "echo:  M301 P21.73 I1.54 D76.55\n"}}}
	if _, err := g.Analyze(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	text := geminiPromptText(t, fake)
	expectInPrompt(t, text, `Attachment 1: "klippy.log"`, "Unable to read tmc uart 'stepper_x' register IFCNT",
		"ADC out of range", `Attachment 2: "M503.txt"`, "The whole file:\n\"\"\"\necho:  M301 P21.73 I1.54 D76.55\n\"\"\"")
	if strings.Contains(text, "Stats 10.0:") {
		t.Error("the prompt holds the middle of the log")
	}

	// Four files of nothing but error lines stay within the budget.
	fake = newFakeGemini(t, geminiAnswerGood)
	g = newTestGemini(t, fake.srv.URL, 2*time.Second)
	g.grounder = nil
	var noisy strings.Builder
	for i := 0; noisy.Len() < MaxAttachmentBytes/4; i++ {
		fmt.Fprintf(&noisy, "Error: heating failed %d %s\n", i, strings.Repeat("é", i%400))
	}
	req.Attachments = nil
	for i := range MaxAttachments {
		req.Attachments = append(req.Attachments, Attachment{Name: fmt.Sprintf("serial%d.log", i), Text: noisy.String()})
	}
	if _, err := g.Analyze(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	text = geminiPromptText(t, fake)
	if !utf8.ValidString(text) {
		t.Fatal("the prompt is not valid UTF-8")
	}
	if n := strings.Count(text, "Error: heating failed"); n == 0 || len(text) > geminiAttachmentBudget+4<<10 {
		t.Errorf("prompt of %d bytes with %d error lines, want at most %d of attachments", len(text), n, geminiAttachmentBudget)
	}
}

// checkProviderFailure: with the fallback off, a remote model's failure is
// an error wrapping ErrUnavailable that names the provider and not the key.
func checkProviderFailure(t *testing.T, err error, provider, key string, fallback *fakeFallbackEngine) {
	t.Helper()
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want one wrapping ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), provider) {
		t.Errorf("err %q does not name the %s", err, provider)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("err %q leaks the API key", err)
	}
	if fallback.calls.Load() != 0 {
		t.Errorf("fallback called although it is off")
	}
}

// checkValidResult: a result given (nil when none) is a valid AI reply.
func checkValidResult(t *testing.T, res *Result) {
	t.Helper()
	if res != nil {
		if err := ValidateResultSteps(res, 3, MaxResultSteps); err != nil {
			t.Errorf("result invalid: %v", err)
		}
	}
}

// The facts the engine reads from the attachments go into the prompt, with
// their file, line and quote: errors always, settings when the engine's
// knowledge has rules for them; at most geminiMaxFacts lines.
func TestGeminiAttachmentFacts(t *testing.T) {
	req := Request{Category: "heating-issues", Description: "The printer stops in the middle of a print.",
		Attachments: []Attachment{{Name: "klippy.log", Text: klippyADC}}}
	text := promptWith(t, sharedEngine(t), req)
	expectInPrompt(t, text,
		`"klippy.log": Klipper log (v0.12.0-85-gd785b396)`,
		"Facts read from the attached files",
		"error.adc_out_of_range (mcu) = \"ADC out of range\" — klippy.log line",
		"“MCU 'mcu' shutdown: ADC out of range”",
		"heater.sensor_type (extruder) = \"EPCOS 100K B57560G104F\"", // a setting the knowledge base has rules for
	)
	if strings.Contains(text, "extruder.nozzle_diameter") {
		t.Error("the prompt lists a setting no rule uses")
	}

	// Without the engine only errors are listed, and never more than the cap.
	var many strings.Builder
	for i := range 200 {
		fmt.Fprintf(&many, "Error:Printer halted. kill() called! %d\necho:Unknown command: \"M%d\"\n", i, 900+i)
	}
	req.Attachments = []Attachment{{Name: "serial.log", Text: many.String()}, {Name: "klippy.log", Text: klippyADC}}
	text = promptWith(t, nil, req)
	section := text[strings.Index(text, "Facts read from the attached files"):]
	section = section[:strings.Index(section, "\n\n")]
	if n := strings.Count(section, "\n- "); n == 0 || n > geminiMaxFacts {
		t.Errorf("%d fact lines, want 1–%d", n, geminiMaxFacts)
	}
	if strings.Contains(section, "heater.sensor_type") {
		t.Error("without the engine a setting was listed")
	}
}

// promptWith is the text Gemini is sent for req with grounder (nil: none).
func promptWith(t *testing.T, grounder Grounder, req Request) string {
	t.Helper()
	fake := newFakeGemini(t, geminiAnswerGood)
	g := newTestGemini(t, fake.srv.URL, 2*time.Second)
	g.grounder = grounder
	if _, err := g.Analyze(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	return geminiPromptText(t, fake)
}

func expectInPrompt(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
}

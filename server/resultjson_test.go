package server

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
)

// TestResultBodyIsTheResultsJSON: the body an analysis is answered with,
// and the content its signature covers, are byte for byte what encoding
// the whole result with encoding/json gives (as c.JSON did), for the
// engine's answers and for results built to trip an encoder: HTML, line
// separators, invalid UTF-8, empty and missing lists, questions, answers
// and refine tokens; ?pretty still indents.
func TestResultBodyIsTheResultsJSON(t *testing.T) {
	engine := sharedEngine(t)
	cases, err := ai.EmbeddedCases()
	if err != nil {
		t.Fatal(err)
	}
	var results []*ai.Result
	for i, c := range cases {
		req := c.Request()
		if i%3 == 0 {
			for id := range engine.QuestionIDs() {
				req.Answers = map[string]ai.Answer{id: []ai.Answer{ai.AnswerYes, ai.AnswerNo, ai.AnswerUnsure}[i/3%3]}
				break
			}
		}
		res, err := engine.Analyze(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	results = append(results,
		&ai.Result{},
		&ai.Result{Steps: []ai.Step{}, AdditionalTips: []string{}, Questions: []ai.Question{}, Answers: map[string]ai.Answer{}},
		&ai.Result{Summary: "<script>alert(1)</script> & \u2028\u2029 \x00\x1f \"quoted\" \\ \xff\xfe é",
			Steps:          []ai.Step{{Title: "<b>", Description: "a & b", Priority: "high"}, {}},
			AdditionalTips: []string{"\t\n\r", "\u007f"},
			Questions:      []ai.Question{{ID: "q<1>", Text: "Is it & so?"}},
			Answers:        map[string]ai.Answer{"z": ai.AnswerYes, "a": ai.AnswerNo, "<m>": ai.AnswerUnsure}},
		&ai.Result{Summary: "s", Engine: ai.EngineOpenAI, Model: "qwen2.5:7b <&>"},
		&ai.Result{Summary: "s", Engine: ai.EngineFallback, Model: "llama3.2-vision", FallbackFrom: ai.EngineOpenAI},
	)
	e := echo.New()
	for i, res := range results {
		for _, token := range []string{"", "1767225600.abc_-<&>"} {
			for _, query := range []string{"", "?pretty"} {
				out := resultJSON{Result: res, RefineToken: token, Signature: "sig-" + token}
				var want bytes.Buffer
				enc := json.NewEncoder(&want)
				if query != "" {
					enc.SetIndent("", "  ")
				}
				if err := enc.Encode(out); err != nil {
					t.Fatal(err)
				}
				w := httptest.NewRecorder()
				c := e.NewContext(httptest.NewRequest("POST", "/api/troubleshoot"+query, nil), w)
				if err := writeResult(c, out, encodeResult(res)); err != nil {
					t.Fatal(err)
				}
				if w.Code != 200 || w.Header().Get("Content-Type") != echo.MIMEApplicationJSON {
					t.Fatalf("result %d: %d %q", i, w.Code, w.Header().Get("Content-Type"))
				}
				if got := w.Body.String(); got != want.String() {
					t.Fatalf("result %d%s:\n got %s\nwant %s", i, query, got, want.String())
				}
			}
		}
		content, _ := json.Marshal(struct {
			Summary        string    `json:"s"`
			Steps          []ai.Step `json:"t"`
			AdditionalTips []string  `json:"a"`
		}{res.Summary, res.Steps, res.AdditionalTips})
		if got := resultContent(res); !bytes.Equal(got, content) {
			t.Fatalf("result %d: signed content\n got %s\nwant %s", i, got, content)
		}
	}
}

// TestJSONStringsAsEncodingJSON: strings are quoted exactly as
// encoding/json quotes them: every byte alone and every pair of bytes,
// every rune of the first planes, and random mixes.
func TestJSONStringsAsEncodingJSON(t *testing.T) {
	check := func(s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	for c := 0; c < 256; c++ { // every byte at every place of a run of eight
		for at := 0; at < 24; at++ {
			b := []byte(strings.Repeat("plain ok", 3))
			b[at] = byte(c)
			check(string(b))
		}
	}
	for r := rune(0); r < 0x11000; r++ {
		check("x" + string(r) + "y")
	}
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "<", ">", "&", `"`, `\`, "\n", "\x00", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "😀", " "}
	for i := 0; i < 20000; i++ {
		var s strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			s.WriteString(pieces[rng.Intn(len(pieces))])
		}
		check(s.String())
	}
}

// TestResultTypesAreTheOnesEncoded: appendSteps and writeResult write the
// fields of ai.Step and ai.Question by hand; a field added to either must
// be added there too.
func TestResultTypesAreTheOnesEncoded(t *testing.T) {
	for typ, want := range map[reflect.Type][]string{
		reflect.TypeFor[ai.Step]():     {`json:"title"`, `json:"description"`, `json:"priority"`},
		reflect.TypeFor[ai.Question](): {`json:"id"`, `json:"text"`},
		reflect.TypeFor[ai.Result](): {`json:"summary"`, `json:"steps"`, `json:"additionalTips"`, `json:"questions,omitempty"`,
			`json:"answers,omitempty"`, `json:"engine,omitempty"`, `json:"model,omitempty"`, `json:"fallbackFrom,omitempty"`},
	} {
		var got []string
		for f := range typ.Fields() {
			got = append(got, string(f.Tag))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s has fields tagged %q; server/resultjson.go encodes %q: encode the new ones there", typ, got, want)
		}
	}
}

// discardWriter is a ResponseWriter that keeps nothing but its headers.
type discardWriter struct{ h http.Header }

func (w discardWriter) Header() http.Header         { return w.h }
func (w discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w discardWriter) WriteHeader(int)             {}

// Writing an analysis's answer costs its Content-Length and little more:
// the body is written on in the memory of its encoding.
func TestWriteResultAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("allocations are not counted under the race detector")
	}
	res, err := sharedEngine(t).Analyze(context.Background(), ai.Request{Category: "stringing",
		Description: "Lots of thin strings between the two towers, PETG on my Ender 3", PrinterBrand: "Creality Ender 3 V2"})
	if err != nil {
		t.Fatal(err)
	}
	out := resultJSON{Result: res, RefineToken: "1767225600.abc", Signature: "sig"}
	e := echo.New()
	req := httptest.NewRequest("POST", "/api/troubleshoot", nil)
	w := discardWriter{http.Header{}}
	c := e.NewContext(req, w)
	allocs := testing.AllocsPerRun(100, func() {
		clear(w.h)
		c.Reset(req, w)
		enc := encodeResult(res)
		if err := writeResult(c, out, enc); err != nil {
			t.Fatal(err)
		}
		enc.release()
	})
	if allocs > 2 {
		t.Errorf("%.0f allocations, want at most 2", allocs)
	}
}

package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/labstack/echo/v4"
)

// bodyDelivery is one way a client's body reaches the handler.
type bodyDelivery struct {
	name string
	wrap func(w http.ResponseWriter, body string) io.ReadCloser
}

var bodyDeliveries = []bodyDelivery{
	{"whole", func(_ http.ResponseWriter, body string) io.ReadCloser { return io.NopCloser(strings.NewReader(body)) }},
	{"byte by byte", func(_ http.ResponseWriter, body string) io.ReadCloser {
		return io.NopCloser(iotest.OneByteReader(strings.NewReader(body)))
	}},
	{"with the last byte", func(_ http.ResponseWriter, body string) io.ReadCloser {
		return io.NopCloser(iotest.DataErrReader(strings.NewReader(body)))
	}},
	{"over a limit of 40", func(w http.ResponseWriter, body string) io.ReadCloser {
		return http.MaxBytesReader(w, io.NopCloser(strings.NewReader(body)), 40)
	}},
	{"broken off", func(_ http.ResponseWriter, body string) io.ReadCloser {
		return io.NopCloser(io.MultiReader(strings.NewReader(body), iotest.ErrReader(io.ErrUnexpectedEOF)))
	}},
	{"over the hand decoder's size", func(_ http.ResponseWriter, body string) io.ReadCloser {
		return io.NopCloser(strings.NewReader(body + strings.Repeat(" ", smallBodySize)))
	}},
}

// bindBoth binds body, delivered by d, with bindTroubleshoot and with
// bindJSON, the reference.
func bindBoth(t testing.TB, body string, d bodyDelivery) (got, want troubleshootRequest, gotErr, wantErr error) {
	e := echo.New()
	bind := func(f func(echo.Context) error) error {
		req := httptest.NewRequest(http.MethodPost, "/api/troubleshoot", nil)
		req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		w := httptest.NewRecorder()
		req.Body = d.wrap(w, body)
		c := e.NewContext(req, w)
		c.SetPath("/api/troubleshoot")
		return f(c)
	}
	gotErr = bind(func(c echo.Context) error { return bindTroubleshoot(c, &got) })
	wantErr = bind(func(c echo.Context) error { return bindJSON(c, &want) })
	return got, want, gotErr, wantErr
}

// checkSameBinding requires bindTroubleshoot to give for body what
// bindJSON gives: the same request, or the same error answer.
func checkSameBinding(t testing.TB, body string) {
	t.Helper()
	for _, d := range bodyDeliveries {
		got, want, gotErr, wantErr := bindBoth(t, body, d)
		if !reflect.DeepEqual(gotErr, wantErr) {
			t.Fatalf("%s %q: error %#v, want %#v", d.name, body, gotErr, wantErr)
		}
		// JSON tells -0 from 0, which reflect.DeepEqual does not.
		if wantErr == nil && (!reflect.DeepEqual(got, want) || fmt.Sprint(json.Marshal(got)) != fmt.Sprint(json.Marshal(want))) {
			t.Fatalf("%s %q:\n got  %+v\n want %+v", d.name, body, got, want)
		}
	}
}

// analysisBodies are bodies of every kind: plain ones, every wrong type of
// every field, broken JSON, and the corners of encoding/json.
func analysisBodies() []string {
	const base = `{"category":"stringing","description":"Lots of thin strings between the two towers","printerBrand":"Ender 3"`
	bodies := []string{
		benchTroubleshootBody,
		validTroubleshootSeed(),
		base + `}`,
		" \t\r\n" + base + "} \n\t\r",
		`{}`, `{ }`, ``, ` `, `null`, `[]`, `"x"`, `1`, `{`, `}`, `{"category"`, `{"category":`, `{"category":"x"`, `{"category":"x",}`,
		`{,}`, `{"category" "x"}`, `{"category":"x""description":"y"}`, `{category:"x"}`, `{'category':'x'}`,
		"\ufeff" + base + `}`,
		base + `}x`, base + `} }`, base + `}}`, base + `}]`, base + `}{}`, base + `},`, base + `} null`, base + "}\x00",
		base + `,"category":"other"}`, base + `,"images":[],"images":null}`, base + `,"nozzleTemp":1,"nozzleTemp":null}`,
		base + `,"Category":"other"}`, base + `,"CATEGORY":"other"}`, base + `,"printerbrand":"x"}`, base + `,"unknown":{"a":[1,2,{"b":null}]}}`,
		base + `,"nozzleTemp":245,"bedTemp":60.5,"layerHeight":0.2,"printSpeed":-0,"infill":1e2}`,
		base + `,"nozzleTemp":1e400}`, base + `,"nozzleTemp":-1e400}`, base + `,"nozzleTemp":1e-400}`, base + `,"nozzleTemp":123456789012345678901234567890}`,
		base + `,"nozzleTemp":01}`, base + `,"nozzleTemp":1.}`, base + `,"nozzleTemp":.5}`, base + `,"nozzleTemp":+1}`, base + `,"nozzleTemp":-}`,
		base + `,"nozzleTemp":1e}`, base + `,"nozzleTemp":1E+2}`, base + `,"nozzleTemp":1e-2}`, base + `,"nozzleTemp":NaN}`, base + `,"nozzleTemp":Infinity}`,
		base + `,"nozzleTemp":0x10}`, base + `,"nozzleTemp":1_000}`, base + `,"nozzleTemp":"245"}`,
		`{"category":"\u0073tringing","description":"caf\u00e9 \ud83d\ude00 \ud800 \udc00x","printerBrand":"\u2028"}`,
		`{"category":"a\"b\\c\/d\be\ff\ng\rh\ti","description":"\x","printerBrand":"\u12"}`,
		`{"category":"tab	inside","description":"line` + "\n" + `break"}`,
		`{"category":"` + "\xff\xfe" + `","description":"` + "caf\xc3" + `"}`,
		`{"category":"é ü 😀 ` + "\u2028\u2029" + `"}`,
		`{"category":"a\"b","description":"é\n` + "\xff" + `"}`,
		`{"description":"` + strings.Repeat("long enough ", 200) + `"}`,
		`{"ca\u0074egory":"x"}`, `{"category\"":"x"}`,
		"\f{}", "{\v}", "\u00a0{}", "{}\u00a0", "{\u2028}", `{"":1}`, `{"` + "\xff" + `":1}`, `{"category":"` + "\x7f" + `"}`,
		base + `,"nozzleTemp":-0.0,"bedTemp":0.1e1,"infill":1e0001}`, base + `,"nozzleTemp":1e308}`, base + `,"nozzleTemp":1.8e308}`,
		base + `,"nozzleTemp":2.2250738585072011e-308}`, base + `,"nozzleTemp":4.9e-324}`, base + `,"nozzleTemp":5e-325}`,
		base + `,"nozzleTemp":00}`, base + `,"nozzleTemp":-01}`, base + `,"nozzleTemp":-0}`, base + `,"nozzleTemp":1.5e-}`,
		base + `,"nozzleTemp":` + strings.Repeat("9", 400) + `}`, base + `,"nozzleTemp":0.` + strings.Repeat("0", 400) + `1}`,
		base + `,"nozzleTemp":1` + strings.Repeat("0", 5000) + `e-5000}`,
		base + `,"material":null,"material":"PLA"}`, base + `,"material":"PLA","Material":null}`, base + `,"images":[ "a" , "b" ]}`,
		base + `,"images":[""]}`, base + `,"images":[null]}`, base + `,"images":["a"],"IMAGES":["b"]}`, base + `,"images":["\ud83d\ude00"]}`,
		`{"category":null,"description":null,"printerBrand":null,"material":null,"nozzleTemp":null,"images":null}`,
	}
	values := []string{`"x"`, `""`, `1`, `-2.5e3`, `true`, `false`, `null`, `[]`, `{}`, `["a"]`, `["a",null]`, `[1]`, `["a",]`, `[,]`, `["a" "b"]`,
		`{"nozzleDiameter":0.4}`, `{"width":1,"height":2}`, `[{"name":"a.log","text":"x"}]`, `nul`, `tru`, `"\u00e9"`}
	for _, field := range []string{"category", "description", "printerBrand", "material", "nozzleTemp", "bedTemp", "layerHeight",
		"printSpeed", "infill", "images", "slicerSettings", "attachments", "screenDimensions", "answers"} {
		for _, v := range values {
			bodies = append(bodies, base+`,"`+field+`":`+v+`}`, `{"`+field+`" : `+v+` }`)
		}
	}
	// Every cut of a plain body.
	for i := range benchTroubleshootBody {
		bodies = append(bodies, benchTroubleshootBody[:i])
	}
	return bodies
}

func TestBindTroubleshootMatchesBindJSON(t *testing.T) {
	for _, body := range analysisBodies() {
		checkSameBinding(t, body)
	}
}

// The bodies the app sends are decoded by hand, not left to encoding/json.
func TestPlainAnalysisDecodedByHand(t *testing.T) {
	for _, body := range []string{
		benchTroubleshootBody,
		validTroubleshootSeed(),
		`{"category":"stringing","description":"Strings\neverywhere \"badly\"","material":null,"nozzleTemp":null,"bedTemp":60,` +
			`"layerHeight":0.2,"printSpeed":50,"infill":20,"printerBrand":"Prusa MK4","images":["aGVsbG8="]}`,
	} {
		if _, ok := decodePlainAnalysis([]byte(body)); !ok {
			t.Errorf("%s: left to encoding/json", body)
		}
	}
}

// A plain analysis body costs a handful of allocations to decode and check.
func TestBindTroubleshootAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("allocations are not counted under the race detector")
	}
	e := echo.New()
	req := httptest.NewRequest(http.MethodPost, "/api/troubleshoot", nil)
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c := e.NewContext(req, httptest.NewRecorder())
	body := strings.NewReader(benchTroubleshootBody)
	req.Body = io.NopCloser(body)
	allocs := testing.AllocsPerRun(100, func() {
		body.Reset(benchTroubleshootBody)
		var in troubleshootRequest
		if err := bindTroubleshoot(c, &in); err != nil {
			t.Fatal(err)
		}
		if _, _, err := in.check(); err != nil {
			t.Fatal(err)
		}
	})
	// The request, its text, its numbers and the map of its messages.
	if allocs > 4 {
		t.Errorf("%v allocations, want at most 4", allocs)
	}
}

// FuzzBindTroubleshoot checks that every body binds as bindJSON binds it.
func FuzzBindTroubleshoot(f *testing.F) {
	for _, body := range analysisBodies() {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkSameBinding(t, body)
	})
}

// BenchmarkBindAnalysis decodes the analysis make bench-http sends, by
// hand and through encoding/json.
func BenchmarkBindAnalysis(b *testing.B) {
	for _, bind := range []struct {
		name string
		f    func(echo.Context, *troubleshootRequest) error
	}{
		{"hand", bindTroubleshoot},
		{"encoding-json", func(c echo.Context, in *troubleshootRequest) error { return bindJSON(c, in) }},
	} {
		b.Run(bind.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodPost, "/api/troubleshoot", nil)
			req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
			c := echo.New().NewContext(req, httptest.NewRecorder())
			body := strings.NewReader(benchTroubleshootBody)
			req.Body = io.NopCloser(body)
			b.ReportAllocs()
			for b.Loop() {
				body.Reset(benchTroubleshootBody)
				var in troubleshootRequest
				if err := bind.f(c, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzDecodePlainAnalysis: whatever body the hand decoder takes, it
// decodes as encoding/json does (the cheap half of FuzzBindTroubleshoot,
// so the fuzzer gets through many more bodies).
func FuzzDecodePlainAnalysis(f *testing.F) {
	for _, body := range analysisBodies() {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, ok := decodePlainAnalysis(body)
		if !ok {
			return
		}
		var want troubleshootRequest
		if err := json.Unmarshal(body, &want); err != nil {
			t.Fatalf("%q: decoded by hand, but encoding/json says %v", body, err)
		}
		if !reflect.DeepEqual(got, want) || fmt.Sprint(json.Marshal(got)) != fmt.Sprint(json.Marshal(want)) {
			t.Fatalf("%q:\n got  %+v\n want %+v", body, got, want)
		}
	})
}

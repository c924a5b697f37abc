package server

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
)

// memKeys is a key store in memory.
type memKeys map[string]string

func (m memKeys) ServerKey(_ context.Context, name, fresh string) (string, error) {
	if k, ok := m[name]; ok {
		return k, nil
	}
	m[name] = fresh
	return fresh, nil
}

func fnum(v float64) *float64 { return &v }

// refineCanon writes what encoding/json writes for the same list, so a
// token issued before a change of encoder still checks.
func TestRefineCanonIsEncodingJSON(t *testing.T) {
	reqs := []ai.Request{
		{},
		{Category: "stringing", Description: "Lots of thin strings between the two towers, PETG on my Ender 3", Material: "PETG", NozzleTemp: fnum(245), PrinterBrand: "Creality Ender 3 V2"},
		{Category: "other", Description: "<b>&amp;</b> \"quoted\" \\ back\tslash\n\u2028\u2029 \x00\x1f caf\xc3\xa9 bad\xff utf8 \U0001F600",
			NozzleTemp: fnum(0), BedTemp: fnum(math.Copysign(0, -1)), LayerHeight: fnum(0.12), PrintSpeed: fnum(1e21), Infill: fnum(1e-7)},
		{NozzleTemp: fnum(123456789.125), BedTemp: fnum(1e-6), LayerHeight: fnum(9.999999e20), PrintSpeed: fnum(-2.5e-9), Infill: fnum(math.MaxFloat64)},
		{Description: "sliced", Slicer: &ai.SlicerSettings{Slicer: "PrusaSlicer 2.7", RetractionLength: fnum(0.8), FanSpeed: fnum(100)}},
		{Description: "files", Attachments: []ai.Attachment{{Name: "klippy.log", Text: "Timer too close"}, {Name: "M503.txt", Text: "M92 X80"}}},
		{Description: "nan", NozzleTemp: fnum(math.NaN())},
		{Description: "inf", Slicer: &ai.SlicerSettings{FanSpeed: fnum(math.Inf(1))}},
	}
	for i, r := range reqs {
		want := refineCanonReflect(r)
		if got := refineCanon(nil, r); !bytes.Equal(got, want) {
			t.Errorf("request %d:\n got %s\nwant %s", i, got, want)
		}
		if got := refineCanon([]byte("prefix"), r); !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("request %d after a prefix: %s", i, got)
		}
	}
}

// Signing a result and a refine token reuses keyed MAC states: keying one
// costs as much as the signing.
func TestSigningAllocations(t *testing.T) {
	keys := &keyring{store: memKeys{}}
	ts := &troubleshootAPI{keys: keys, signer: resultSigner{keys: keys}, now: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }}
	ctx := context.Background()
	req := ai.Request{Category: "stringing", Description: "Lots of thin strings between the two towers", Material: "PETG", NozzleTemp: fnum(245), PrinterBrand: "Creality Ender 3 V2"}
	res := &ai.Result{Summary: "Stringing", Steps: []ai.Step{{Title: "Dry the filament", Description: "Dry it for 4 hours.", Priority: "high"}}, AdditionalTips: []string{"Tip"}}
	token, err := ts.refineToken(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := ts.validRefineToken(ctx, token, req); !ok || err != nil {
		t.Fatalf("the token does not check: %v %v", ok, err)
	}
	req.Material = "PLA"
	if ok, _ := ts.validRefineToken(ctx, token, req); ok {
		t.Fatal("the token checks for other inputs")
	}
	sig, err := ts.signer.sign(ctx, res)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := ts.signer.valid(ctx, res, sig); !ok {
		t.Fatal("the signature does not check")
	}
	if raceDetector {
		t.Skip("allocations are not counted under the race detector")
	}
	allocs := testing.AllocsPerRun(100, func() {
		enc := encodeResult(res)
		if _, err := ts.signer.signEncoded(ctx, enc); err != nil {
			t.Fatal(err)
		}
		enc.release()
		if _, err := ts.refineToken(ctx, req); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("signing a result and a refine token: %.0f allocations, want at most 2", allocs)
	}
}

// The shared header values of securityHeaders stay as they are when a
// handler adds to a header.
func TestSecurityHeadersShared(t *testing.T) {
	e := echo.New()
	e.Use(securityHeaders("default-src 'self'", "", nil))
	e.GET("/add", func(c echo.Context) error {
		c.Response().Header().Add("X-Frame-Options", "SAMEORIGIN")
		c.Response().Header().Add("Content-Security-Policy", "sandbox")
		return c.NoContent(http.StatusNoContent)
	})
	for i := 0; i < 2; i++ {
		w := httptest.NewRecorder()
		e.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/add", nil))
		if got := w.Header().Values("X-Frame-Options"); len(got) != 2 || got[0] != "DENY" {
			t.Fatalf("request %d: X-Frame-Options %q", i, got)
		}
		if got := w.Header().Values("Content-Security-Policy"); len(got) != 2 || got[0] != "default-src 'self'" {
			t.Fatalf("request %d: Content-Security-Policy %q", i, got)
		}
	}
}

package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/photos/photostest"
)

func validTroubleshoot(mod func(m map[string]any)) string {
	m := map[string]any{
		"category": "stringing", "description": "Thin hairs between the towers after every print",
		"material": "PLA", "nozzleTemp": 215, "bedTemp": 60, "layerHeight": 0.2, "printSpeed": 60, "infill": 20,
		"printerBrand": "Creality Ender 3 V2", "images": []string{}, "screenDimensions": map[string]int{"width": 390, "height": 844},
	}
	if mod != nil {
		mod(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func jpegB64(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{200, 10, 10, 255})
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 70}); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestTroubleshootValidation(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	long := strings.Repeat("a", 2001)
	cases := []struct {
		name  string
		mod   func(m map[string]any)
		field string
		msg   string
	}{
		{"brand missing", func(m map[string]any) { m["printerBrand"] = "  " }, "printerBrand", "Please enter your printer brand"},
		{"brand long", func(m map[string]any) { m["printerBrand"] = strings.Repeat("b", 101) }, "printerBrand", "Brand must be less than 100 characters"},
		{"category missing", func(m map[string]any) { delete(m, "category") }, "category", "Please select an issue category"},
		{"category unknown", func(m map[string]any) { m["category"] = "lasers" }, "category", "Please select an issue category"},
		{"description short", func(m map[string]any) { m["description"] = "  too short " }, "description", "Please provide a detailed description (at least 10 characters)"},
		{"description long", func(m map[string]any) { m["description"] = long }, "description", "Description must be less than 2000 characters"},
		{"description control char", func(m map[string]any) { m["description"] = "stringing at 20% \x07 everywhere" }, "description",
			"Description contains invalid characters: a control character (U+0007). Remove it and try again."},
		{"description direction override", func(m map[string]any) { m["description"] = "stringing \u202eeverywhere on PETG" }, "description",
			"Description contains invalid characters: an invisible formatting character (U+202E). Remove it and try again."},
		{"material long", func(m map[string]any) { m["material"] = strings.Repeat("m", 51) }, "material", "Material must be less than 50 characters"},
		{"material zero-width space", func(m map[string]any) { m["material"] = "PLA\u200b" }, "material",
			"Material contains invalid characters: an invisible formatting character (U+200B). Remove it and try again."},
		{"material line break", func(m map[string]any) { m["material"] = "PLA\nPETG" }, "material",
			"Material contains invalid characters: a line break or tab (U+000A). Remove it and try again."},
		{"brand control char", func(m map[string]any) { m["printerBrand"] = "Ender\x00 3" }, "printerBrand",
			"Brand contains invalid characters: a control character (U+0000). Remove it and try again."},
		{"nozzle high", func(m map[string]any) { m["nozzleTemp"] = 501 }, "nozzleTemp", "Nozzle temperature must be between 0 and 500 °C"},
		{"nozzle negative", func(m map[string]any) { m["nozzleTemp"] = -1 }, "nozzleTemp", "Nozzle temperature must be between 0 and 500 °C"},
		{"bed high", func(m map[string]any) { m["bedTemp"] = 201 }, "bedTemp", "Bed temperature must be between 0 and 200 °C"},
		{"layer low", func(m map[string]any) { m["layerHeight"] = 0.01 }, "layerHeight", "Layer height must be between 0.05 and 1 mm"},
		{"speed zero", func(m map[string]any) { m["printSpeed"] = 0 }, "printSpeed", "Print speed must be between 1 and 300 mm/s"},
		{"infill high", func(m map[string]any) { m["infill"] = 101 }, "infill", "Infill must be between 0 and 100 %"},
		{"nozzle as text", func(m map[string]any) { m["nozzleTemp"] = "hot" }, "nozzleTemp", "Must be a number"},
		{"images not list", func(m map[string]any) { m["images"] = "abc" }, "images", "Must be a list"},
		{"too many images", func(m map[string]any) { m["images"] = []string{"a", "b", "c", "d", "e", "f"} }, "images", "You can attach at most 5 photos"},
		{"not an image", func(m map[string]any) {
			m["images"] = []string{base64.StdEncoding.EncodeToString([]byte("GIF89a not really"))}
		}, "images", "Image 1 is not a JPEG or PNG image"},
		{"not base64", func(m map[string]any) { m["images"] = []string{"%%%"} }, "images", "Image 1 is not valid base64 image data"},
		{"huge png header", func(m map[string]any) {
			m["images"] = []string{base64.StdEncoding.EncodeToString(photostest.PNGHeader(30000, 30000))}
		}, "images", "Image 1 is too large (30000×30000 pixels): the limit is 4 megapixels"},
		{"truncated png", func(m map[string]any) {
			m["images"] = []string{base64.StdEncoding.EncodeToString(photostest.PNGHeader(10, 10))}
		}, "images", "Image 1 is damaged and could not be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(c.mod))
			if w.Code != http.StatusBadRequest {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			e := decodeError(t, w)
			if e.Fields[c.field] != c.msg {
				t.Fatalf("fields %v, want %s=%q", e.Fields, c.field, c.msg)
			}
		})
	}
	// What makers really type is accepted as written.
	for i, words := range []struct{ desc, material, brand string }{
		{"210°C, 20% infill and it strings between towers", "PLA & PETG", "#3 printer (Ender-3 V2)"},
		{"0.4mm × 0.2 layers, blobs on the seam 🤬 <b>help</b> = ~50 % waste @ 60 mm/s", "PLA+ (eSun)", "Prusa MK4 + MMU3"},
		{"Fäden überall, Düse 210 °C, Bett 60 °C — 造形が糸を引く", "PETG-CF 👨‍🔧", "Bambu Lab X1C"},
		{"Line one of the description\nline two\twith a tab", "TPU 95A", "Sovol SV06"},
	} {
		w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
			m["description"], m["material"], m["printerBrand"] = words.desc, words.material, words.brand
		}), "RemoteAddr", fmt.Sprintf("203.0.113.%d:1", 10+i))
		if w.Code != 200 {
			t.Errorf("maker wording %q refused: %d %s", words.desc, w.Code, w.Body.String())
		}
	}
	for name, body := range map[string]string{"empty": "", "not json": "{nope", "array": "[]", "two objects": "{} {}"} {
		w := ts.do(t, "POST", "/api/troubleshoot", body, "Content-Type", "application/json")
		if w.Code != 400 {
			t.Errorf("%s body: %d", name, w.Code)
		}
	}
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "Content-Type", "text/plain"); w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", w.Code)
	}
	if n, _ := ts.store.AnonymousUsage(t.Context(), "192.0.2.1", time.Now()); n != 0 {
		t.Fatalf("rejected requests cost %d credits", n)
	}
}

func TestTroubleshootPassesEverythingToTheAnalyzer(t *testing.T) {
	fa := &fakeAnalyzer{}
	ts := newTestServer(t, nil, fa)
	img := jpegB64(t, 64, 48)
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
		m["images"] = []string{"data:image/jpeg;base64," + img, img}
		m["material"] = " PETG "
	}))
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	var res ai.Result
	json.Unmarshal(w.Body.Bytes(), &res)
	if len(res.Steps) != 3 || res.Steps[0].Priority != "high" {
		t.Fatalf("result %+v", res)
	}
	r := fa.last
	if r.Category != "stringing" || r.Material != "PETG" || *r.NozzleTemp != 215 || *r.LayerHeight != 0.2 || r.PrinterBrand != "Creality Ender 3 V2" || len(r.Photos) != 2 || r.Photos[0].MIMEType != "image/jpeg" {
		t.Fatalf("analyzer got %+v", r)
	}
}

func TestAnonymousQuotaOverHTTP(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	ts := newTestServer(t, nil, nil)
	ts.Server.now = func() time.Time { return now }
	// 20 parallel requests from one IP: exactly 3 succeed.
	count := concurrently(20, func(int) int { return ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil)).Code })
	if count[200] != 3 || count[429] != 17 {
		t.Fatalf("20 parallel requests: %v, want 3×200 and 17×429", count)
	}
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
	e := decodeError(t, w)
	if w.Code != 429 || e.Code != "PUBLIC_USAGE_LIMIT_EXCEEDED" || !strings.Contains(e.Message, "reset on December 1, 2026") {
		t.Fatalf("limit: %d %+v", w.Code, e)
	}
	// The limit screen says when the credits return.
	if w := ts.do(t, "GET", "/api/public-usage", ""); w.Body.String() != "{\"currentUsage\":3,\"resetsAt\":\"2026-12-01T00:00:00Z\"}\n" {
		t.Fatalf("public usage %q", w.Body.String())
	}
	// Another IP is unaffected.
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "[2001:db8::5]:1234"); w.Code != 200 {
		t.Fatalf("other IP: %d", w.Code)
	}
}

func TestQuotaDisabledAndConfigurable(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited"}, nil)
	for i := 0; i < 6; i++ {
		if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil)); w.Code != 200 {
			t.Fatalf("unlimited use %d: %d", i, w.Code)
		}
	}
	one := newTestServer(t, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "1"}, nil)
	one.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
	if w := one.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil)); w.Code != 429 {
		t.Fatalf("limit 1, second use: %d", w.Code)
	}
}

func TestFailedAnalysisCostsNothing(t *testing.T) {
	for name, c := range map[string]struct {
		err    error
		status int
	}{
		"provider down":         {fmt.Errorf("call: %w", ai.ErrUnavailable), 503},
		"engine fault":          {errors.New("index corrupted"), 500},
		"engine still starting": {fmt.Errorf("analyze: %w", ai.ErrEngineStarting), 503},
	} {
		t.Run(name, func(t *testing.T) {
			ts := newTestServer(t, nil, &fakeAnalyzer{err: c.err})
			w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
			e := decodeError(t, w)
			if w.Code != c.status {
				t.Fatalf("status %d", w.Code)
			}
			want := "AI analysis service is currently unavailable"
			if errors.Is(c.err, ai.ErrEngineStarting) {
				want = "still starting"
			}
			if c.status == 503 && !strings.Contains(e.Message, want) {
				t.Fatalf("503 message %q", e.Message)
			}
			if strings.Contains(w.Body.String(), "corrupted") {
				t.Fatal("internal error text leaked")
			}
			if n, _ := ts.store.AnonymousUsage(t.Context(), "192.0.2.1", time.Now()); n != 0 {
				t.Fatalf("failed analysis cost %d credits", n)
			}
		})
	}
}

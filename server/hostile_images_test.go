package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/photos/photostest"
)

func png16(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA64(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA64{R: 0xffff, A: 0xffff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func withBudget(t *testing.T, b **photos.Budget, size int64) *photos.Budget {
	t.Helper()
	old := *b
	*b = photos.NewBudget(size)
	t.Cleanup(func() { *b = old })
	return *b
}

// TestOverLimitClientGetsNoDecode: an address that used its allowance is
// refused before its images are decoded (or its body read).
func TestOverLimitClientGetsNoDecode(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	dec := withBudget(t, &photos.Decode, 128<<20)
	for i := 0; i < 3; i++ {
		if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil)); w.Code != 200 {
			t.Fatalf("analysis %d: %d", i, w.Code)
		}
	}
	img := base64.StdEncoding.EncodeToString(pngImage(t, 1500, 1500))
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) { m["images"] = []string{img, img, img} }))
	if w.Code != 429 {
		t.Fatalf("over the limit: %d", w.Code)
	}
	if p := dec.Peak(); p != 0 {
		t.Fatalf("an over-limit request decoded %d bytes of pixels", p)
	}
}

// TestExpensiveImagesRefusedFromTheirHeader: 16-bit PNGs and images over the
// analysis cap are refused without a pixel decoded and without a credit.
func TestExpensiveImagesRefusedFromTheirHeader(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	dec := withBudget(t, &photos.Decode, 128<<20)
	for _, tc := range []struct {
		name string
		img  []byte
		msg  string
	}{
		{"16-bit", png16(t, 64, 64), "Image 1 is a 16-bit PNG: export it as an 8-bit PNG or a JPEG"},
		{"over the analysis cap", pngImage(t, 2100, 2100), "Image 1 is too large (2100×2100 pixels): the limit is 4 megapixels"},
	} {
		w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
			m["images"] = []string{base64.StdEncoding.EncodeToString(tc.img)}
		}))
		if w.Code != 400 || decodeError(t, w).Fields["images"] != tc.msg {
			t.Errorf("%s: %d %s", tc.name, w.Code, w.Body.String())
		}
	}
	if p := dec.Peak(); p != 0 {
		t.Fatalf("refused images were decoded (%d bytes)", p)
	}
	if n, _ := ts.store.AnonymousUsage(t.Context(), "192.0.2.1", ts.now()); n != 0 {
		t.Fatalf("refused images cost %d credits", n)
	}
}

// TestDecodeBudgetBoundsConcurrentDecodes: many concurrent analyses and
// uploads never hold more decoded pixels than the budget.
func TestDecodeBudgetBoundsConcurrentDecodes(t *testing.T) {
	ws := newWorkspace(t, nil)
	dec := withBudget(t, &photos.Decode, 40<<20) // room for about two 1500×1500 decodes
	ada := ws.user(t, "ada@example.com")
	img := pngImage(t, 1500, 1500) // 9 MB decoded
	var wg sync.WaitGroup
	codes := make(chan int, 16)
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func(i int) {
			defer wg.Done()
			ct, body := multipartImages(t, map[string][]byte{"a.png": img}, "a.png")
			codes <- ws.upload(t, ada, ct, body).Code
		}(i)
		go func(i int) {
			defer wg.Done()
			codes <- ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
				m["images"] = []string{base64.StdEncoding.EncodeToString(img)}
			}), "RemoteAddr", "198.51.100."+string(rune('1'+i))+":1").Code
		}(i)
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Errorf("a request under load got %d", c)
		}
	}
	if p := dec.Peak(); p == 0 || p > dec.Size() {
		t.Fatalf("decode high-water mark %d, budget %d", p, dec.Size())
	}
	if dec.InUse() != 0 {
		t.Fatalf("%d bytes of budget never released", dec.InUse())
	}
}

// TestPhotosReachTheAIWithoutMetadata: EXIF (GPS) and comments are cut from
// an API client's photo before the analyzer (Gemini) sees it.
func TestPhotosReachTheAIWithoutMetadata(t *testing.T) {
	an := &fakeAnalyzer{}
	ts := newTestServer(t, nil, an)
	raw := photostest.JPEGWithGPS(t)
	if !bytes.Contains(raw, []byte("Exif")) {
		t.Fatal("fixture has no Exif")
	}
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
		m["images"] = []string{base64.StdEncoding.EncodeToString(raw)}
	}))
	if w.Code != 200 {
		t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
	}
	got := an.last.Photos
	if len(got) != 1 {
		t.Fatalf("%d photos reached the analyzer", len(got))
	}
	for _, secret := range []string{"Exif", "GPS", "home address"} {
		if bytes.Contains(got[0].Data, []byte(secret)) {
			t.Errorf("%q reached the analyzer", secret)
		}
	}
	if _, _, err := image.Decode(bytes.NewReader(got[0].Data)); err != nil {
		t.Fatalf("the stripped photo no longer decodes: %v", err)
	}
}

// TestSmallRoutesReadLittle: a 14 MB email is refused after reading the
// small-route limit, and a JSON body without Content-Type is refused.
func TestSmallRoutesReadLittle(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	body := &countingReader{r: strings.NewReader(`{"email":"` + strings.Repeat("a", 14<<20) + `@x.io","password":"x"}`)}
	req := httptest.NewRequest("POST", "/api/auth/login", body)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, req)
	if w.Code != 413 || body.n > maxSmallJSON+64<<10 {
		t.Fatalf("14 MB login: %d after reading %d bytes", w.Code, body.n)
	}
	for _, ct := range []string{"", "text/plain"} {
		r := httptest.NewRequest("POST", "/api/troubleshoot", strings.NewReader(validTroubleshoot(nil)))
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		w := httptest.NewRecorder()
		ts.h.ServeHTTP(w, r)
		if w.Code != 415 {
			t.Errorf("Content-Type %q: %d", ct, w.Code)
		}
	}
	if n, _ := ts.store.AnonymousUsage(context.Background(), "192.0.2.1", ts.now()); n != 0 {
		t.Fatalf("refused bodies cost %d credits", n)
	}
}

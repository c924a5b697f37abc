package server

import (
	"bytes"
	"encoding/base64"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/photos/photostest"
)

// FuzzJSONRoutes posts arbitrary bodies to the JSON routes a stranger can
// reach: every answer is a 2xx or a 4xx in the JSON error shape, never a
// 5xx or a panic.
func FuzzJSONRoutes(f *testing.F) {
	routes := []string{"/api/troubleshoot", "/api/troubleshoot/refine", "/api/auth/signup", "/api/auth/login",
		"/api/auth/password-reset", "/api/auth/password-update", "/api/auth/verify-email", "/api/share-results"}
	f.Add(uint8(0), validTroubleshootSeed())
	f.Add(uint8(2), `{"email":"a@b.co","password":"xxxxxxxx","displayName":"A\u0301\u0301\u0301\u0301"}`)
	f.Add(uint8(3), `{"email":"`+strings.Repeat("a", 300)+`@x.io","password":"p"}`)
	f.Add(uint8(7), `{"title":"t","troubleshootingData":{"summary":"s","steps":[],"additionalTips":[]},"signature":"x"}`)
	f.Add(uint8(1), `{"category":"other","description":"long enough text","printerBrand":"x","answers":{"same-height":true},"refineToken":"1.AA"}`)
	f.Add(uint8(0), `{"category":"heating-issues","description":"heater fault at 200 C","printerBrand":"Voron","attachments":[{"name":"klippy.log","text":"password: x\u0000 \ud800\udc00 \udc00"}]}`)
	f.Add(uint8(1), `{"category":"other","description":"long enough text","printerBrand":"x","answers":{"a":true},"refineToken":"1.AA","attachments":[{"name":"a/b","text":"\\u\u00e9"}]}`)
	f.Add(uint8(0), `{"images":["`+base64.StdEncoding.EncodeToString(photostest.PNGHeader(3000, 3000))+`"]}`)
	ts := fuzzServer(f)
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := routes[int(which)%len(routes)]
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = "192.0.2.9:1"
		w := httptest.NewRecorder()
		ts.h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %q: %d %s", path, body, w.Code, w.Body.String())
		}
		if w.Code >= 400 && !bytes.Contains(w.Body.Bytes(), []byte(`"error"`)) {
			t.Fatalf("%s: %d without the error shape: %s", path, w.Code, w.Body.String())
		}
	})
}

func validTroubleshootSeed() string {
	return `{"category":"stringing","description":"Thin hairs between the towers 210°C & 20%","printerBrand":"Ender 3","images":[]}`
}

// fuzzServer is one test server for every fuzz input, with no quota.
func fuzzServer(f *testing.F) *testServer {
	f.Helper()
	return newTestServer(f, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited"}, nil)
}

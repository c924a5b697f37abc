package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store/storetest"
)

// benchTroubleshootBody is the analysis make bench-http sends.
const benchTroubleshootBody = `{"category":"stringing","description":"Lots of thin strings between the two towers, PETG on my Ender 3","material":"PETG","nozzleTemp":245,"printerBrand":"Creality Ender 3 V2","images":[]}`

// BenchmarkTroubleshoot is POST /api/troubleshoot with the quota lifted,
// through the real Echo instance and the built-in engine, logging at the
// error level as make bench-http runs it; BenchmarkBareEcho is the JSON
// handler it is compared with there.
func BenchmarkTroubleshoot(b *testing.B) {
	engine, err := ai.NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	cfg := testConfig(b, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited"})
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))
	s, err := New(cfg, Deps{Store: storetest.Open(b), Analyzer: engine, Refiner: engine, Learner: engine, Frontend: testFrontend, Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	benchPost(b, s.Handler(), "/api/troubleshoot", benchTroubleshootBody)
}

// BenchmarkTroubleshootEdge is BenchmarkTroubleshoot with the engine's
// answer worked out once: the server's own share of an analysis (the
// middleware, decoding and checks, encoding, signing, writing).
func BenchmarkTroubleshootEdge(b *testing.B) {
	engine := sharedEngine(b)
	var in troubleshootRequest
	if err := json.Unmarshal([]byte(benchTroubleshootBody), &in); err != nil {
		b.Fatal(err)
	}
	in.validate()
	req := in.request()
	req.PrinterBrand = in.PrinterBrand
	res, err := engine.Analyze(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	cfg := testConfig(b, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited"})
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))
	s, err := New(cfg, Deps{Store: storetest.Open(b), Analyzer: answered{res}, Refiner: engine, Frontend: testFrontend, Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	benchPost(b, s.Handler(), "/api/troubleshoot", benchTroubleshootBody)
}

// answered answers every request with a copy of one result.
type answered struct{ res *ai.Result }

func (a answered) Analyze(context.Context, ai.Request) (*ai.Result, error) {
	res := *a.res
	return &res, nil
}

func BenchmarkBareEcho(b *testing.B) {
	e := echo.New()
	e.GET("/hello", func(c echo.Context) error { return c.JSON(200, map[string]string{"hello": "world"}) })
	benchPost(b, e, "/hello", "")
}

func benchPost(b *testing.B, h http.Handler, path, body string) {
	method := "GET"
	if body != "" {
		method = "POST"
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(method, "http://layerfix.test"+path, strings.NewReader(body))
			req.RemoteAddr = "192.0.2.1:40000"
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("%s: %d %s", path, w.Code, w.Body.String())
			}
		}
	})
}

package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// Prometheus metrics, opt-in (LAYERFIX_METRICS=on serves /metrics on the
// main address; LAYERFIX_METRICS_ADDR serves it on a separate, private
// one). Labels are route templates and fixed words, never ids or user
// input, so the series stay few.
type metrics struct {
	routes     map[string]bool // route templates, set once every route is registered
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	analyses   *prometheus.CounterVec
	quota      *prometheus.CounterVec
	photoBytes prometheus.Counter
}

func newMetrics(st *store.Store) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "layerfix_http_requests_total", Help: "HTTP requests by route template, method and status.",
	}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "layerfix_http_request_duration_seconds", Help: "HTTP request latency by route template and method.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"route", "method"})
	m.analyses = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "layerfix_analyses_total", Help: "Analyses by engine (built-in, gemini, fallback) and outcome (ok, error).",
	}, []string{"engine", "outcome"})
	m.quota = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "layerfix_quota_refusals_total", Help: "Requests refused because a monthly allowance is used up, by error code.",
	}, []string{"code"})
	m.photoBytes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "layerfix_photo_bytes_stored_total", Help: "Bytes of photos stored since start.",
	})
	m.reg.MustRegister(m.requests, m.latency, m.analyses, m.quota, m.photoBytes,
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "layerfix_gemini_retries_total", Help: "Gemini calls repeated after a rate limit, a server error or an invalid reply.",
		}, func() float64 { return float64(ai.GeminiRetries()) }),
		geminiFailures{prometheus.NewDesc("layerfix_gemini_failures_total", "Analyses Gemini failed, by reason (answered by the built-in engine when the fallback is on).", []string{"reason"}, nil)},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	if st != nil {
		w, r := st.DBs()
		m.reg.MustRegister(collectors.NewDBStatsCollector(w, "writer"))
		if r != w {
			m.reg.MustRegister(collectors.NewDBStatsCollector(r, "reader"))
		}
	}
	return m
}

// geminiFailures reads the fallback counts the ai package keeps.
type geminiFailures struct{ desc *prometheus.Desc }

func (g geminiFailures) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g geminiFailures) Collect(ch chan<- prometheus.Metric) {
	for reason, n := range ai.FallbackCounts() {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.CounterValue, float64(n), reason)
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// middleware counts every request by its route template (the SPA's pages
// all count as "spa") and the allowance refusals by code. Method, route and
// status come from a fixed set each, whatever the client sends, so the
// number of series stays bounded.
func (m *metrics) middleware(basePath string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			status := c.Response().Status
			var ae *APIError
			if errors.As(err, &ae) {
				status = ae.Status
				if ae.Code == CodePublicLimit || ae.Code == codeUsageLimit {
					m.quota.WithLabelValues(ae.Code).Inc()
				}
			} else if he := (*echo.HTTPError)(nil); errors.As(err, &he) {
				status = he.Code
			} else if err != nil {
				status = http.StatusInternalServerError
			}
			route, method := m.routeLabel(c.Path(), basePath), methodLabel(c.Request().Method)
			m.requests.WithLabelValues(route, method, statusLabel(status)).Inc()
			m.latency.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
			return err
		}
	}
}

// setRoutes records the route templates the labels may name.
func (m *metrics) setRoutes(routes []*echo.Route, basePath string) {
	known := map[string]bool{}
	for _, r := range routes {
		known[m.routeLabel(r.Path, basePath)] = true
	}
	m.routes = known
}

// routeLabel is the route template without the base path; the app's pages
// are "spa", anything that is not a registered template "other".
func (m *metrics) routeLabel(path, basePath string) string {
	route := strings.TrimPrefix(path, basePath)
	if route == "" || route == "/*" || route == "/" {
		return "spa"
	}
	if m.routes != nil && !m.routes[route] {
		return "other"
	}
	return route
}

// methodLabel is the request method when HTTP defines it, else "other".
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}

// statusLabel is the status code when it is one, else "other".
func statusLabel(status int) string {
	if status < 100 || status > 599 {
		return "other"
	}
	return strconv.Itoa(status)
}

// analyzer counts analyses by the engine that answered.
func (m *metrics) analyzer(an ai.Analyzer) ai.Analyzer { return countingAnalyzer{an, m} }

type countingAnalyzer struct {
	ai.Analyzer
	m *metrics
}

func (c countingAnalyzer) Analyze(ctx context.Context, req ai.Request) (*ai.Result, error) {
	res, err := c.Analyzer.Analyze(ctx, req)
	if err != nil {
		engine := ai.EngineBuiltIn
		if errors.Is(err, ai.ErrUnavailable) {
			engine = ai.EngineGemini // Gemini failed and the fallback is off
		}
		c.m.analyses.WithLabelValues(engine, "error").Inc()
		return res, err
	}
	engine := res.Engine
	if engine == "" {
		engine = "other"
	}
	c.m.analyses.WithLabelValues(engine, "ok").Inc()
	return res, nil
}

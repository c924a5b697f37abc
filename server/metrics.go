package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
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
		Name: "layerfix_analyses_total", Help: "Analyses by the engine that answered (built-in, gemini, openai: the operator's OpenAI-compatible model, fallback: the built-in one after the model failed) and outcome (ok, error).",
	}, []string{"engine", "outcome"})
	for _, e := range analysisEngines {
		for _, o := range []string{"ok", "error"} {
			m.analyses.WithLabelValues(e, o)
		}
	}
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
		aiFailures{prometheus.NewDesc("layerfix_gemini_failures_total", "Analyses Gemini failed, by reason (answered by the built-in engine when the fallback is on).", []string{"reason"}, nil), ai.EngineGemini},
		aiFailures{prometheus.NewDesc("layerfix_openai_failures_total", "Analyses the OpenAI-compatible model failed, by reason (answered by the built-in engine when the fallback is on).", []string{"reason"}, nil), ai.EngineOpenAI},
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

// aiFailures reads the failure counts the ai package keeps for a remote
// engine.
type aiFailures struct {
	desc   *prometheus.Desc
	engine string
}

func (g aiFailures) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g aiFailures) Collect(ch chan<- prometheus.Metric) {
	for reason, n := range ai.FailureCounts(g.engine) {
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

// analysisEngines is the engine label's fixed set of values.
var analysisEngines = []string{ai.EngineBuiltIn, ai.EngineGemini, ai.EngineOpenAI, ai.EngineFallback}

// analyzer counts analyses by the engine that answered, and names the
// remote model in layerfix_ai_model_info.
func (m *metrics) analyzer(an ai.Analyzer) ai.Analyzer {
	if r, ok := an.(ai.Remote); ok {
		engine, model, _ := r.Answerer()
		info := prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "layerfix_ai_model_info", Help: "The remote model that answers analyses (set by the operator), by engine (gemini, openai) and model.",
		}, []string{"engine", "model"})
		info.WithLabelValues(engine, model).Set(1)
		m.reg.MustRegister(info)
	}
	return countingAnalyzer{an, m}
}

type countingAnalyzer struct {
	ai.Analyzer
	m *metrics
}

func (c countingAnalyzer) Analyze(ctx context.Context, req ai.Request) (*ai.Result, error) {
	res, err := c.Analyzer.Analyze(ctx, req)
	if err != nil {
		engine := ai.EngineBuiltIn
		var pe *ai.ProviderError
		switch {
		case errors.As(err, &pe) && pe.Engine != "":
			engine = pe.Engine // the model failed and the fallback is off
		case errors.Is(err, ai.ErrUnavailable):
			engine = ai.EngineGemini
		}
		c.m.analyses.WithLabelValues(knownEngine(engine), "error").Inc()
		return res, err
	}
	c.m.analyses.WithLabelValues(knownEngine(res.Engine), "ok").Inc()
	return res, nil
}

// knownEngine keeps the engine label in its fixed set.
func knownEngine(e string) string {
	if slices.Contains(analysisEngines, e) {
		return e
	}
	return "other"
}

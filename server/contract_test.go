package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// contractRouter finds a request's operation in the committed document.
var contractRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// maxCheckedBody bounds the answer kept for checking; a larger one (a long
// streamed log) is passed on unchecked.
const maxCheckedBody = 8 << 20

// checkContract wraps a test server's handler: every answer to a route of
// the OpenAPI document must match it (status documented, JSON body of the
// documented schema), else the test fails.
func checkContract(t testing.TB, h http.Handler) http.Handler {
	router, err := contractRouter()
	if err != nil {
		t.Fatalf("load the OpenAPI document: %v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := router.FindRoute(r)
		if err != nil {
			h.ServeHTTP(w, r)
			return
		}
		rec := &contractRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.over {
			return
		}
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		ct := w.Header().Get("Content-Type")
		opts := &openapi3filter.Options{IncludeResponseStatus: true}
		// Only JSON answers are checked field by field; downloads (zip,
		// CSV, text, photos) by their status.
		if r.Method == http.MethodHead || !strings.HasPrefix(ct, "application/json") {
			opts.ExcludeResponseBody = true
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route},
			Status:                 status,
			Header:                 w.Header(),
			Body:                   io.NopCloser(bytes.NewReader(rec.body.Bytes())),
			Options:                opts,
		}
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			body := rec.body.String()
			if len(body) > 300 {
				body = body[:300] + "…"
			}
			t.Errorf("%s %s answered %d off the OpenAPI document: %v\nbody: %s", r.Method, r.URL.Path, status, contractErr(err.Error()), body)
		}
	})
}

func contractErr(s string) string {
	if os.Getenv("CONTRACT_VERBOSE") != "" {
		return s
	}
	if i := strings.Index(s, "\n"); i > 0 {
		return s[:i]
	}
	return s
}

// contractRecorder passes an answer on and keeps a copy of it.
type contractRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
	over   bool
}

func (c *contractRecorder) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *contractRecorder) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if !c.over {
		if c.body.Len()+len(b) > maxCheckedBody {
			c.over = true
			c.body.Reset()
		} else {
			c.body.Write(b)
		}
	}
	return c.ResponseWriter.Write(b)
}

func (c *contractRecorder) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *contractRecorder) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (c *contractRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(c.ResponseWriter).Hijack()
}

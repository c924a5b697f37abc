package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
)

// APIError is the one JSON error shape of every API response:
// {"error":{"code":"...","message":"...","fields":{...}}}.
type APIError struct {
	Status  int               `json:"-"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Error codes.
const (
	CodeValidation      = "VALIDATION"
	CodeBadRequest      = "BAD_REQUEST"
	CodeNotFound        = "NOT_FOUND"
	CodeTooLarge        = "REQUEST_TOO_LARGE"
	CodeRateLimited     = "RATE_LIMITED"
	CodePublicLimit     = "PUBLIC_USAGE_LIMIT_EXCEEDED"
	CodeAIUnavailable   = "AI_UNAVAILABLE"
	CodeInternal        = "INTERNAL"
	CodeAnalysisFailed  = "ANALYSIS_FAILED"
	CodeMethodNotAllowd = "METHOD_NOT_ALLOWED"
	CodeUnsupportedType = "UNSUPPORTED_MEDIA_TYPE"
)

func apiErr(status int, code, msg string) *APIError {
	return &APIError{Status: status, Code: code, Message: msg}
}

func validationErr(fields map[string]string) *APIError {
	// The message repeats the first field's text so simple clients can show it.
	msg := "Please correct the highlighted fields."
	for _, k := range sortedKeys(fields) {
		msg = fields[k]
		break
	}
	return &APIError{Status: http.StatusBadRequest, Code: CodeValidation, Message: msg, Fields: fields}
}

func notFoundErr(what string) *APIError {
	return apiErr(http.StatusNotFound, CodeNotFound, what+" not found")
}

// storeErr maps a store error for one resource: a row that does not exist
// (or is not the caller's) becomes a 404 naming what, anything else passes
// through, nil stays nil.
func storeErr(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFoundErr(what)
	}
	return err
}

// panicError is a recovered panic: the client gets api, a 500 in the one
// JSON error shape, and the log gets the panic and its stack, once.
type panicError struct {
	value any
	stack []byte
	api   *APIError
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

func (e *panicError) Unwrap() error {
	if e.api == nil {
		return nil
	}
	return e.api
}

// LogValue makes a logged panicError carry its stack.
func (e *panicError) LogValue() slog.Value {
	return slog.GroupValue(slog.String("panic", fmt.Sprint(e.value)), slog.String("stack", string(e.stack)))
}

// recovered wraps the value of recover(), called in the deferred function
// of the panicking goroutine, whose stack still holds the panic's frames.
func recovered(value any, api *APIError) *panicError {
	buf := make([]byte, 16<<10)
	return &panicError{value: value, stack: buf[:runtime.Stack(buf, false)], api: api}
}

// guardAnalysis is deferred by every handler that runs an analysis. Only a
// delivered analysis costs a credit: when the handler answers an error or
// panics (a rule of the engine, the signer, the store), refund gives back
// the credits it took (nil: it takes none). A panic becomes a 500 that says
// so; its stack is logged once, by the error handler.
func guardAnalysis(err *error, refund func()) {
	r := recover()
	if r == http.ErrAbortHandler {
		if refund != nil {
			refund()
		}
		panic(r)
	}
	if r != nil {
		*err = recovered(r, apiErr(http.StatusInternalServerError, CodeAnalysisFailed,
			"The analysis failed because of a fault on our side. It did not use a credit: please try again."))
	}
	if *err != nil && refund != nil {
		refund()
	}
}

// errorHandler turns every error into the JSON shape (under /api) and logs
// server faults with their cause (a panic with its stack); the client never
// sees internals.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var ae *APIError
	var he *echo.HTTPError
	// An APIError is an answer the code chose; whoever chose it logged its
	// cause, if it has one. Only other errors and panics (with their stack)
	// are faults to log here.
	chosen := errors.As(err, &ae)
	switch {
	case chosen:
	case errors.As(err, &he):
		ae = fromEchoError(he)
	default:
		ae = apiErr(http.StatusInternalServerError, CodeInternal, "Something went wrong on our side. Please try again.")
	}
	var pe *panicError
	if errors.As(err, &pe) || (!chosen && ae.Status >= 500) {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path,
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err)
	}
	if c.Request().Method == http.MethodHead {
		err = c.NoContent(ae.Status)
	} else {
		err = c.JSON(ae.Status, map[string]*APIError{"error": ae})
	}
	if err != nil {
		s.log.Warn("write error response", "err", err)
	}
}

func fromEchoError(he *echo.HTTPError) *APIError {
	status := he.Code
	msg := http.StatusText(status)
	if m, ok := he.Message.(string); ok && m != "" {
		msg = m
	}
	switch status {
	case http.StatusNotFound:
		return apiErr(status, CodeNotFound, "No API endpoint here: check the path.")
	case http.StatusMethodNotAllowed:
		return apiErr(status, CodeMethodNotAllowd, "This method is not allowed here.")
	case http.StatusRequestEntityTooLarge:
		return apiErr(status, CodeTooLarge, "request entity too large: the limit is "+humanBytes(maxJSONBody)+".")
	case http.StatusUnsupportedMediaType:
		return apiErr(status, CodeUnsupportedType, "Send the body as application/json.")
	case http.StatusTooManyRequests:
		return apiErr(status, CodeRateLimited, "Too many requests. Please wait a moment and try again.")
	}
	if status >= 500 {
		return apiErr(status, CodeInternal, "Something went wrong on our side. Please try again.")
	}
	return apiErr(status, CodeBadRequest, msg)
}

// bindJSON decodes a JSON body strictly enough to give a clear message for
// every mistake: wrong type names the field, syntax errors say where.
func bindJSON(c echo.Context, dst any) error {
	if err := requireJSON(c); err != nil {
		return err
	}
	return decodeJSON(c, c.Request().Body, dst)
}

// requireJSON refuses a body not sent as application/json. No Content-Type
// is refused too: a cross-site no-cors fetch can send a body without one
// (or as text/plain) but never as application/json.
func requireJSON(c echo.Context) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); !strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), echo.MIMEApplicationJSON) {
		return apiErr(http.StatusUnsupportedMediaType, CodeUnsupportedType, "Send the body as application/json.")
	}
	return nil
}

// decodeJSON decodes the single JSON value body holds into dst.
func decodeJSON(c echo.Context, body io.Reader, dst any) error {
	dec := json.NewDecoder(body)
	if err := dec.Decode(dst); err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			return bodyTooLarge(c, mbe.Limit)
		}
		return decodeErr(err)
	}
	if dec.More() {
		return apiErr(http.StatusBadRequest, CodeBadRequest, "The body must hold a single JSON object.")
	}
	return nil
}

func decodeErr(err error) error {
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &mbe):
		return tooLargeErr(mbe.Limit)
	case errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge:
		return fromEchoError(echo.ErrStatusRequestEntityTooLarge)
	case errors.As(err, &te):
		// Embedded request structs show up in the path; clients know only JSON names.
		field := strings.TrimPrefix(te.Field, "issueFields.")
		if field == "" {
			return apiErr(http.StatusBadRequest, CodeBadRequest, "The body must be a JSON object.")
		}
		return &APIError{Status: http.StatusBadRequest, Code: CodeValidation,
			Message: fmt.Sprintf("%s must be a %s", field, jsonKind(te.Type.Kind().String())),
			Fields:  map[string]string{field: fmt.Sprintf("Must be a %s", jsonKind(te.Type.Kind().String()))}}
	case errors.As(err, &se):
		return apiErr(http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("The body is not valid JSON (at byte %d).", se.Offset))
	case errors.Is(err, io.EOF), strings.Contains(err.Error(), "unexpected EOF"):
		return apiErr(http.StatusBadRequest, CodeBadRequest, "The body is empty or cut short: send a JSON object.")
	case strings.Contains(err.Error(), "request entity too large"), strings.Contains(err.Error(), "http: request body too large"):
		return fromEchoError(echo.ErrStatusRequestEntityTooLarge)
	}
	return apiErr(http.StatusBadRequest, CodeBadRequest, "The body could not be read as JSON.")
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "number"
	case k == "string":
		return "string"
	case k == "slice", k == "array":
		return "list"
	case k == "bool":
		return "true or false"
	}
	return "JSON object"
}

func humanBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n/(1<<10))
	}
	return fmt.Sprintf("%d MB", n/(1<<20))
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// budgetErr maps a budget failure to its answer.
func budgetErr(err error) error {
	switch {
	case errors.Is(err, photos.ErrBusy):
		return apiErr(http.StatusTooManyRequests, "BUSY", "The server is busy processing photos. Please try again in a minute.")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return apiErr(499, "CLIENT_CLOSED", "The request was cancelled.")
	}
	return err
}

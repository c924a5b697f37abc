package server

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
)

// maxJSONBody bounds the JSON body of an analysis (photos travel base64
// inside); every other JSON route takes far less (the route table's BodyLimit).
const maxJSONBody = 15 << 20

// maxSmallJSON bounds the body of every JSON route not listed in
// the route table with a BodyLimit: sign-in forms, printers, issues, answers.
const maxSmallJSON = 64 << 10

// attachmentRoutes are the POST routes that take attachments; their 413
// says the attachments' limit too.
var attachmentRoutes = []string{"/api/troubleshoot", "/api/troubleshoot/refine", "/api/issues", "/api/issues/from-analysis"}

// bodyTooLarge is the 413 of a body over limit bytes on c's route.
func bodyTooLarge(c echo.Context, limit int64) *APIError {
	e := tooLargeErr(limit)
	for _, r := range attachmentRoutes {
		if c.Request().Method == http.MethodPost && strings.HasSuffix(c.Path(), r) {
			e.Message += fmt.Sprintf(" Attachments can hold at most %d KB of text in all.", ai.MaxAttachmentBytes>>10)
			break
		}
	}
	return e
}

// routeBodyLimit refuses bodies over the matched route's limit (every route,
// pages and probes included, so no body goes unbounded): at once when
// Content-Length says so, otherwise while reading, never reading more than
// limit+1 bytes.
func routeBodyLimit(limits map[string]int64, basePath string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			limit, ok := limits[req.Method+" "+strings.TrimPrefix(c.Path(), basePath)]
			if !ok {
				limit = maxSmallJSON
			}
			w := c.Response().Writer
			if req.ContentLength > limit {
				// Refused unread, and the connection closed at once: the
				// server would otherwise wait to drain the body first.
				c.Response().Header().Set(echo.HeaderConnection, "close")
				setReadDeadline(w, time.Now())
				return bodyTooLarge(c, limit)
			}
			if req.ContentLength != 0 {
				// A body trickled in byte by byte holds a connection only as
				// long as a real client on a slow line needs for this size.
				// The deadline ends with the body: it must not cut the answer.
				setReadDeadline(w, time.Now().Add(readTimeFor(limit)))
				// The server's own writer: past the limit it closes the connection too.
				req.Body = http.MaxBytesReader(w, &deadlineBody{ReadCloser: req.Body, w: w}, limit)
			}
			return next(c)
		}
	}
}

// deadlineBody lifts the connection's read deadline once the body is read:
// the server goes on reading the connection while the answer is written
// (to notice a client that left), and a deadline passing then would cancel
// the request.
type deadlineBody struct {
	io.ReadCloser
	w    http.ResponseWriter
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		setReadDeadline(b.w, time.Time{})
	}
	return n, err
}

// setReadDeadline sets the read deadline of w's connection, when the
// server's writer is behind w (a test's recorder has none).
func setReadDeadline(w http.ResponseWriter, t time.Time) {
	_ = http.NewResponseController(w).SetReadDeadline(t)
}

// Read deadlines by body size: a small JSON form must arrive in seconds;
// an analysis with photos or a photo upload may take a phone on a weak
// uplink a minute or two.
var (
	smallBodyReadTime = 10 * time.Second
	largeBodyReadTime = time.Minute
	uploadReadTime    = 2 * time.Minute
)

func readTimeFor(limit int64) time.Duration {
	switch {
	case limit <= 1<<20:
		return smallBodyReadTime
	case limit <= maxJSONBody+maxAttachmentsJSON:
		return largeBodyReadTime
	}
	return uploadReadTime
}

// tooLargeErr is the 413 of a body over limit bytes.
func tooLargeErr(limit int64) *APIError {
	return apiErr(http.StatusRequestEntityTooLarge, CodeTooLarge, "request entity too large: the limit is "+humanBytes(limit)+".")
}

// requestLogger writes one slog line per request. The path is logged
// without its query string, and no header or body is logged, so tokens
// and photos never reach the log. The caller's address is worked out only
// for a line the logger's level lets through.
func requestLogger(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogMethod: true, LogURIPath: true, LogStatus: true, LogLatency: true,
		LogRequestID: true, LogResponseSize: true,
		HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			switch {
			case serverFault(v.Status):
				level = slog.LevelError
			case strings.HasSuffix(v.URIPath, "/healthz") && v.Status == http.StatusOK:
				level = slog.LevelDebug // probes every few seconds would drown the log
			}
			ctx := c.Request().Context()
			if !log.Enabled(ctx, level) {
				return nil
			}
			log.LogAttrs(ctx, level, "request",
				slog.String("method", v.Method), slog.String("path", v.URIPath),
				slog.Int("status", v.Status), slog.Duration("duration", v.Latency),
				slog.String("request_id", v.RequestID), slog.String("ip", c.RealIP()),
				slog.Int64("bytes", v.ResponseSize))
			return nil
		},
	})
}

// serverFault reports whether a response status is the server's own
// failure. A 503 is a refusal the server means to give (billing off, a
// provider or the database not answering, whose cause is logged where it is
// found), and every visitor can provoke one, so it is not an error.
func serverFault(status int) bool {
	return status >= 500 && status != http.StatusServiceUnavailable
}

// recoverer turns a panic into a JSON 500; the error handler logs the
// stack.
func recoverer() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if r := recover(); r != nil {
					if r == http.ErrAbortHandler {
						panic(r)
					}
					err = recovered(r, apiErr(http.StatusInternalServerError, CodeInternal, "Something went wrong on our side. Please try again."))
				}
			}()
			return next(c)
		}
	}
}

// securityHeaders sets the CSP and friends on every response. The values
// are made once and shared by every response: a handler replaces a header
// (Set, Add) but never writes into its value list.
//
// Under /api/ the answers are data (JSON, a zip, a photo, a text file),
// never a page: they get the policy OWASP gives for APIs, which lets them
// load nothing and be framed by nobody, and not the headers that only a
// document uses (Permissions-Policy, Cross-Origin-Opener-Policy, the app's
// sources). About 420 bytes less per answer: a typical analysis then
// leaves in one write instead of two.
func securityHeaders(csp, basePath string, trusted []*net.IPNet) echo.MiddlewareFunc {
	type header struct {
		name  string
		value []string
	}
	page := [...]header{
		{"Content-Security-Policy", []string{csp}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Permissions-Policy", []string{"camera=(), microphone=(), geolocation=(), payment=(self \"https://js.stripe.com\")"}},
		{"Cross-Origin-Opener-Policy", []string{"same-origin-allow-popups"}},
	}
	api := [...]header{
		{"Content-Security-Policy", []string{apiCSP}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"no-referrer"}},
		{"X-Frame-Options", []string{"DENY"}},
	}
	hsts := []string{"max-age=63072000; includeSubDomains"}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			if isAPIPath(c.Request().URL.Path, basePath) {
				for _, v := range api {
					h[v.name] = v.value // names in canonical form
				}
			} else {
				for _, v := range page {
					h[v.name] = v.value
				}
			}
			if secureRequest(c.Request(), trusted) {
				h["Strict-Transport-Security"] = hsts
			}
			return next(c)
		}
	}
}

// apiCSP is the Content-Security-Policy of every answer under /api/.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// isAPIPath reports whether a request path is the API's: /api or under
// /api/, after the base path.
func isAPIPath(p, basePath string) bool {
	p = strings.TrimPrefix(p, basePath)
	return p == "/api" || strings.HasPrefix(p, "/api/")
}

// contentSecurityPolicy allows the app's own origin plus exactly what the
// configured third parties (analytics, Stripe, Firebase) need.
func contentSecurityPolicy(cfg *config.Config, extra CSPSources) string {
	script := []string{"'self'"}
	connect := []string{"'self'"}
	img := []string{"'self'", "data:", "blob:"}
	frame := []string{}
	if cfg.GAMeasurementID != "" {
		script = append(script, "https://www.googletagmanager.com")
		connect = append(connect, "https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.googletagmanager.com")
		img = append(img, "https://*.google-analytics.com", "https://www.googletagmanager.com")
	}
	if cfg.MetaPixelID != "" {
		script = append(script, "https://connect.facebook.net")
		connect = append(connect, "https://www.facebook.com", "https://connect.facebook.net")
		img = append(img, "https://www.facebook.com")
	}
	script = append(script, extra.Script...)
	connect = append(connect, extra.Connect...)
	frame = append(frame, extra.Frame...)
	img = append(img, extra.Img...)
	parts := []string{
		"default-src 'self'",
		"script-src " + strings.Join(script, " "),
		"style-src 'self' 'unsafe-inline'",
		"img-src " + strings.Join(img, " "),
		"font-src 'self' data:",
		"connect-src " + strings.Join(connect, " "),
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}
	if len(frame) > 0 {
		parts = append(parts, "frame-src "+strings.Join(frame, " "))
	} else {
		parts = append(parts, "frame-src 'none'")
	}
	return strings.Join(parts, "; ")
}

// CSPSources are origins a configured integration (Stripe, Firebase) adds.
type CSPSources struct {
	Script, Connect, Frame, Img []string
}

// ipExtractor believes X-Forwarded-For only from trusted proxies.
func ipExtractor(trusted []*net.IPNet, v6Prefix int) echo.IPExtractor {
	base := echo.ExtractIPDirect()
	if len(trusted) > 0 {
		opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
		for _, n := range trusted {
			opts = append(opts, echo.TrustIPRange(n))
		}
		base = echo.ExtractIPFromXFFHeader(opts...)
	}
	return func(r *http.Request) string { return clientNetwork(base(r), v6Prefix) }
}

// secureRequest reports whether the request came over HTTPS: directly, or
// through a proxy of LAYERFIX_TRUSTED_PROXIES that says so in
// X-Forwarded-Proto. Anyone else's forwarding headers are ignored.
func secureRequest(r *http.Request, trusted []*net.IPNet) bool {
	if r.TLS != nil {
		return true
	}
	if proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ","); !strings.EqualFold(strings.TrimSpace(proto), "https") {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer := net.ParseIP(host)
	for _, n := range trusted {
		if peer != nil && n.Contains(peer) {
			return true
		}
	}
	return false
}

// clientNetwork is the unit every per-address limit counts: an IPv4
// address (IPv4-mapped IPv6 included), or the IPv6 prefix of v6Prefix bits
// an ISP hands one household (a /64), so rotating through the addresses of
// one's own prefix does not multiply the free allowance.
func clientNetwork(ip string, v6Prefix int) string {
	// A plain IPv4 address is already written the one way the parser takes.
	if a, err := netip.ParseAddr(ip); err == nil && a.Is4() {
		return ip
	}
	a := net.ParseIP(ip)
	if a == nil {
		return ip
	}
	if v4 := a.To4(); v4 != nil {
		return v4.String()
	}
	if v6Prefix <= 0 || v6Prefix >= 128 {
		return a.String()
	}
	n := net.IPNet{IP: a.Mask(net.CIDRMask(v6Prefix, 128)), Mask: net.CIDRMask(v6Prefix, 128)}
	return n.String()
}

// clientIP is the caller's address, at most 45 characters (the column size).
func clientIP(c echo.Context) string {
	ip := c.RealIP()
	if len(ip) > 45 {
		ip = ip[:45]
	}
	return ip
}

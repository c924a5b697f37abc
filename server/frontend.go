package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store"
)

// RuntimeConfig is injected into index.html for the React app, so one
// build serves every deployment. It holds only public values.
type RuntimeConfig struct {
	BasePath string          `json:"basePath"`
	AuthMode string          `json:"authMode"`
	Firebase json.RawMessage `json:"firebase"`
	// AuthEmulatorURL is the Firebase Auth emulator the web app signs in
	// against; only servers running against it (demo- projects) have one.
	AuthEmulatorURL      string `json:"authEmulatorUrl,omitempty"`
	StripePublishableKey string `json:"stripePublishableKey"`
	BillingEnabled       bool   `json:"billingEnabled"`
	GAMeasurementID      string `json:"gaMeasurementId"`
	MetaPixelID          string `json:"metaPixelId"`
	OperatorName         string `json:"operatorName"`
	ContactEmail         string `json:"contactEmail"`
	AnonMonthlyLimit     int    `json:"anonMonthlyLimit"`
	EmailEnabled         bool   `json:"emailEnabled"`
	ImageAnalysis        bool   `json:"imageAnalysis"` // photos are analysed (Gemini on)
	Version              string `json:"version"`
}

const headMarker = "<!--layerfix:head-->"

// spa serves the embedded Vite build: hashed assets are immutable, other
// files short-lived, and paths without an extension fall back to the
// index.html carrying the runtime configuration.
type spa struct {
	files    fs.FS
	index    []byte
	pages    map[string][]byte // prerendered screens by path
	basePath string
	cache    assetCache
	// guide loads a shared guide for its page's link preview; nil: none.
	guide func(ctx context.Context, id string) (*store.SharedResult, error)
	log   *slog.Logger
}

func newSPA(files fs.FS, basePath string, rc RuntimeConfig) (*spa, error) {
	raw, err := fs.ReadFile(files, "index.html")
	if err != nil {
		return nil, fmt.Errorf("frontend build has no index.html: %w", err)
	}
	cfgJSON, err := json.Marshal(rc)
	if err != nil {
		return nil, err
	}
	// json.Marshal escapes <, > and & so the JSON cannot close the script tag.
	head := fmt.Sprintf(`<base href="%s/"><script id="layerfix-config" type="application/json">%s</script>`,
		html.EscapeString(basePath), cfgJSON)
	if bytes.Contains(raw, []byte(headMarker)) {
		raw = bytes.Replace(raw, []byte(headMarker), []byte(head), 1)
	} else {
		raw = bytes.Replace(raw, []byte("<head>"), []byte("<head>"+head), 1)
	}
	pages, err := prerenderedPages(files, raw, basePath, rc)
	if err != nil {
		return nil, err
	}
	return &spa{files: files, index: raw, pages: pages, basePath: basePath}, nil
}

func (s *spa) handle(c echo.Context) error {
	if isAPIPath(c.Request().URL.Path, s.basePath) {
		return notFoundErr("API endpoint")
	}
	p := strings.TrimPrefix(c.Request().URL.Path, s.basePath)
	if p == "" {
		p = "/"
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	if name == "prerender.json" { // build input, read at start
		return s.file(c, "", "")
	}
	if ext := path.Ext(name); ext != "" && name != "index.html" {
		return s.file(c, name, ext)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	if id, ok := strings.CutPrefix(p, "/share/"); ok {
		// A shared guide's URL is a capability: never leak it onward.
		h.Set("Referrer-Policy", "no-referrer")
		if s.guide != nil {
			return s.sharePage(c, id)
		}
	}
	page, name := s.index, "index.html"
	// A query string can change a screen (?mode=signup, ?share=): only the bare path is prerendered.
	if pre, ok := s.pages[p]; ok && c.Request().URL.RawQuery == "" {
		page, name = pre, "prerender:"+p
	}
	return s.send(c, name, page, "text/html; charset=utf-8")
}

func (s *spa) file(c echo.Context, name, ext string) error {
	b, err := fs.ReadFile(s.files, name)
	if err != nil {
		return c.Blob(http.StatusNotFound, "text/plain; charset=utf-8", []byte("404 not found\n"))
	}
	ctype := mime.TypeByExtension(ext)
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := c.Response().Header()
	if strings.HasPrefix(name, "assets/") {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, max-age=3600")
	}
	return s.send(c, name, b, ctype)
}

// send answers with a file's content in the encoding the client takes
// best, with its ETag (304 when the client has it).
func (s *spa) send(c echo.Context, name string, b []byte, ctype string) error {
	h := c.Response().Header()
	enc := s.cache.get(name, b, compressible(ctype))
	body, encoding, etag := enc.pick(c.Request().Header.Get("Accept-Encoding"))
	if enc.gzip != nil || enc.br != nil {
		h.Add("Vary", "Accept-Encoding")
	}
	h.Set("ETag", etag)
	if match := c.Request().Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	return c.Blob(http.StatusOK, ctype, body)
}

var (
	titleTag       = regexp.MustCompile(`<title>[^<]*</title>`)
	descriptionTag = regexp.MustCompile(`\s*<meta name="description"[^>]*>`)
)

// sharePage is the app's page for a shared guide, with the guide's own
// title and the start of its summary in the head, so a link pasted into a
// chat or forum previews the guide. Link previews read the HTML only; the
// app shows the guide itself. A guide that does not exist is a 404 with the
// app's "Guide Not Found".
func (s *spa) sharePage(c echo.Context, id string) error {
	status := http.StatusOK
	title, desc := "Guide Not Found", "The troubleshooting guide you're looking for doesn't exist or has expired."
	sr, err := s.guide(c.Request().Context(), id)
	var apiErr *APIError
	switch {
	case err == nil:
		var res struct {
			Summary string `json:"summary"`
		}
		_ = json.Unmarshal(sr.TroubleshootingData, &res) // guide() wrote it
		title, desc = sr.Title, wordCut(strings.Join(strings.Fields(res.Summary), " "), shareDescription)
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound:
		status = http.StatusNotFound
	default:
		// The app loads the guide itself and says what went wrong.
		if s.log != nil {
			s.log.Error("shared guide page", "err", err)
		}
		return s.send(c, "index.html", s.index, "text/html; charset=utf-8")
	}
	head := fmt.Sprintf(`<title>%[1]s – Layerfix</title>`+
		`<meta name="description" content="%[2]s">`+
		`<meta name="robots" content="noindex">`+
		`<meta property="og:type" content="article">`+
		`<meta property="og:site_name" content="Layerfix">`+
		`<meta property="og:title" content="%[1]s">`+
		`<meta property="og:description" content="%[2]s">`+
		`<meta name="twitter:card" content="summary">`,
		html.EscapeString(title), html.EscapeString(desc))
	page := descriptionTag.ReplaceAll(s.index, nil)
	if titleTag.Match(page) {
		page = titleTag.ReplaceAllLiteral(page, []byte(head))
	} else {
		page = bytes.Replace(page, []byte("</head>"), []byte(head+"</head>"), 1)
	}
	// Each guide's page is its own: sent as it is, not kept in the asset cache.
	return c.Blob(status, "text/html; charset=utf-8", page)
}

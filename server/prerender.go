package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
)

// Prerendered public screens (frontend/scripts/prerender.mjs writes
// prerender.json at build time): the markup and critical CSS of each
// screen for every value of the settings it depends on. The page matching
// this server's configuration is put together once at start, so a phone
// paints the landing, features, pricing and sign-in screens from the HTML
// before the app's JavaScript has loaded.

type prerenderFile struct {
	Version      int                       `json:"version"`
	SentinelBase string                    `json:"sentinelBase"`
	Sentinels    [][2]string               `json:"sentinels"`
	Routes       map[string]prerenderRoute `json:"routes"`
}

type prerenderRoute struct {
	Dims     []string                     `json:"dims"`
	Variants map[string]prerenderedMarkup `json:"variants"`
}

type prerenderedMarkup struct {
	HTML   string `json:"html"`
	Styles string `json:"styles"`
}

const sentinelMark = "LFSENTINEL"

// setting is the value of a runtime setting as prerender.json keys it:
// booleans and numbers as they are, strings as "set" or "empty".
func (rc RuntimeConfig) setting(name string) (string, bool) {
	switch name {
	case "authMode":
		return rc.AuthMode, true
	case "billingEnabled":
		return strconv.FormatBool(rc.BillingEnabled), true
	case "emailEnabled":
		return strconv.FormatBool(rc.EmailEnabled), true
	case "imageAnalysis":
		return strconv.FormatBool(rc.ImageAnalysis), true
	case "anonMonthlyLimit":
		return strconv.Itoa(rc.AnonMonthlyLimit), true
	case "operatorName", "contactEmail":
		v := rc.OperatorName
		if name == "contactEmail" {
			v = rc.ContactEmail
		}
		if v == "" {
			return "empty", true
		}
		return "set", true
	}
	return "", false
}

func (rc RuntimeConfig) stringSetting(name string) string {
	switch name {
	case "operatorName":
		return rc.OperatorName
	case "contactEmail":
		return rc.ContactEmail
	case "version":
		return rc.Version
	}
	return ""
}

// prerenderedPages builds the served page of every prerendered screen that
// has a variant for this configuration. index is index.html with the
// runtime configuration already injected. A screen without a matching
// variant is left out and served as the plain app.
func prerenderedPages(files fs.FS, index []byte, basePath string, rc RuntimeConfig) (map[string][]byte, error) {
	raw, err := fs.ReadFile(files, "prerender.json")
	if err != nil {
		return nil, nil // a build without prerendering (tests, the placeholder)
	}
	var pf prerenderFile
	if err := json.Unmarshal(raw, &pf); err != nil {
		return nil, fmt.Errorf("frontend build: prerender.json: %w", err)
	}
	if pf.Version != 1 || pf.SentinelBase == "" {
		return nil, fmt.Errorf("frontend build: prerender.json version %d is not supported", pf.Version)
	}
	const rootEl = `<div id="root"></div>`
	if !bytes.Contains(index, []byte(rootEl)) || !bytes.Contains(index, []byte("</head>")) {
		return nil, fmt.Errorf("frontend build: index.html has no %s", rootEl)
	}
	pairs := []string{pf.SentinelBase, html.EscapeString(basePath)}
	for _, s := range pf.Sentinels {
		pairs = append(pairs, s[1], html.EscapeString(rc.stringSetting(s[0])))
	}
	fill := strings.NewReplacer(pairs...)
	deferred := deferApp(index)
	pages := map[string][]byte{}
	for path, route := range pf.Routes {
		key := make([]string, 0, len(route.Dims))
		known := true
		for _, d := range route.Dims {
			v, ok := rc.setting(d)
			known = known && ok
			key = append(key, d+"="+v)
		}
		m, ok := route.Variants[strings.Join(key, "|")]
		if !known || !ok {
			continue
		}
		body := fill.Replace(m.HTML)
		styles := fill.Replace(m.Styles)
		if strings.Contains(body, sentinelMark) || strings.Contains(styles, sentinelMark) {
			continue // a setting the page transforms: the plain app shows it right
		}
		page := bytes.Replace(deferred, []byte("</head>"), []byte(styles+"</head>"), 1)
		page = bytes.Replace(page, []byte(rootEl), []byte(`<div id="root">`+body+`</div>`), 1)
		pages[path] = page
	}
	return pages, nil
}

var (
	modulePreload = regexp.MustCompile(`\s*<link rel="modulepreload"[^>]*>`)
	moduleEntry   = regexp.MustCompile(`<script type="module" crossorigin src="([^"]+)"></script>`)
)

// deferApp makes a prerendered page load the app after its first paint
// (boot.js imports the entry): on a slow line the page's own HTML and CSS
// then paint without the app's JavaScript competing for the bandwidth.
func deferApp(index []byte) []byte {
	if !moduleEntry.Match(index) {
		return index
	}
	out := modulePreload.ReplaceAll(index, nil)
	return moduleEntry.ReplaceAll(out, []byte(`<script src="./boot.js" data-entry="$1" defer></script>`))
}

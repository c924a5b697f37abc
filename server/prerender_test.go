package server

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"
)

const prerenderIndex = `<!doctype html><html><head><!--layerfix:head--><title>Layerfix</title>` +
	`<script type="module" crossorigin src="./assets/index-abc.js"></script>` +
	`<link rel="modulepreload" crossorigin href="./assets/vendor-def.js"></head><body><div id="root"></div></body></html>`

const prerenderJSON = `{"version":1,"sentinelBase":"/LFSENTINELbasePathX",
 "sentinels":[["operatorName","LFSENTINELoperatorNameX"],["contactEmail","LFSENTINELcontactEmailX"],["version","LFSENTINELversionX"]],
 "routes":{
  "/features":{"dims":["imageAnalysis"],"variants":{
    "imageAnalysis=false":{"html":"<h1>Words and settings</h1><a href=\"/LFSENTINELbasePathX/pricing\">Pricing</a>","styles":"<style data-emotion=\"css a\">.a{}</style>"},
    "imageAnalysis=true":{"html":"<h1>Every photo analysed</h1>","styles":""}}},
  "/privacy-policy":{"dims":["operatorName","anonMonthlyLimit"],"variants":{
    "operatorName=set|anonMonthlyLimit=3":{"html":"<p>Run by LFSENTINELoperatorNameX, 3 free</p>","styles":""},
    "operatorName=empty|anonMonthlyLimit=3":{"html":"<p>Run by the operator, 3 free</p>","styles":""}}},
  "/login":{"dims":[],"variants":{"":{"html":"<h1>LFSENTINELuntouchedX</h1>","styles":""}}}
 }}`

func prerenderSPA(t *testing.T, basePath string, rc RuntimeConfig) *spa {
	t.Helper()
	files := fstest.MapFS{
		"index.html":     {Data: []byte(prerenderIndex)},
		"prerender.json": {Data: []byte(prerenderJSON)},
		"boot.js":        {Data: []byte("import(x)")},
	}
	s, err := newSPA(files, basePath, rc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func getPage(t *testing.T, s *spa, target string) (int, string) {
	t.Helper()
	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest("GET", target, nil), rec)
	if err := s.handle(c); err != nil {
		if he, ok := err.(*echo.HTTPError); ok {
			return he.Code, ""
		}
		return 404, err.Error()
	}
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

func TestPrerenderedPages(t *testing.T) {
	rc := RuntimeConfig{BasePath: "/lf", AuthMode: "local", AnonMonthlyLimit: 3, OperatorName: `Ann & <b>Co</b>`, Version: "1.2.3"}
	s := prerenderSPA(t, "/lf", rc)

	_, page := getPage(t, s, "/lf/features")
	for _, want := range []string{
		`<div id="root"><h1>Words and settings</h1><a href="/lf/pricing">Pricing</a></div>`, // the variant of this config, base path filled in
		`<style data-emotion="css a">.a{}</style></head>`,                                   // its critical CSS in the head
		`<script src="./boot.js" data-entry="./assets/index-abc.js" defer></script>`,        // the app loads after the first paint
	} {
		if !strings.Contains(page, want) {
			t.Errorf("/features lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "modulepreload") || strings.Contains(page, `type="module"`) {
		t.Errorf("/features still loads the app before painting:\n%s", page)
	}

	// A string setting is filled in escaped.
	if _, page := getPage(t, s, "/lf/privacy-policy"); !strings.Contains(page, "<p>Run by Ann &amp; &lt;b&gt;Co&lt;/b&gt;, 3 free</p>") {
		t.Errorf("/privacy-policy: operator name not filled in escaped:\n%s", page)
	}
	// A query string can change the screen: the plain app, which loads at once.
	if _, page := getPage(t, s, "/lf/features?x=1"); !strings.Contains(page, `<div id="root"></div>`) || !strings.Contains(page, `type="module"`) {
		t.Errorf("/features?x=1 should be the plain app:\n%s", page)
	}
	// A sentinel left over (a setting the page transforms) means no prerendered page.
	if _, page := getPage(t, s, "/lf/login"); strings.Contains(page, "LFSENTINEL") || !strings.Contains(page, `<div id="root"></div>`) {
		t.Errorf("/login with an unfilled sentinel should be the plain app:\n%s", page)
	}
	// The build input is not served.
	if code, _ := getPage(t, s, "/lf/prerender.json"); code != 404 {
		t.Errorf("/prerender.json: %d, want 404", code)
	}

	// Another configuration picks another variant; one nobody prerendered gets the plain app.
	rc.ImageAnalysis, rc.AnonMonthlyLimit, rc.OperatorName = true, 5, ""
	s = prerenderSPA(t, "", rc)
	if _, page := getPage(t, s, "/features"); !strings.Contains(page, "<h1>Every photo analysed</h1>") {
		t.Errorf("imageAnalysis=true: wrong variant:\n%s", page)
	}
	if _, page := getPage(t, s, "/privacy-policy"); !strings.Contains(page, `<div id="root"></div>`) {
		t.Errorf("a limit of 5 has no prerendered variant; want the plain app:\n%s", page)
	}
}

package server

import (
	"net/http"
	"path/filepath"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store/blob"
)

// authLevel is who may call a route.
type authLevel uint8

const (
	// authNone: outside the API (probes, metrics, pages); no token is read.
	authNone authLevel = iota
	// authPublic: needs no user; a token sent is still checked, so a
	// signed-in maker is known there too.
	authPublic
	// authOptionalUser: the owner's token or another proof the handler
	// checks (a signed photo URL); documented as either.
	authOptionalUser
	// authUser: a valid bearer token, else 401.
	authUser
	// authWebhook: no user; the payment provider signs the body.
	authWebhook
)

// routeCond says when a route exists.
type routeCond uint8

const (
	always       routeCond = iota
	localMode              // local accounts only (no Firebase)
	withBasePath           // only when the server runs under a base path
)

// anyMethod registers a route for every method (echo's Any).
const anyMethod = "ANY"

// route is one entry of the route table: everything the router, the auth
// middleware, the body limit and the OpenAPI document need to know.
type route struct {
	Method string
	// Path is under the base path unless Root is set; :name is a parameter.
	Path    string
	Root    bool
	Handler echo.HandlerFunc
	Auth    authLevel
	When    routeCond
	// BodyLimit bounds the request body; 0 is maxSmallJSON.
	BodyLimit int64
	// Middleware runs after authentication, in order.
	Middleware []echo.MiddlewareFunc
}

// handlers are the resource handlers the route table calls.
type handlers struct {
	local    *localAuth
	profile  *profileAPI
	pricing  *pricingAPI
	ts       *troubleshootAPI
	share    *shareAPI
	printers *printersAPI
	issues   *issuesAPI
	photos   *photosAPI
	billing  *billingAPI
	account  *accountAPI
	app      *spa
	health   echo.HandlerFunc
	metrics  echo.HandlerFunc
	redirect echo.HandlerFunc // / to the base path
}

// apiNotFound is the JSON 404 of an unknown /api path.
func apiNotFound(echo.Context) error { return notFoundErr("API endpoint") }

// Request body limits above maxSmallJSON; the handlers that size their
// memory budget by the body use the same constants.
const (
	troubleshootBodyLimit = maxJSONBody + maxAttachmentsJSON
	refineBodyLimit       = maxSmallJSON + maxAttachmentsJSON
	issueBodyLimit        = maxSmallJSON + maxAttachmentsJSON
	saveAnalysisBodyLimit = 1<<20 + maxAttachmentsJSON
)

// routeTable is every route of the server. New registers exactly these;
// TestRoutesAllInTable holds the router to it and the OpenAPI document is
// built from it.
func routeTable(h *handlers) []route {
	return []route{
		{Method: "GET", Path: "/healthz", Root: true, Handler: h.health},
		{Method: "GET", Path: "/healthz", Handler: h.health, When: withBasePath},
		{Method: "GET", Path: "/", Root: true, Handler: h.redirect, When: withBasePath},
		{Method: "GET", Path: "/metrics", Handler: h.metrics},

		{Method: "POST", Path: "/api/auth/signup", Handler: h.local.signup, Auth: authPublic, When: localMode},
		{Method: "POST", Path: "/api/auth/login", Handler: h.local.login, Auth: authPublic, When: localMode},
		{Method: "POST", Path: "/api/auth/logout", Handler: h.local.logout, Auth: authUser, When: localMode},
		{Method: "POST", Path: "/api/auth/password-reset", Handler: h.local.passwordReset, Auth: authPublic, When: localMode},
		{Method: "POST", Path: "/api/auth/password-update", Handler: h.local.passwordUpdate, Auth: authPublic, When: localMode},
		{Method: "POST", Path: "/api/auth/verify-email", Handler: h.local.verifyEmail, Auth: authPublic, When: localMode},

		{Method: "GET", Path: "/api/user/profile", Handler: h.profile.get, Auth: authUser},
		{Method: "PATCH", Path: "/api/user/profile", Handler: h.profile.update, Auth: authUser},
		{Method: "POST", Path: "/api/transfer-usage", Handler: h.profile.transferUsage, Auth: authUser},
		{Method: "POST", Path: "/api/user/password", Handler: h.account.changePassword, Auth: authUser, When: localMode},
		{Method: "POST", Path: "/api/user/email", Handler: h.account.changeEmail, Auth: authUser, When: localMode},
		{Method: "GET", Path: "/api/user/data", Handler: h.account.downloadData, Auth: authUser},
		{Method: "DELETE", Path: "/api/user", Handler: h.account.deleteAccount, Auth: authUser},

		{Method: "GET", Path: "/api/pricing", Handler: h.pricing.pricing, Auth: authPublic},
		{Method: "GET", Path: "/api/openapi.json", Handler: serveOpenAPI, Auth: authPublic},
		{Method: "GET", Path: "/api/usage-limits", Handler: h.pricing.usageLimits, Auth: authPublic},

		{Method: "POST", Path: "/api/troubleshoot", Handler: h.ts.troubleshoot, Auth: authPublic, BodyLimit: troubleshootBodyLimit},
		{Method: "POST", Path: "/api/troubleshoot/refine", Handler: h.ts.refine, Auth: authPublic, BodyLimit: refineBodyLimit},
		{Method: "GET", Path: "/api/public-usage", Handler: h.ts.publicUsage, Auth: authPublic},

		{Method: "POST", Path: "/api/share-results", Handler: h.share.create, Auth: authPublic, BodyLimit: 1 << 20},
		{Method: "GET", Path: "/api/share/:shareId", Handler: h.share.get, Auth: authPublic},

		{Method: "GET", Path: "/api/printers", Handler: h.printers.list, Auth: authUser},
		{Method: "POST", Path: "/api/printers", Handler: h.printers.create, Auth: authUser},
		{Method: "GET", Path: "/api/printers/stats", Handler: h.printers.stats, Auth: authUser},
		{Method: "GET", Path: "/api/printers/:id/stats", Handler: h.printers.printerStatsOne, Auth: authUser},
		{Method: "PUT", Path: "/api/printers/:id", Handler: h.printers.update, Auth: authUser},
		{Method: "DELETE", Path: "/api/printers/:id", Handler: h.printers.remove, Auth: authUser},
		{Method: "POST", Path: "/api/printers/:id/pull", Handler: h.printers.pull, Auth: authUser},

		{Method: "GET", Path: "/api/issues", Handler: h.issues.list, Auth: authUser},
		{Method: "POST", Path: "/api/issues", Handler: h.issues.create, Auth: authUser, BodyLimit: issueBodyLimit},
		{Method: "POST", Path: "/api/issues/from-analysis", Handler: h.issues.saveAnalysis, Auth: authUser, BodyLimit: saveAnalysisBodyLimit},
		{Method: "GET", Path: "/api/issues/export", Handler: h.issues.export, Auth: authUser},
		{Method: "GET", Path: "/api/issues/summary", Handler: h.issues.summary, Auth: authUser},
		{Method: "GET", Path: "/api/issues/:id", Handler: h.issues.get, Auth: authUser},
		{Method: "PATCH", Path: "/api/issues/:id/resolve", Handler: h.issues.resolve, Auth: authUser},
		{Method: "PATCH", Path: "/api/issues/:id/progress", Handler: h.issues.start, Auth: authUser},
		{Method: "PUT", Path: "/api/issues/:id/checked-steps", Handler: h.issues.checkedSteps, Auth: authUser},
		{Method: "POST", Path: "/api/issues/:id/refine", Handler: h.issues.refine, Auth: authUser},
		{Method: "GET", Path: "/api/issues/:id/attachments/:n", Handler: h.issues.attachment, Auth: authUser},

		{Method: "POST", Path: "/api/upload-images", Handler: h.photos.upload, Auth: authUser, BodyLimit: maxUploadBody},
		// Photos load in <img> tags without a bearer token: the owner's
		// token or a signed URL.
		{Method: "GET", Path: "/api/photos/:name", Handler: h.photos.serve, Auth: authOptionalUser},
		{Method: "HEAD", Path: "/api/photos/:name", Handler: h.photos.serve, Auth: authOptionalUser},

		{Method: "GET", Path: "/api/subscription", Handler: h.billing.subscription, Auth: authUser},
		{Method: "POST", Path: "/api/create-subscription", Handler: h.billing.create, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled}},
		{Method: "POST", Path: "/api/complete-subscription", Handler: h.billing.complete, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled}},
		{Method: "POST", Path: "/api/change-subscription", Handler: h.billing.change, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled}},
		{Method: "POST", Path: "/api/cancel-subscription", Handler: h.billing.cancel, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled}},
		{Method: "POST", Path: "/api/stripe/webhook", Handler: h.billing.webhook, Auth: authWebhook, BodyLimit: 1 << 20, Middleware: []echo.MiddlewareFunc{h.billing.quietlyEnabled}},

		// Unknown API paths answer a JSON 404 (a token sent is still checked).
		{Method: echo.RouteNotFound, Path: "/api", Handler: echo.NotFoundHandler, Auth: authPublic},
		{Method: echo.RouteNotFound, Path: "/api/*", Handler: echo.NotFoundHandler, Auth: authPublic},
		{Method: anyMethod, Path: "/api/*", Handler: apiNotFound, Auth: authPublic},

		// The web app: every other path.
		{Method: "GET", Path: "/*", Handler: h.app.handle},
		{Method: "HEAD", Path: "/*", Handler: h.app.handle},
		{Method: "GET", Path: "", Handler: h.app.handle, When: withBasePath},
	}
}

// newHandlers builds the resource handlers from the server's collaborators.
func (s *Server) newHandlers(d Deps, keys *keyring, app *spa) *handlers {
	cfg := s.cfg
	h := &handlers{local: s.local, app: app}
	h.profile = &profileAPI{store: d.Store, limits: cfg.TierLimits, now: d.Now}
	h.pricing = &pricingAPI{limits: cfg.TierLimits, source: d.Billing, now: d.Now, log: d.Logger}
	h.ts = &troubleshootAPI{quota: d.Store, analyzer: d.Analyzer, limit: cfg.AnonLimit, netLimit: cfg.NetworkLimit, now: d.Now, log: d.Logger,
		refiner: d.Refiner, keys: keys, signer: s.signer}
	h.share = &shareAPI{store: d.Store, limiter: newFixedWindow(newLimitStates(d.Store, "share", d.Now), cfg.ShareRate, time.Hour, d.Now), signer: s.signer}
	app.guide, app.log = h.share.guide, d.Logger

	blobs := d.Photos
	if blobs == nil {
		blobs = blob.NewDisk(filepath.Join(cfg.DataDir, "photos"))
	}
	h.photos = &photosAPI{store: d.Store, blobs: blobs, basePath: cfg.BasePath, now: s.now, log: s.log, keys: keys, metrics: s.metrics}
	s.photos = h.photos
	h.printers = &printersAPI{store: d.Store, now: s.now, hostKeys: hostKeys{keys: keys}, link: newPrinterLink(cfg, d.Store, s.now, s.log)}
	diagnoser, _ := d.Refiner.(Diagnoser)
	h.issues = &issuesAPI{store: d.Store, photos: h.photos, blobs: blobs, analyzer: d.Analyzer, diagnoser: diagnoser,
		limits: cfg.TierLimits, now: s.now, log: s.log, learn: s.learn, refiner: d.Refiner, signer: s.signer,
		netLimit: cfg.NetworkLimit, requireVerified: cfg.RequireVerified,
		saved:    newFixedWindow(newLimitStates(d.Store, "saved-analysis", s.now), 1, refineTokenLife, s.now),
		operator: cfg.OperatorName, contact: cfg.ContactEmail}

	h.billing = &billingAPI{store: d.Store, provider: d.Billing, now: d.Now, log: d.Logger}
	s.billing = h.billing

	h.account = &accountAPI{store: d.Store, billing: h.billing, blobs: blobs, learn: s.learn, now: s.now, log: s.log,
		downloads: newDownloadSlots(maxDataDownloads)}
	if cfg.AuthMode == "firebase" {
		h.account.identity, _ = d.Authenticator.(identityDeleter)
	} else {
		h.account.local = s.local
	}

	h.health = s.health(&diskCheck{dir: cfg.DataDir, now: d.Now})
	h.redirect = func(c echo.Context) error { return c.Redirect(http.StatusFound, cfg.BasePath+"/") }
	if cfg.Metrics {
		h.metrics = echo.WrapHandler(s.metrics.handler())
	} else {
		// Not the app's page either: a scraper pointed at a server with metrics off gets a plain 404.
		h.metrics = func(c echo.Context) error {
			return c.String(http.StatusNotFound, "404 not found: metrics are off (LAYERFIX_METRICS)\n")
		}
	}
	return h
}

// register adds the table's routes that exist under this configuration.
func (s *Server) register(table []route, auth Authenticator) {
	cfg := s.cfg
	for _, r := range table {
		if !r.exists(cfg) {
			continue
		}
		path := r.Path
		if !r.Root {
			path = cfg.BasePath + path
		}
		var mw []echo.MiddlewareFunc
		switch r.Auth {
		case authPublic, authOptionalUser, authWebhook:
			mw = append(mw, authenticate(auth, false))
		case authUser:
			mw = append(mw, authenticate(auth, true))
		}
		mw = append(mw, r.Middleware...)
		if r.Method == anyMethod {
			s.e.Any(path, r.Handler, mw...)
		} else {
			s.e.Add(r.Method, path, r.Handler, mw...)
		}
	}
}

// exists says whether the route is registered under cfg.
func (r route) exists(cfg *config.Config) bool {
	switch r.When {
	case localMode:
		return cfg.AuthMode == "local"
	case withBasePath:
		return cfg.BasePath != ""
	}
	return true
}

// bodyLimits are the table's body limits above maxSmallJSON by
// "METHOD /path" (without the base path).
func bodyLimits(table []route) map[string]int64 {
	m := map[string]int64{}
	for _, r := range table {
		if r.BodyLimit > 0 {
			m[r.Method+" "+r.Path] = r.BodyLimit
		}
	}
	return m
}

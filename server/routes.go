package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/printerlink"
	"github.com/layerfix/layerfix/store"
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
	// Doc is the route's contract in the OpenAPI document; nil: not in it
	// (probes, pages, the catch-alls).
	Doc *apiDoc
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

		{Method: "POST", Path: "/api/auth/signup", Handler: h.local.signup, Auth: authPublic, When: localMode,
			Doc: &apiDoc{Summary: "Create a local account (local mode) and start a session", Tag: "auth", Request: credentials{}, Required: []string{"email", "password", "displayName"}, Responses: []apiResponse{{Status: 201, Body: sessionResponse{}, Description: "Created"}}, Errors: []int{400, 409, 415, 429}}},
		{Method: "POST", Path: "/api/auth/login", Handler: h.local.login, Auth: authPublic, When: localMode,
			Doc: &apiDoc{Summary: "Sign in with email and password (local mode)", Tag: "auth", Request: credentials{}, Required: []string{"email", "password"}, Responses: []apiResponse{{Status: 200, Body: sessionResponse{}}}, Errors: []int{400, 401, 415, 429}}},
		{Method: "POST", Path: "/api/auth/logout", Handler: h.local.logout, Auth: authUser, When: localMode,
			Doc: &apiDoc{Summary: "End this session", Tag: "auth", Responses: []apiResponse{{Status: 204, Description: "Signed out"}}, Errors: []int{401}}},
		{Method: "POST", Path: "/api/auth/password-reset", Handler: h.local.passwordReset, Auth: authPublic, When: localMode,
			Doc: &apiDoc{Summary: "Email a one-hour password reset link (always answers the same)", Tag: "auth", Request: credentials{}, Required: []string{"email"}, Responses: []apiResponse{{Status: 202, Body: passwordResetResponse{}, Description: "Accepted: a link was sent if the account exists and email is configured"}}, Errors: []int{400, 415, 429}}},
		{Method: "POST", Path: "/api/auth/password-update", Handler: h.local.passwordUpdate, Auth: authPublic, When: localMode,
			Doc: &apiDoc{Summary: "Set a new password with a reset code; ends every other session", Tag: "auth", Request: codeRequest{}, Required: []string{"oobCode", "password"}, Responses: []apiResponse{{Status: 200, Body: messageResponse{}}}, Errors: []int{400, 415, 429}}},
		{Method: "POST", Path: "/api/auth/verify-email", Handler: h.local.verifyEmail, Auth: authPublic, When: localMode,
			Doc: &apiDoc{Summary: "Confirm an email address with its code (a sign-up's, or an email change's: the account then takes the new address)", Tag: "auth", Request: codeRequest{}, Required: []string{"oobCode"}, Responses: []apiResponse{{Status: 200, Body: messageResponse{}}}, Errors: []int{400, 409, 415}}},

		{Method: "GET", Path: "/api/user/profile", Handler: h.profile.get, Auth: authUser,
			Doc: &apiDoc{Summary: "The signed-in maker's profile, plan and usage", Tag: "account", Responses: []apiResponse{{Status: 200, Body: profile{}}}, Errors: []int{401}}},
		{Method: "PATCH", Path: "/api/user/profile", Handler: h.profile.update, Auth: authUser,
			Doc: &apiDoc{Summary: "Change the display name (the sign-up rules); answers the profile", Tag: "account", Request: profileUpdate{}, Required: []string{"displayName"}, Responses: []apiResponse{{Status: 200, Body: profile{}}}, Errors: []int{400, 401, 415}}},
		{Method: "POST", Path: "/api/transfer-usage", Handler: h.profile.transferUsage, Auth: authUser,
			Doc: &apiDoc{Summary: "Move this address's anonymous usage into an account created by this sign-up", Tag: "account", Responses: []apiResponse{{Status: 200, Body: transferResponse{}}}, Errors: []int{401}}},
		{Method: "POST", Path: "/api/user/password", Handler: h.account.changePassword, Auth: authUser, When: localMode,
			Doc: &apiDoc{Summary: "Change the password (local mode): the current one, checked under the sign-in limits, then a new one by the sign-up rules; every other session and reset link ends", Tag: "account", Request: passwordChange{}, Required: []string{"currentPassword", "newPassword"}, Responses: []apiResponse{{Status: 200, Body: messageResponse{}}}, Errors: []int{400, 401, 415, 429}}},
		{Method: "POST", Path: "/api/user/email", Handler: h.account.changeEmail, Auth: authUser, When: localMode,
			Doc: &apiDoc{Summary: "Change the email (local mode) with the current password: with email configured a link goes to the new address and the change takes effect when it is opened (202, pending); without email it takes effect at once, unverified (200)", Tag: "account", Request: emailChange{}, Required: []string{"newEmail", "currentPassword"}, Responses: []apiResponse{{Status: 200, Body: emailChangeResponse{}}, {Status: 202, Body: emailChangeResponse{}, Description: "Accepted: a confirmation link was sent"}}, Errors: []int{400, 401, 409, 415, 429}}},
		{Method: "GET", Path: "/api/user/data", Handler: h.account.downloadData, Auth: authUser,
			Doc: &apiDoc{Summary: "Download my data: a zip (streamed) of account.json, printers.json, issues.json (with attachments and photo names) and photos/", Tag: "account", Responses: []apiResponse{{Status: 200, Body: rawSchema{"type": "string", "contentMediaType": "application/zip"}, ContentType: "application/zip"}}, Errors: []int{401, 429}}},
		{Method: "DELETE", Path: "/api/user", Handler: h.account.deleteAccount, Auth: authUser,
			Doc: &apiDoc{Summary: "Delete my account with its printers, issues, photos and sessions; a live subscription is canceled first. Local mode: the password; Firebase mode: an ID token from a sign-in at most 5 minutes old (403 requires-recent-login otherwise)", Tag: "account", Request: deleteAccountRequest{}, RequestOptional: true, Responses: []apiResponse{{Status: 200, Body: deleteAccountResponse{}}}, Errors: []int{400, 401, 403, 415, 429, 503}}},

		{Method: "GET", Path: "/api/pricing", Handler: h.pricing.pricing, Auth: authPublic,
			Doc: &apiDoc{Summary: "Monthly price per plan in USD", Tag: "plans", Responses: []apiResponse{{Status: 200, Body: []PriceEntry{}}}}},
		{Method: "GET", Path: "/api/openapi.json", Handler: serveOpenAPI, Auth: authPublic,
			Doc: &apiDoc{Summary: "This document", Tag: "meta", Responses: []apiResponse{{Status: 200, Body: rawSchema{"type": "object"}}}}},
		{Method: "GET", Path: "/api/usage-limits", Handler: h.pricing.usageLimits, Auth: authPublic,
			Doc: &apiDoc{Summary: "Monthly allowance per plan", Tag: "plans", Responses: []apiResponse{{Status: 200, Body: map[string]planLimit{}}}}},

		{Method: "POST", Path: "/api/troubleshoot", Handler: h.ts.troubleshoot, Auth: authPublic, BodyLimit: troubleshootBodyLimit,
			Doc: &apiDoc{Summary: "Anonymous analysis (one of the monthly free credits); its refineToken binds the inputs for 24 hours (narrow the result down, or save it to an account after sign-up)", Tag: "troubleshoot", Request: troubleshootRequest{}, Required: []string{"category", "description", "printerBrand"}, Responses: []apiResponse{{Status: 200, Body: resultJSON{}}}, Errors: []int{400, 413, 415, 429, 503}}},
		{Method: "POST", Path: "/api/troubleshoot/refine", Handler: h.ts.refine, Auth: authPublic, BodyLimit: refineBodyLimit,
			Doc: &apiDoc{Summary: "Re-rank an anonymous result with narrow-it-down answers (no credit); send the analysis's inputs and attachments again, the token binds them", Tag: "troubleshoot", Request: refineRequest{}, Required: []string{"answers", "refineToken"}, Responses: []apiResponse{{Status: 200, Body: resultJSON{}}}, Errors: []int{400, 403, 404, 413, 415}}},
		{Method: "GET", Path: "/api/public-usage", Handler: h.ts.publicUsage, Auth: authPublic,
			Doc: &apiDoc{Summary: "This address's anonymous analyses this month, and when they reset (the 1st of next month, UTC)", Tag: "troubleshoot", Responses: []apiResponse{{Status: 200, Body: publicUsage{}}}}},

		{Method: "POST", Path: "/api/share-results", Handler: h.share.create, Auth: authPublic, BodyLimit: 1 << 20,
			Doc: &apiDoc{Summary: "Share a result this server made; returns the share id", Tag: "share", Request: shareRequest{}, Required: []string{"troubleshootingData", "signature"}, Responses: []apiResponse{{Status: 201, Body: shareCreated{}}}, Errors: []int{400, 415, 429}}},
		{Method: "GET", Path: "/api/share/:shareId", Handler: h.share.get, Auth: authPublic,
			Doc: &apiDoc{Summary: "A shared result", Tag: "share", Responses: []apiResponse{{Status: 200, Body: store.SharedResult{}}}, Errors: []int{404}}},

		{Method: "GET", Path: "/api/printers", Handler: h.printers.list, Auth: authUser,
			Doc: &apiDoc{Summary: "The maker's printers", Tag: "workspace", Responses: []apiResponse{{Status: 200, Body: []printerJSON{}}}, Errors: []int{401}}},
		{Method: "POST", Path: "/api/printers", Handler: h.printers.create, Auth: authUser,
			Doc: &apiDoc{Summary: "Add a printer", Tag: "workspace", Request: printerInput{}, Required: []string{"name", "brand"}, Responses: []apiResponse{{Status: 201, Body: printerJSON{}}}, Errors: []int{400, 401, 415}}},
		{Method: "GET", Path: "/api/printers/stats", Handler: h.printers.stats, Auth: authUser,
			Doc: &apiDoc{Summary: "Issue counts per printer", Tag: "workspace", Responses: []apiResponse{{Status: 200, Body: printersStats{}}}, Errors: []int{401}}},
		{Method: "GET", Path: "/api/printers/:id/stats", Handler: h.printers.printerStatsOne, Auth: authUser,
			Doc: &apiDoc{Summary: "One printer's issue counts and most frequent categories", Tag: "workspace", Responses: []apiResponse{{Status: 200, Body: printerStats{}}}, Errors: []int{401, 404}}},
		{Method: "PUT", Path: "/api/printers/:id", Handler: h.printers.update, Auth: authUser,
			Doc: &apiDoc{Summary: "Update a printer", Tag: "workspace", Request: printerInput{}, Required: []string{"name", "brand"}, Responses: []apiResponse{{Status: 200, Body: printerJSON{}}}, Errors: []int{400, 401, 404, 415}}},
		{Method: "DELETE", Path: "/api/printers/:id", Handler: h.printers.remove, Auth: authUser,
			Doc: &apiDoc{Summary: "Delete a printer (its issues keep their history)", Tag: "workspace", Responses: []apiResponse{{Status: 200, Body: printerDeleted{}}}, Errors: []int{401, 404}}},
		{Method: "POST", Path: "/api/printers/:id/pull", Handler: h.printers.pull, Auth: authUser,
			Doc: &apiDoc{Summary: "Diagnose the last print: ask the printer's host for the last job, its settings, the config and the log's end (LAYERFIX_PRINTER_LINK=on only)", Tag: "workspace", Responses: []apiResponse{{Status: 200, Body: printerlink.Result{}}}, Errors: []int{400, 401, 403, 404, 409, 429, 502}}},

		{Method: "GET", Path: "/api/issues", Handler: h.issues.list, Auth: authUser,
			Doc: &apiDoc{Summary: "The maker's issues with their printer, newest first: with no parameter the whole log as one array, streamed as it is read (memory stays bounded whatever its length); with any page parameter one page", Tag: "issues", Responses: []apiResponse{{Status: 200, Body: issueListSchema}}, Errors: []int{400, 401}, Params: issueListParams}},
		{Method: "POST", Path: "/api/issues", Handler: h.issues.create, Auth: authUser, BodyLimit: issueBodyLimit,
			Doc: &apiDoc{Summary: "Report an issue: analysis, one credit", Tag: "issues", Request: issueRequest{}, Required: []string{"category", "description"}, Responses: []apiResponse{{Status: 201, Body: issueJSON{}}}, Errors: []int{400, 401, 403, 404, 413, 415, 429, 503}}},
		{Method: "POST", Path: "/api/issues/from-analysis", Handler: h.issues.saveAnalysis, Auth: authUser, BodyLimit: saveAnalysisBodyLimit,
			Doc: &apiDoc{Summary: "Save an anonymous analysis to the account just created (no new analysis, no credit): the analysed inputs, the result with its signature and the refineToken that binds the inputs (24 hours), photos uploaded with /api/upload-images; once per analysis; the form's printer becomes one of the account's printers", Tag: "issues", Request: saveAnalysisRequest{}, Required: []string{"result", "signature", "refineToken"}, Responses: []apiResponse{{Status: 201, Body: issueJSON{}}}, Errors: []int{400, 401, 403, 404, 409, 413, 415}}},
		{Method: "GET", Path: "/api/issues/export", Handler: h.issues.export, Auth: authUser,
			Doc: &apiDoc{Summary: "Every issue of the maker as CSV or JSON (streamed)", Tag: "issues", Responses: []apiResponse{{Status: 200, Body: rawSchema{"type": "string"}, ContentType: "text/csv", Also: map[string]any{"application/json": []exportedIssue{}}}}, Errors: []int{400, 401}, Params: []apiParam{{Name: "format", In: "query", Schema: rawSchema{"enum": []string{"csv", "json"}}}}}},
		{Method: "GET", Path: "/api/issues/summary", Handler: h.issues.summary, Auth: authUser,
			Doc: &apiDoc{Summary: "The dashboard's counts by status and the 5 newest issues", Tag: "issues", Responses: []apiResponse{{Status: 200, Body: issueSummary{}}}, Errors: []int{401}}},
		{Method: "GET", Path: "/api/issues/:id", Handler: h.issues.get, Auth: authUser,
			Doc: &apiDoc{Summary: "One issue", Tag: "issues", Responses: []apiResponse{{Status: 200, Body: issueJSON{}}}, Errors: []int{401, 404}}},
		{Method: "PATCH", Path: "/api/issues/:id/resolve", Handler: h.issues.resolve, Auth: authUser,
			Doc: &apiDoc{Summary: "Resolve an issue with the steps that worked", Tag: "issues", Request: resolveRequest{}, Responses: []apiResponse{{Status: 200, Body: issueJSON{}}}, Errors: []int{400, 401, 404, 409, 415}}},
		{Method: "PATCH", Path: "/api/issues/:id/progress", Handler: h.issues.start, Auth: authUser,
			Doc: &apiDoc{Summary: "Mark a pending issue in progress", Tag: "issues", Responses: []apiResponse{{Status: 200, Body: issueJSON{}}}, Errors: []int{401, 404, 409}}},
		{Method: "PUT", Path: "/api/issues/:id/checked-steps", Handler: h.issues.checkedSteps, Auth: authUser,
			Doc: &apiDoc{Summary: "Store the ticked steps of an issue", Tag: "issues", Request: checkedStepsRequest{}, Required: []string{"checkedSteps"}, Responses: []apiResponse{{Status: 200, Body: issueJSON{}}}, Errors: []int{400, 401, 404, 415}}},
		{Method: "POST", Path: "/api/issues/:id/refine", Handler: h.issues.refine, Auth: authUser,
			Doc: &apiDoc{Summary: "Re-rank a saved issue's steps with narrow-it-down answers (no credit)", Tag: "issues", Request: issueRefineRequest{}, Required: []string{"answers"}, Responses: []apiResponse{{Status: 200, Body: issueJSON{}}}, Errors: []int{400, 401, 404, 409, 415}}},
		{Method: "GET", Path: "/api/issues/:id/attachments/:n", Handler: h.issues.attachment, Auth: authUser,
			Doc: &apiDoc{Summary: "The text of an attachment of the maker's issue (secrets removed), as a download; another maker's is 404", Tag: "issues", Responses: []apiResponse{{Status: 200, Body: rawSchema{"type": "string"}, ContentType: "text/plain"}}, Errors: []int{401, 404}}},

		{Method: "POST", Path: "/api/upload-images", Handler: h.photos.upload, Auth: authUser, BodyLimit: maxUploadBody,
			Doc: &apiDoc{Summary: "Upload up to 5 photos (multipart, repeated 'images')", Tag: "workspace", Request: rawSchema{"type": "object", "properties": rawSchema{"images": rawSchema{"type": "array", "items": rawSchema{"type": "string", "contentMediaType": "image/*"}}}}, RequestType: "multipart/form-data", Responses: []apiResponse{{Status: 200, Body: uploadResponse{}}}, Errors: []int{400, 401, 415, 429}}},
		// Photos load in <img> tags without a bearer token: the owner's
		// token or a signed URL.
		{Method: "GET", Path: "/api/photos/:name", Handler: h.photos.serve, Auth: authOptionalUser,
			Doc: &apiDoc{Summary: "A photo, for its owner (bearer token) or a valid signed URL; anyone else gets 404", Tag: "workspace", Responses: []apiResponse{{Status: 200, Body: rawSchema{"type": "string", "contentMediaType": "image/jpeg"}, ContentType: "image/jpeg"}}, Errors: []int{404}, Params: photoParams}},
		{Method: "HEAD", Path: "/api/photos/:name", Handler: h.photos.serve, Auth: authOptionalUser,
			Doc: &apiDoc{Summary: "A photo's headers", Tag: "workspace", Responses: []apiResponse{{Status: 200}}, Errors: []int{404}, Params: photoParams}},

		{Method: "GET", Path: "/api/subscription", Handler: h.billing.subscription, Auth: authUser,
			Doc: &apiDoc{Summary: "The maker's plan and subscription state", Tag: "billing", Responses: []apiResponse{{Status: 200, Body: subscriptionView{}}}, Errors: []int{401}}},
		{Method: "POST", Path: "/api/create-subscription", Handler: h.billing.create, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled},
			Doc: &apiDoc{Summary: "Start a subscription; a client secret to confirm payment", Tag: "billing", Request: tierRequest{}, Required: []string{"tier"}, Responses: []apiResponse{{Status: 200, Body: createSubscriptionResponse{}}}, Errors: []int{400, 401, 415, 503}}},
		{Method: "POST", Path: "/api/complete-subscription", Handler: h.billing.complete, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled},
			Doc: &apiDoc{Summary: "Finish a subscription after payment confirmation", Tag: "billing", Request: setupIntentRequest{}, Required: []string{"setupIntentId"}, Responses: []apiResponse{{Status: 200, Body: subscriptionChange{}}}, Errors: []int{400, 401, 402, 404, 409, 415, 503}}},
		{Method: "POST", Path: "/api/change-subscription", Handler: h.billing.change, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled},
			Doc: &apiDoc{Summary: "Change plan", Tag: "billing", Request: newTierRequest{}, Required: []string{"newTier"}, Responses: []apiResponse{{Status: 200, Body: subscriptionChange{}}}, Errors: []int{400, 401, 409, 415, 503}}},
		{Method: "POST", Path: "/api/cancel-subscription", Handler: h.billing.cancel, Auth: authUser, Middleware: []echo.MiddlewareFunc{h.billing.enabled},
			Doc: &apiDoc{Summary: "Cancel at the end of the period", Tag: "billing", Responses: []apiResponse{{Status: 200, Body: subscriptionChange{}}}, Errors: []int{401, 409, 503}}},
		{Method: "POST", Path: "/api/stripe/webhook", Handler: h.billing.webhook, Auth: authWebhook, BodyLimit: 1 << 20, Middleware: []echo.MiddlewareFunc{h.billing.quietlyEnabled},
			Doc: &apiDoc{Summary: "Stripe events (signed with the webhook secret; 404 when billing is off)", Tag: "billing", Request: rawSchema{"type": "object"}, Responses: []apiResponse{{Status: 200, Body: webhookAck{}}}, Errors: []int{400, 404, 503}, Params: []apiParam{{Name: "Stripe-Signature", In: "header", Schema: ""}}}},

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
		blobs = photos.Dir(cfg)
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

// Package server is the HTTP edge of Layerfix: routing, decoding,
// validation, authentication and the mapping of errors to HTTP. It serves
// the JSON API under /api and the embedded React app everywhere else.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/billing"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/mail"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
)

// Deps are the server's collaborators.
type Deps struct {
	Store    *store.Store
	Analyzer ai.Analyzer
	Frontend fs.FS // the Vite build (index.html, assets/)
	// Authenticator verifies bearer tokens in firebase mode; nil in local
	// mode, where the server's own sessions are used.
	Authenticator Authenticator
	// Mailer sends account emails; nil when email is off.
	Mailer mail.Mailer
	// Billing is the payment provider; nil when billing is off.
	Billing billing.Provider
	// Photos keeps uploaded photos; nil: a disk store under DataDir/photos.
	Photos blob.Store
	// Learner receives the fixes makers confirm (the built-in engine); nil
	// or LAYERFIX_LEARN=off: the server does not learn.
	Learner CaseLearner
	// Refiner answers narrow-it-down questions (the built-in engine); nil:
	// no questions are answered.
	Refiner Refiner
	Logger  *slog.Logger
	// Now is the clock (UTC); tests replace it.
	Now func() time.Time
}

// Server is the configured Echo instance.
type Server struct {
	signer  resultSigner
	local   *localAuth
	learn   *learner // nil when learning is off
	metrics *metrics // nil when metrics are off
	photos  *photosAPI
	billing *billingAPI
	cfg     *config.Config
	e       *echo.Echo
	store   *store.Store
	log     *slog.Logger
	now     func() time.Time
}

// New builds the routes.
func New(cfg *config.Config, d Deps) (*Server, error) {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	s := &Server{cfg: cfg, store: d.Store, log: d.Logger, now: d.Now}
	if cfg.Metrics || cfg.MetricsAddr != "" {
		s.metrics = newMetrics(d.Store)
		d.Analyzer = s.metrics.analyzer(d.Analyzer)
	}
	if d.Learner != nil && cfg.Learn {
		s.learn = newLearner(d.Store, d.Learner, cfg, d.Logger)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.errorHandler
	e.IPExtractor = ipExtractor(cfg.TrustedProxies, cfg.IPv6Prefix)
	s.e = e

	if d.Mailer == nil && cfg.SMTPURL != "" {
		m, err := mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
		if err != nil {
			return nil, fmt.Errorf("LAYERFIX_SMTP_URL: %w", err)
		}
		d.Mailer = m
	}
	keys := &keyring{store: d.Store}
	s.local = newLocalAuth(d.Store, cfg, keys, d.Mailer, d.Now, d.Logger)
	auth := d.Authenticator
	var csp CSPSources
	rc := RuntimeConfig{
		BasePath: cfg.BasePath, AuthMode: cfg.AuthMode, Firebase: []byte("null"), EmailEnabled: d.Mailer != nil,
		GAMeasurementID: cfg.GAMeasurementID, MetaPixelID: cfg.MetaPixelID,
		OperatorName: cfg.OperatorName, ContactEmail: cfg.ContactEmail,
		AnonMonthlyLimit: cfg.AnonLimit, Version: cfg.Version, ImageAnalysis: cfg.GeminiAPIKey != "",
	}
	if d.Billing != nil {
		rc.BillingEnabled, rc.StripePublishableKey = true, cfg.StripePublishableKey
		csp.Script = append(csp.Script, "https://js.stripe.com")
		csp.Frame = append(csp.Frame, "https://js.stripe.com", "https://hooks.stripe.com")
		csp.Connect = append(csp.Connect, "https://api.stripe.com")
	}
	if rc.AnonMonthlyLimit < 0 {
		rc.AnonMonthlyLimit = 0
	}
	switch cfg.AuthMode {
	case "firebase":
		if auth == nil {
			return nil, errors.New("firebase mode needs a Firebase authenticator")
		}
		rc.Firebase, _ = json.Marshal(map[string]string{
			"apiKey": cfg.FirebaseAPIKey, "authDomain": cfg.FirebaseAuthDomain,
			"projectId": cfg.FirebaseProjectID, "appId": cfg.FirebaseAppID,
		})
		csp.Script = append(csp.Script, "https://apis.google.com")
		csp.Connect = append(csp.Connect, "https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com", "https://www.googleapis.com")
		csp.Frame = append(csp.Frame, "https://"+cfg.FirebaseAuthDomain)
		csp.Img = append(csp.Img, "https://lh3.googleusercontent.com")
		if cfg.FirebaseAuthEmulator != "" {
			// The web app signs in against the emulator: its REST API and its sign-in frame.
			rc.AuthEmulatorURL = "http://" + cfg.FirebaseAuthEmulator
			csp.Connect = append(csp.Connect, rc.AuthEmulatorURL)
			csp.Frame = append(csp.Frame, rc.AuthEmulatorURL)
		}
	default:
		auth = s.local
	}
	app, err := newSPA(d.Frontend, cfg.BasePath, rc)
	if err != nil {
		return nil, err
	}

	s.signer = resultSigner{keys: keys}
	h := s.newHandlers(d, keys, app)
	table := routeTable(h)
	// Every request, routed or not, passes these (none needs to run before
	// routing: a pre-routing middleware costs every request an allocation).
	e.Use(middleware.RequestIDWithConfig(middleware.RequestIDConfig{}), requestLogger(d.Logger), recoverer(),
		securityHeaders(contentSecurityPolicy(cfg, csp), cfg.BasePath, cfg.TrustedProxies), routeBodyLimit(bodyLimits(table), cfg.BasePath))
	if s.metrics != nil {
		e.Use(s.metrics.middleware(cfg.BasePath))
	}
	s.register(table, auth)
	if s.metrics != nil {
		s.metrics.setRoutes(e.Routes(), cfg.BasePath)
	}
	return s, nil
}

// health answers the probes: 200 while the database answers and the data
// directory's disk is fine, else 503.
func (s *Server) health(disk *diskCheck) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		if err := s.store.Ping(ctx); err != nil {
			s.log.Error("health check: database", "err", err)
			return apiErr(http.StatusServiceUnavailable, "UNHEALTHY", "The database is not answering.")
		}
		if problem := disk.problem(); problem != "" {
			s.log.Warn("health check", "problem", problem)
			return apiErr(http.StatusServiceUnavailable, "UNHEALTHY", problem)
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok", "version": s.cfg.Version})
	}
}

// Handler is the root http.Handler.
func (s *Server) Handler() http.Handler { return s.e }

// Serve accepts connections on l until ctx is cancelled, then drains
// in-flight requests for up to 15 seconds.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{
		Handler:           s.e,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      3 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if s.cfg.MetricsAddr != "" {
		ml, err := net.Listen("tcp", s.cfg.MetricsAddr)
		if err != nil {
			return fmt.Errorf("LAYERFIX_METRICS_ADDR: %w", err)
		}
		msrv := &http.Server{Handler: s.metrics.handler(), ReadHeaderTimeout: 10 * time.Second}
		go msrv.Serve(ml)  //nolint:errcheck // returns when Close below stops it
		defer msrv.Close() //nolint:errcheck // at shutdown
		s.log.Info("metrics", "addr", ml.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	go s.janitor(ctx)
	go s.learn.run(ctx)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: draining requests")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

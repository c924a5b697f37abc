// Command layerfix serves the Layerfix web app: the React frontend and the
// JSON API from one port. Run it with no configuration for a complete
// local install (SQLite under ./data, local accounts, the built-in
// diagnostic engine, billing off); see docs/configuration.md for every setting.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/billing"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/server"
	"github.com/layerfix/layerfix/store"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	if err := run(os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "layerfix:", err)
		}
		os.Exit(1)
	}
}

// usage lists the subcommands; each one's flags are the server's (-h after it).
const usage = `layerfix: the Layerfix server (see README.md)

Usage:
  layerfix [serve] [flags]      run the server (the default)
  layerfix version              print the version (also --version, -version)
  layerfix healthcheck [flags]  ask this configuration's /healthz; exit 0 when healthy (for Docker)
  layerfix user list|set-tier|reset-password ...   manage accounts from the command line
  layerfix backup [--out FILE] [flags]   a consistent backup (database and photos) while the server runs
  layerfix restore FILE [--force] [flags]   restore a backup into a stopped server's data dir

Every flag is also a LAYERFIX_* variable; "layerfix serve -h" lists them.
`

func run(args []string) error {
	cmd := "serve"
	if len(args) > 0 {
		switch args[0] {
		case "serve", "version", "user", "healthcheck", "backup", "restore":
			cmd, args = args[0], args[1:]
		case "--version", "-version", "-v":
			cmd, args = "version", args[1:]
		case "-h", "--help", "-help", "help":
			fmt.Fprint(os.Stdout, usage)
			return nil
		}
	}
	switch cmd {
	case "user":
		return userCmd(args, os.Stdout)
	case "version":
		fmt.Println(buildVersion())
		return nil
	case "healthcheck":
		return healthcheck(args, os.Getenv)
	case "backup":
		return backupCmd(args, os.Stdout, os.Stderr)
	case "restore":
		return restoreCmd(args, os.Stderr)
	default:
		return serve(args)
	}
}

// healthcheck asks the server of this configuration (LAYERFIX_ADDR and the
// base path) for /healthz, so a container needs no curl.
func healthcheck(args []string, getenv func(string) string) error {
	cfg, err := config.Load(args, getenv)
	if err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(cfg.Addr)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	c := &http.Client{Timeout: 5 * time.Second}
	res, err := c.Get("http://" + net.JoinHostPort(host, port) + cfg.BasePath + "/healthz") //nolint:gosec // this server's own configured address
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return fmt.Errorf("healthcheck: %s %s", res.Status, strings.TrimSpace(string(body)))
	}
	return nil
}

func buildVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

func newLogger(format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

func serve(args []string) error {
	cfg, err := config.Load(args, os.Getenv)
	if err != nil {
		return err
	}
	cfg.Version = buildVersion()
	log := newLogger(cfg.LogFormat, cfg.LogLevel)
	slog.SetDefault(log)
	log.Info("starting layerfix", append([]any{"version", cfg.Version, "memory_limit", applyMemoryLimit(os.Getenv), "gc_percent", applyGCPercent(os.Getenv)}, cfg.Printable()...)...)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if cfg.DatabaseURL == "" {
		// One server per SQLite data dir; a restore waits for it to stop.
		unlock, err := store.LockDataDir(cfg.DataDir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	st, err := store.Open(ctx, store.Options{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Logger: log})
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()

	photoStore, err := photos.Open(ctx, cfg)
	if err != nil {
		return err
	}
	if cfg.DatabaseURL != "" && cfg.BlobURL == "" {
		log.Warn("photos are kept in the data dir: with several instances, set LAYERFIX_BLOB_URL to an object store so every instance serves them")
	}

	analyzer, engine, err := newAnalyzer(ctx, cfg, log)
	if err != nil {
		return err
	}
	pay, err := newBilling(cfg, log)
	if err != nil {
		return err
	}
	var auth server.Authenticator // nil: local accounts
	if cfg.AuthMode == "firebase" {
		if auth, err = server.NewFirebaseAuth(ctx, cfg, st, log); err != nil {
			return err
		}
	}
	srv, err := server.New(cfg, server.Deps{Store: st, Photos: photoStore, Analyzer: analyzer, Learner: engine, Refiner: engine, Billing: pay, Authenticator: auth, Frontend: frontendFS(), Logger: log})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("LAYERFIX_ADDR: listen on %s: %w", cfg.Addr, err)
	}
	// An engine that cannot be built (a broken knowledge base) stops the
	// server as it would have stopped it before listening.
	ctx, failed := context.WithCancelCause(ctx)
	defer failed(nil)
	go func() {
		<-engine.Done()
		if _, err := engine.Engine(context.Background()); err != nil {
			failed(fmt.Errorf("%w: %w", errEngineFailed, err))
			return
		}
		log.Debug("diagnostic engine ready")
		// Start-up (knowledge base, dictionary, migrations) leaves garbage
		// behind; hand it back before idling, which matters on a Pi.
		debug.FreeOSMemory()
	}()
	log.Info("listening", "addr", l.Addr().String(), "url", "http://"+displayAddr(l.Addr())+cfg.BasePath+"/")
	err = srv.Serve(ctx, l)
	if cause := context.Cause(ctx); err == nil && errors.Is(cause, errEngineFailed) {
		err = cause
	}
	log.Info("stopped", "err", err)
	return err
}

// errEngineFailed stops the server when the engine cannot be built.
var errEngineFailed = errors.New("load the diagnostic knowledge base")

// buildEngine builds the built-in engine (tests slow it down).
var buildEngine = ai.NewEngine

// newAnalyzer is the built-in engine, or a remote model (Gemini or an
// OpenAI-compatible server) grounded in it and falling back to it. The
// engine is built in the background: the server listens and answers
// /healthz meanwhile, and an analysis that arrives before the engine is
// ready waits for it.
func newAnalyzer(ctx context.Context, cfg *config.Config, log *slog.Logger) (ai.Analyzer, *ai.EngineLoader, error) {
	engine := ai.LoadEngine(buildEngine)
	provider := cfg.AIProvider
	if provider == "" || provider == "auto" {
		provider = "builtin"
		if cfg.GeminiAPIKey != "" {
			provider = "gemini"
		}
	}
	switch provider {
	case "gemini":
		gctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		g, err := ai.NewGemini(gctx, ai.GeminiConfig{APIKey: cfg.GeminiAPIKey, Model: cfg.GeminiModel, BaseURL: cfg.GeminiBaseURL, Timeout: cfg.GeminiTimeout}, engine, log)
		if err != nil {
			return nil, nil, fmt.Errorf("LAYERFIX_GEMINI_API_KEY: set up Gemini: %w", err)
		}
		log.Info("analysis: Gemini", "model", cfg.GeminiModel, "fallback", cfg.AIFallback)
		return ai.WithFallback(g, engine, cfg.AIFallback, log), engine, nil
	case "openai":
		o, err := ai.NewOpenAI(ai.OpenAIConfig{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.OpenAIModel,
			Vision: cfg.OpenAIVision, Timeout: cfg.OpenAITimeout}, engine, log)
		if err != nil {
			return nil, nil, fmt.Errorf("LAYERFIX_OPENAI_BASE_URL: set up the OpenAI-compatible model: %w", err)
		}
		log.Info("analysis: OpenAI-compatible model", "base_url", config.RedactURL(cfg.OpenAIBaseURL), "model", cfg.OpenAIModel,
			"vision", cfg.OpenAIVision, "fallback", cfg.AIFallback)
		return ai.WithFallback(o, engine, cfg.AIFallback, log), engine, nil
	}
	log.Info("analysis: built-in offline engine")
	return engine, engine, nil
}

// newBilling is the Stripe provider when a secret key is set; nil (billing
// off, the self-hosted default) otherwise.
func newBilling(cfg *config.Config, log *slog.Logger) (billing.Provider, error) {
	if cfg.StripeSecretKey == "" {
		log.Info("billing: off (plans are granted with `layerfix user set-tier`)")
		return nil, nil
	}
	p, err := billing.NewStripe(billing.StripeConfig{
		SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret,
		Prices: cfg.StripePrices, APIBase: cfg.StripeAPIBase,
	})
	if err != nil {
		return nil, fmt.Errorf("LAYERFIX_STRIPE_SECRET_KEY: set up Stripe: %w", err)
	}
	log.Info("billing: Stripe", "api_base", config.RedactURL(cfg.StripeAPIBase))
	return p, nil
}

func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if host == "" || host == "::" || host == "0.0.0.0" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// Package config reads the server's settings from flags, LAYERFIX_*
// variables and secret files, and prints them with secrets masked.
package config

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/layerfix/layerfix/mail"
	"github.com/layerfix/layerfix/printerlink"
	"github.com/layerfix/layerfix/store/blob"
)

// Config is every setting of the server. Each field has a flag and a
// LAYERFIX_* environment variable; flags win over the environment.
type Config struct {
	Addr            string
	DataDir         string
	DatabaseURL     string
	TrustedProxies  []*net.IPNet
	BasePath        string
	TierLimits      TierLimits
	AnonLimit       int  // analyses per IP per month; -1 lifts the quota
	IPv6Prefix      int  // IPv6 addresses are counted per prefix of this many bits
	NetworkLimit    int  // free analyses per network per month, anonymous and unverified accounts together; -1: none
	RequireVerified bool // free analyses need a verified email (email must be on)
	OperatorName    string
	ContactEmail    string
	GAMeasurementID string
	MetaPixelID     string
	ShareRate       int // shares one IP may create per hour

	BlobURL     string // "": photos under DataDir/photos; s3://bucket...: an object store
	S3AccessKey string
	S3SecretKey string

	GeminiAPIKey  string
	GeminiModel   string
	GeminiBaseURL string
	GeminiTimeout time.Duration
	AIFallback    bool

	// AIProvider is who answers: builtin, gemini or openai; "auto" is
	// gemini when a Gemini key is set, else builtin.
	AIProvider    string
	OpenAIBaseURL string // an OpenAI-compatible API, up to /v1
	OpenAIAPIKey  string
	OpenAIModel   string
	OpenAIVision  bool // the model sees images: photos are sent to it
	OpenAITimeout time.Duration

	AuthMode           string // local or firebase
	FirebaseProjectID  string
	FirebaseAPIKey     string // web config, public
	FirebaseAuthDomain string
	FirebaseAppID      string
	// FirebaseAuthEmulator is the Auth emulator's host:port, set only in
	// firebase mode with a demo- project; the web app is pointed at it too.
	FirebaseAuthEmulator string
	SMTPURL              string
	MailFrom             string
	PublicURL            string // scheme://host[:port] used in emailed links

	StripeSecretKey      string // billing is off when empty
	StripePublishableKey string // public, sent to the browser
	StripeWebhookSecret  string
	StripePrices         map[string]string // paid tier -> recurring Price id
	StripeAPIBase        string            // tests: stripe-mock or a fake

	Learn bool // the built-in engine learns from fixes makers confirm
	// A confirmed step is learned once this many distinct verified accounts
	// from this many distinct networks confirmed it.
	LearnMinMakers   int
	LearnMinNetworks int

	Metrics     bool   // /metrics on the main address
	MetricsAddr string // a separate address serving /metrics

	// PrinterLink lets the server ask printers' hosts for their last job;
	// PrinterLinkNets are the networks those hosts may be on.
	PrinterLink     bool
	PrinterLinkNets []netip.Prefix

	LogFormat string     // text or json
	LogLevel  slog.Level // debug, info, warn or error
	Version   string
}

// TierLimits maps a subscription tier to its monthly allowance.
type TierLimits map[string]int

// Tiers in display order with their names: Free, Hobby, Pro, Print Farm.
var Tiers = []struct{ ID, Name string }{
	{"free", "Free"}, {"hobby", "Hobby"}, {"pro", "Pro"}, {"farm", "Print Farm"},
}

// DefaultTierLimit applies to a tier with no configured limit: 3 a month.
const DefaultTierLimit = 3

// Limit is the allowance of tier, DefaultTierLimit when unknown.
func (l TierLimits) Limit(tier string) int {
	if n, ok := l[tier]; ok {
		return n
	}
	return DefaultTierLimit
}

// String renders the limits in the LAYERFIX_TIER_LIMITS syntax.
func (l TierLimits) String() string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, l[k])
	}
	return strings.Join(parts, ",")
}

var tierName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// emulatorHostRe is a host name or IPv4 address of the Firebase Auth emulator.
var emulatorHostRe = regexp.MustCompile(`^[A-Za-z0-9.-]{1,253}$`)

func parseTierLimits(s string) (TierLimits, error) {
	out := TierLimits{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || !tierName.MatchString(k) || err != nil || n < 0 || n > 1_000_000 {
			return nil, fmt.Errorf("%q is not tier=count (e.g. free=3,hobby=20,pro=50,farm=175)", part)
		}
		out[k] = n
	}
	if len(out) == 0 {
		return nil, errors.New("no tier=count pairs")
	}
	return out, nil
}

type setting struct {
	flag, env, def, usage string
	secret                bool
	set                   func(c *Config, v string) error
}

func settings() []setting {
	str := func(p func(*Config) *string) func(*Config, string) error {
		return func(c *Config, v string) error { *p(c) = strings.TrimSpace(v); return nil }
	}
	return []setting{
		{"addr", "LAYERFIX_ADDR", ":8080", "listen address", false, func(c *Config, v string) error {
			if _, _, err := net.SplitHostPort(v); err != nil {
				return fmt.Errorf("%q is not host:port (e.g. :8080)", v)
			}
			c.Addr = v
			return nil
		}},
		{"data-dir", "LAYERFIX_DATA_DIR", "./data", "data directory (SQLite file, photos)", false, func(c *Config, v string) error {
			if strings.TrimSpace(v) == "" {
				return errors.New("must not be empty")
			}
			c.DataDir = v
			return nil
		}},
		{"database-url", "LAYERFIX_DATABASE_URL", "", "empty: SQLite in the data dir; postgres://...: PostgreSQL", true, func(c *Config, v string) error {
			if v != "" && !strings.HasPrefix(v, "postgres://") && !strings.HasPrefix(v, "postgresql://") {
				return errors.New("must be empty (SQLite) or a postgres:// URL")
			}
			c.DatabaseURL = v
			return nil
		}},
		{"trusted-proxies", "LAYERFIX_TRUSTED_PROXIES", "", "comma-separated CIDRs whose X-Forwarded-For is believed", false, func(c *Config, v string) error {
			c.TrustedProxies = nil
			for _, p := range strings.Split(v, ",") {
				p = strings.TrimSpace(p)
				if p == "" {
					continue
				}
				if !strings.Contains(p, "/") {
					if ip := net.ParseIP(p); ip != nil {
						if ip.To4() != nil {
							p += "/32"
						} else {
							p += "/128"
						}
					}
				}
				_, n, err := net.ParseCIDR(p)
				if err != nil {
					return fmt.Errorf("%q is not a CIDR such as 10.0.0.0/8", p)
				}
				c.TrustedProxies = append(c.TrustedProxies, n)
			}
			return nil
		}},
		{"base-path", "LAYERFIX_BASE_PATH", "", "serve under a sub-path such as /layerfix", false, func(c *Config, v string) error {
			v = strings.TrimRight(strings.TrimSpace(v), "/")
			if v != "" && !regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)+$`).MatchString(v) {
				return fmt.Errorf("%q is not a path such as /layerfix", v)
			}
			c.BasePath = v
			return nil
		}},
		{"blob-url", "LAYERFIX_BLOB_URL", "", "empty: photos under the data dir; s3://bucket[/prefix]?endpoint=host:port&region=...: an S3-compatible object store", false, func(c *Config, v string) error {
			if v != "" {
				if _, err := blob.ParseS3URL(v); err != nil {
					return err
				}
			}
			c.BlobURL = v
			return nil
		}},
		{"s3-access-key", "LAYERFIX_S3_ACCESS_KEY", "", "access key of the object store (empty: AWS_* variables or the instance role)", true, str(func(c *Config) *string { return &c.S3AccessKey })},
		{"s3-secret-key", "LAYERFIX_S3_SECRET_KEY", "", "secret key of the object store", true, str(func(c *Config) *string { return &c.S3SecretKey })},
		{"tier-limits", "LAYERFIX_TIER_LIMITS", "free=3,hobby=20,pro=50,farm=175", "monthly analyses per tier", false, func(c *Config, v string) error {
			l, err := parseTierLimits(v)
			c.TierLimits = l
			return err
		}},
		{"anon-monthly-limit", "LAYERFIX_ANON_MONTHLY_LIMIT", "3", "anonymous analyses per IP per month (unlimited lifts the quota)", false, func(c *Config, v string) error {
			if strings.EqualFold(v, "unlimited") {
				c.AnonLimit = -1
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1_000_000 {
				return fmt.Errorf("%q is not a count from 0 to 1000000 or 'unlimited'", v)
			}
			c.AnonLimit = n
			return nil
		}},
		{"anon-ipv6-prefix", "LAYERFIX_ANON_IPV6_PREFIX", "64", "IPv6 addresses count per prefix of this many bits for every per-address limit (48-128)", false, func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 32 || n > 128 {
				return fmt.Errorf("%q is not a prefix length from 32 to 128", v)
			}
			c.IPv6Prefix = n
			return nil
		}},
		{"network-monthly-limit", "LAYERFIX_NETWORK_MONTHLY_LIMIT", "10", "free analyses one network gets per month across anonymous use and unverified accounts (unlimited lifts it)", false, func(c *Config, v string) error {
			if strings.EqualFold(v, "unlimited") {
				c.NetworkLimit = -1
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1_000_000 {
				return fmt.Errorf("%q is not a count from 0 to 1000000 or 'unlimited'", v)
			}
			c.NetworkLimit = n
			return nil
		}},
		{"require-verified", "LAYERFIX_REQUIRE_VERIFIED", "off", "free-tier analyses need a verified email address (needs email or Firebase)", false, onOffSetting(func(c *Config) *bool { return &c.RequireVerified })},
		{"share-rate", "LAYERFIX_SHARE_RATE", "30", "share links one IP may create per hour", false, countSetting(1, 100000, func(c *Config) *int { return &c.ShareRate })},
		{"operator-name", "LAYERFIX_OPERATOR_NAME", "", "who runs this server (legal pages)", false, str(func(c *Config) *string { return &c.OperatorName })},
		{"contact-email", "LAYERFIX_CONTACT_EMAIL", "", "contact address (legal pages)", false, func(c *Config, v string) error {
			if v != "" {
				if a, err := netmail.ParseAddress(v); err != nil || a.Address != v {
					return fmt.Errorf("%q is not an email address", v)
				}
			}
			c.ContactEmail = v
			return nil
		}},
		{"ga-measurement-id", "LAYERFIX_GA_MEASUREMENT_ID", "", "Google Analytics 4 id (analytics off when empty)", false, func(c *Config, v string) error {
			if v != "" && !regexp.MustCompile(`^G-[A-Z0-9]{4,16}$`).MatchString(v) {
				return fmt.Errorf("%q is not a GA4 measurement id such as G-ABC123XYZ", v)
			}
			c.GAMeasurementID = v
			return nil
		}},
		{"meta-pixel-id", "LAYERFIX_META_PIXEL_ID", "", "Meta pixel id (pixel off when empty)", false, func(c *Config, v string) error {
			if v != "" && !regexp.MustCompile(`^[0-9]{5,20}$`).MatchString(v) {
				return fmt.Errorf("%q is not a numeric Meta pixel id", v)
			}
			c.MetaPixelID = v
			return nil
		}},
		{"gemini-api-key", "LAYERFIX_GEMINI_API_KEY", "", "Gemini API key (built-in engine only when empty)", true, str(func(c *Config) *string { return &c.GeminiAPIKey })},
		{"gemini-model", "LAYERFIX_GEMINI_MODEL", "gemini-2.5-flash", "Gemini model", false, func(c *Config, v string) error {
			if !regexp.MustCompile(`^[A-Za-z0-9._-]+$`).MatchString(v) {
				return fmt.Errorf("%q is not a model name such as gemini-2.5-flash", v)
			}
			c.GeminiModel = v
			return nil
		}},
		{"gemini-base-url", "LAYERFIX_GEMINI_BASE_URL", "", "optional Gemini proxy or gateway URL", false, httpURLSetting(func(c *Config) *string { return &c.GeminiBaseURL })},
		{"gemini-timeout", "LAYERFIX_GEMINI_TIMEOUT", "45s", "time budget of one Gemini analysis, retries included", false, durationSetting(100*time.Millisecond, 10*time.Minute, "45s", func(c *Config) *time.Duration { return &c.GeminiTimeout })},
		{"ai-provider", "LAYERFIX_AI_PROVIDER", "auto", "who answers analyses: builtin, gemini, openai (an OpenAI-compatible server such as Ollama) or auto (gemini when LAYERFIX_GEMINI_API_KEY is set, else builtin)", false, func(c *Config, v string) error {
			v = strings.ToLower(strings.TrimSpace(v))
			switch v {
			case "auto", "builtin", "gemini", "openai":
			case "built-in":
				v = "builtin"
			default:
				return fmt.Errorf("%q is not auto, builtin, gemini or openai", v)
			}
			c.AIProvider = v
			return nil
		}},
		{"openai-base-url", "LAYERFIX_OPENAI_BASE_URL", "", "OpenAI-compatible API up to /v1, e.g. http://127.0.0.1:11434/v1 for Ollama (with LAYERFIX_AI_PROVIDER=openai)", false, httpURLSetting(func(c *Config) *string { return &c.OpenAIBaseURL })},
		{"openai-api-key", "LAYERFIX_OPENAI_API_KEY", "", "API key of the OpenAI-compatible server (local servers often need none)", true, str(func(c *Config) *string { return &c.OpenAIAPIKey })},
		{"openai-model", "LAYERFIX_OPENAI_MODEL", "", "model the OpenAI-compatible server answers with, e.g. qwen2.5:7b; makers see this name", false, func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if v != "" && !modelName.MatchString(v) {
				return fmt.Errorf("%q is not a model name such as qwen2.5:7b or org/model-7b", v)
			}
			c.OpenAIModel = v
			return nil
		}},
		{"openai-vision", "LAYERFIX_OPENAI_VISION", "off", "the OpenAI-compatible model sees images: the photos are sent to it (on/off)", false, onOffSetting(func(c *Config) *bool { return &c.OpenAIVision })},
		{"openai-timeout", "LAYERFIX_OPENAI_TIMEOUT", "120s", "time budget of one analysis by the OpenAI-compatible model, retries included", false, durationSetting(100*time.Millisecond, 30*time.Minute, "120s", func(c *Config) *time.Duration { return &c.OpenAITimeout })},
		{"ai-fallback", "LAYERFIX_AI_FALLBACK", "on", "answer with the built-in engine when the AI model (Gemini or OpenAI-compatible) fails (on/off)", false, onOffSetting(func(c *Config) *bool { return &c.AIFallback })},
		{"learn", "LAYERFIX_LEARN", "on", "the built-in engine learns from the fixes makers confirm on this server (on/off)", false, onOffSetting(func(c *Config) *bool { return &c.Learn })},
		{"learn-min-makers", "LAYERFIX_LEARN_MIN_MAKERS", "3", "distinct verified accounts that must confirm a step before it is learned", false, countSetting(1, 1000, func(c *Config) *int { return &c.LearnMinMakers })},
		{"learn-min-networks", "LAYERFIX_LEARN_MIN_NETWORKS", "2", "distinct networks (IPv4 /24, IPv6 prefix) those confirmations must come from", false, countSetting(1, 1000, func(c *Config) *int { return &c.LearnMinNetworks })},
		{"auth-mode", "LAYERFIX_AUTH_MODE", "local", "accounts: local (built in) or firebase", false, func(c *Config, v string) error {
			if v != "local" && v != "firebase" {
				return fmt.Errorf("%q is not local or firebase", v)
			}
			c.AuthMode = v
			return nil
		}},
		{"firebase-project-id", "LAYERFIX_FIREBASE_PROJECT_ID", "", "Firebase project id (firebase mode)", false, func(c *Config, v string) error {
			if v != "" && !regexp.MustCompile(`^[a-z0-9][a-z0-9-]{3,40}$`).MatchString(v) {
				return fmt.Errorf("%q is not a Firebase project id", v)
			}
			c.FirebaseProjectID = v
			return nil
		}},
		{"firebase-api-key", "LAYERFIX_FIREBASE_API_KEY", "", "Firebase web API key (public, sent to the browser)", false, str(func(c *Config) *string { return &c.FirebaseAPIKey })},
		{"firebase-auth-domain", "LAYERFIX_FIREBASE_AUTH_DOMAIN", "", "Firebase auth domain (default PROJECT.firebaseapp.com)", false, str(func(c *Config) *string { return &c.FirebaseAuthDomain })},
		{"firebase-app-id", "LAYERFIX_FIREBASE_APP_ID", "", "Firebase web app id", false, str(func(c *Config) *string { return &c.FirebaseAppID })},
		{"smtp-url", "LAYERFIX_SMTP_URL", "", "smtp://user:pass@host:587 or smtps://...:465 (email off when empty)", true, func(c *Config, v string) error {
			if v != "" {
				if _, err := mail.NewSMTP(v, "x@example.com"); err != nil {
					return err
				}
			}
			c.SMTPURL = v
			return nil
		}},
		{"mail-from", "LAYERFIX_MAIL_FROM", "", "sender address of emails", false, func(c *Config, v string) error {
			if v != "" {
				if _, err := netmail.ParseAddress(v); err != nil {
					return fmt.Errorf("%q is not an email address", v)
				}
			}
			c.MailFrom = v
			return nil
		}},
		{"public-url", "LAYERFIX_PUBLIC_URL", "http://localhost:8080", "public origin used in emailed links", false, func(c *Config, v string) error {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || (u.Path != "" && u.Path != "/") {
				return fmt.Errorf("%q is not an origin such as https://layerfix.example.com", v)
			}
			c.PublicURL = strings.TrimRight(v, "/")
			return nil
		}},
		{"stripe-secret-key", "LAYERFIX_STRIPE_SECRET_KEY", "", "Stripe secret key (billing off when empty)", true, func(c *Config, v string) error {
			if v != "" && !regexp.MustCompile(`^(sk|rk)_(test|live)_[A-Za-z0-9_]+$`).MatchString(v) {
				return errors.New("is not a Stripe secret key (sk_live_..., sk_test_... or a restricted rk_... key)")
			}
			c.StripeSecretKey = v
			return nil
		}},
		{"stripe-publishable-key", "LAYERFIX_STRIPE_PUBLISHABLE_KEY", "", "Stripe publishable key (public, sent to the browser)", false, func(c *Config, v string) error {
			if v != "" && !regexp.MustCompile(`^pk_(test|live)_[A-Za-z0-9_]+$`).MatchString(v) {
				return fmt.Errorf("%q is not a Stripe publishable key (pk_live_... or pk_test_...)", v)
			}
			c.StripePublishableKey = v
			return nil
		}},
		{"stripe-webhook-secret", "LAYERFIX_STRIPE_WEBHOOK_SECRET", "", "signing secret of the Stripe webhook endpoint (whsec_...)", true, func(c *Config, v string) error {
			if v != "" && !strings.HasPrefix(v, "whsec_") {
				return errors.New("is not a webhook signing secret (whsec_...)")
			}
			c.StripeWebhookSecret = v
			return nil
		}},
		{"stripe-price-hobby", "LAYERFIX_STRIPE_PRICE_HOBBY", "", "Stripe Price id of the Hobby plan (price_...)", false, stripePrice("hobby")},
		{"stripe-price-pro", "LAYERFIX_STRIPE_PRICE_PRO", "", "Stripe Price id of the Pro plan (price_...)", false, stripePrice("pro")},
		{"stripe-price-farm", "LAYERFIX_STRIPE_PRICE_FARM", "", "Stripe Price id of the Print Farm plan (price_...)", false, stripePrice("farm")},
		{"stripe-api-base", "LAYERFIX_STRIPE_API_BASE", "", "optional Stripe API base URL (tests: stripe-mock)", false, func(c *Config, v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
					return fmt.Errorf("%q is not an http(s) URL", v)
				}
			}
			c.StripeAPIBase = strings.TrimRight(v, "/")
			return nil
		}},
		{"log-level", "LAYERFIX_LOG_LEVEL", "info", "log level: debug, info, warn or error (health probes log at debug)", false, func(c *Config, v string) error {
			if err := c.LogLevel.UnmarshalText([]byte(strings.TrimSpace(v))); err != nil {
				return fmt.Errorf("%q is not debug, info, warn or error", v)
			}
			return nil
		}},
		{"printer-link", "LAYERFIX_PRINTER_LINK", "off", "let makers pull the last job, config and log from their printer's host (on/off; off on a public server)", false, onOffSetting(func(c *Config) *bool { return &c.PrinterLink })},
		{"printer-link-nets", "LAYERFIX_PRINTER_LINK_NETS", "", "networks printer hosts may be on (comma-separated CIDRs; empty: private IPv4 ranges and IPv6 ULA; loopback only when listed; link-local and metadata addresses never)", false, func(c *Config, v string) error {
			nets, err := printerlink.ParseNets(v)
			c.PrinterLinkNets = nets
			return err
		}},
		{"metrics", "LAYERFIX_METRICS", "off", "Prometheus metrics at /metrics on the main address (on/off; public to whoever reaches the server)", false, onOffSetting(func(c *Config) *bool { return &c.Metrics })},
		{"metrics-addr", "LAYERFIX_METRICS_ADDR", "", "a separate listen address for Prometheus metrics, e.g. 127.0.0.1:9090 (empty: none)", false, func(c *Config, v string) error {
			if v != "" {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return fmt.Errorf("%q is not host:port", v)
				}
			}
			c.MetricsAddr = v
			return nil
		}},
		{"log-format", "LAYERFIX_LOG_FORMAT", "text", "log format: text or json", false, func(c *Config, v string) error {
			if v != "text" && v != "json" {
				return fmt.Errorf("%q is not text or json", v)
			}
			c.LogFormat = v
			return nil
		}},
	}
}

// Load reads flags from args and LAYERFIX_* variables from getenv.
// An error names the flag or variable at fault in one line.
func Load(args []string, getenv func(string) string) (*Config, error) {
	c, rest, err := Parse(args, getenv)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("unexpected argument %q", rest[0])
	}
	return c, err
}

// Parse is Load for subcommands: it returns the arguments
// after the flags.
func Parse(args []string, getenv func(string) string) (*Config, []string, error) {
	fs := flag.NewFlagSet("layerfix", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	ss := settings()
	vals := make([]*string, len(ss))
	for i, s := range ss {
		vals[i] = fs.String(s.flag, "", fmt.Sprintf("%s (env %s, default %q)", s.usage, s.env, s.def))
	}
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	c := &Config{}
	for i, s := range ss {
		v, name := *vals[i], "-"+s.flag
		if v == "" {
			v, name = getenv(s.env), s.env
		}
		// A secret can come from a file (Docker and systemd credentials):
		// LAYERFIX_X_FILE=/run/secrets/x, trailing newline dropped.
		if file := getenv(s.env + "_FILE"); v == "" && s.secret && file != "" {
			b, err := os.ReadFile(file)
			if err != nil {
				return nil, nil, fmt.Errorf("%s_FILE: %w", s.env, err)
			}
			v, name = strings.TrimRight(string(b), "\r\n"), s.env+"_FILE"
			if v == "" {
				return nil, nil, fmt.Errorf("%s_FILE: %s is empty", s.env, file)
			}
		}
		if v == "" {
			v, name = s.def, s.env
		}
		if err := s.set(c, v); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, redactErr(err, v, s.printed(v)))
		}
	}
	return c, fs.Args(), c.check(getenv)
}

// check validates settings that depend on each other.
func (c *Config) check(getenv func(string) string) error {
	if c.AuthMode == "firebase" && c.FirebaseProjectID == "" {
		return errors.New("LAYERFIX_FIREBASE_PROJECT_ID: required when LAYERFIX_AUTH_MODE=firebase")
	}
	// The emulator skips signature checks: never with a real project.
	if h := getenv("FIREBASE_AUTH_EMULATOR_HOST"); h != "" && c.AuthMode == "firebase" && !strings.HasPrefix(c.FirebaseProjectID, "demo-") {
		return errors.New("FIREBASE_AUTH_EMULATOR_HOST: set, but LAYERFIX_FIREBASE_PROJECT_ID does not start with demo-; the emulator accepts unsigned tokens, so it is refused for real projects")
	}
	if h := getenv("FIREBASE_AUTH_EMULATOR_HOST"); h != "" && c.AuthMode == "firebase" {
		// It reaches the browser's configuration and the CSP header: host:port only.
		host, port, err := net.SplitHostPort(h)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 1 || n > 65535 || !emulatorHostRe.MatchString(host) {
			return fmt.Errorf("FIREBASE_AUTH_EMULATOR_HOST: %q is not host:port", h)
		}
		c.FirebaseAuthEmulator = h
	}
	if c.StripeSecretKey != "" {
		for _, k := range []struct{ env, v string }{
			{"LAYERFIX_STRIPE_PUBLISHABLE_KEY", c.StripePublishableKey}, {"LAYERFIX_STRIPE_WEBHOOK_SECRET", c.StripeWebhookSecret},
			{"LAYERFIX_STRIPE_PRICE_HOBBY", c.StripePrices["hobby"]}, {"LAYERFIX_STRIPE_PRICE_PRO", c.StripePrices["pro"]},
			{"LAYERFIX_STRIPE_PRICE_FARM", c.StripePrices["farm"]},
		} {
			if k.v == "" {
				return fmt.Errorf("%s: required when LAYERFIX_STRIPE_SECRET_KEY is set", k.env)
			}
		}
	}
	if c.SMTPURL != "" && c.MailFrom == "" {
		return errors.New("LAYERFIX_MAIL_FROM: required when LAYERFIX_SMTP_URL is set")
	}
	if c.RequireVerified && c.SMTPURL == "" && c.AuthMode != "firebase" {
		return errors.New("LAYERFIX_REQUIRE_VERIFIED: needs a way to verify emails: set LAYERFIX_SMTP_URL or use LAYERFIX_AUTH_MODE=firebase")
	}
	if (c.S3AccessKey == "") != (c.S3SecretKey == "") {
		return errors.New("LAYERFIX_S3_ACCESS_KEY and LAYERFIX_S3_SECRET_KEY: set both or neither")
	}
	if c.S3AccessKey != "" && c.BlobURL == "" {
		return errors.New("LAYERFIX_S3_ACCESS_KEY: set, but LAYERFIX_BLOB_URL is empty (photos are on disk)")
	}
	if err := c.checkAI(); err != nil {
		return err
	}
	if c.FirebaseAuthDomain == "" && c.FirebaseProjectID != "" {
		c.FirebaseAuthDomain = c.FirebaseProjectID + ".firebaseapp.com"
	}
	return nil
}

// checkAI resolves the AI provider and checks that it has what it needs.
func (c *Config) checkAI() error {
	if c.AIProvider == "auto" {
		c.AIProvider = "builtin"
		if c.GeminiAPIKey != "" {
			c.AIProvider = "gemini"
		}
	}
	switch c.AIProvider {
	case "gemini":
		if c.GeminiAPIKey == "" {
			return errors.New("LAYERFIX_GEMINI_API_KEY: required when LAYERFIX_AI_PROVIDER=gemini")
		}
	case "openai":
		if c.OpenAIBaseURL == "" {
			return errors.New("LAYERFIX_OPENAI_BASE_URL: required when LAYERFIX_AI_PROVIDER=openai (e.g. http://127.0.0.1:11434/v1 for Ollama)")
		}
		if c.OpenAIModel == "" {
			return errors.New("LAYERFIX_OPENAI_MODEL: required when LAYERFIX_AI_PROVIDER=openai (e.g. qwen2.5:7b)")
		}
	}
	// A half-made setup is refused rather than silently ignored.
	if c.AIProvider != "openai" && (c.OpenAIBaseURL != "" || c.OpenAIModel != "" || c.OpenAIAPIKey != "") {
		return fmt.Errorf("LAYERFIX_AI_PROVIDER: is %s, but an OpenAI-compatible model is configured: set LAYERFIX_AI_PROVIDER=openai or unset the LAYERFIX_OPENAI_* settings", c.AIProvider)
	}
	return nil
}

func joinPrefixes(ps []netip.Prefix) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return strings.Join(out, ",")
}

// Printable lists every setting as "ENV=value" with secrets masked.
func (c *Config) Printable() []any {
	out := []any{}
	get := map[string]string{
		"LAYERFIX_ADDR": c.Addr, "LAYERFIX_DATA_DIR": c.DataDir, "LAYERFIX_DATABASE_URL": c.DatabaseURL,
		"LAYERFIX_TRUSTED_PROXIES": joinNets(c.TrustedProxies), "LAYERFIX_BASE_PATH": c.BasePath,
		"LAYERFIX_BLOB_URL": c.BlobURL, "LAYERFIX_S3_ACCESS_KEY": c.S3AccessKey, "LAYERFIX_S3_SECRET_KEY": c.S3SecretKey,
		"LAYERFIX_TIER_LIMITS": c.TierLimits.String(), "LAYERFIX_ANON_MONTHLY_LIMIT": anonString(c.AnonLimit),
		"LAYERFIX_SHARE_RATE":    strconv.Itoa(c.ShareRate),
		"LAYERFIX_OPERATOR_NAME": c.OperatorName, "LAYERFIX_CONTACT_EMAIL": c.ContactEmail,
		"LAYERFIX_GA_MEASUREMENT_ID": c.GAMeasurementID, "LAYERFIX_META_PIXEL_ID": c.MetaPixelID,
		"LAYERFIX_GEMINI_API_KEY": c.GeminiAPIKey, "LAYERFIX_GEMINI_MODEL": c.GeminiModel,
		"LAYERFIX_GEMINI_BASE_URL": c.GeminiBaseURL, "LAYERFIX_GEMINI_TIMEOUT": c.GeminiTimeout.String(),
		"LAYERFIX_AI_FALLBACK": onOff(c.AIFallback), "LAYERFIX_AI_PROVIDER": c.AIProvider,
		"LAYERFIX_OPENAI_BASE_URL": c.OpenAIBaseURL, "LAYERFIX_OPENAI_API_KEY": c.OpenAIAPIKey, "LAYERFIX_OPENAI_MODEL": c.OpenAIModel,
		"LAYERFIX_OPENAI_VISION": onOff(c.OpenAIVision), "LAYERFIX_OPENAI_TIMEOUT": c.OpenAITimeout.String(), "LAYERFIX_LOG_LEVEL": c.LogLevel.String(), "LAYERFIX_LEARN": onOff(c.Learn),
		"LAYERFIX_LEARN_MIN_MAKERS": strconv.Itoa(c.LearnMinMakers), "LAYERFIX_LEARN_MIN_NETWORKS": strconv.Itoa(c.LearnMinNetworks), "LAYERFIX_ANON_IPV6_PREFIX": strconv.Itoa(c.IPv6Prefix),
		"LAYERFIX_NETWORK_MONTHLY_LIMIT": anonString(c.NetworkLimit), "LAYERFIX_REQUIRE_VERIFIED": onOff(c.RequireVerified), "LAYERFIX_LOG_FORMAT": c.LogFormat,
		"LAYERFIX_METRICS": onOff(c.Metrics), "LAYERFIX_PRINTER_LINK": onOff(c.PrinterLink), "LAYERFIX_PRINTER_LINK_NETS": joinPrefixes(c.PrinterLinkNets), "LAYERFIX_METRICS_ADDR": c.MetricsAddr,
		"LAYERFIX_AUTH_MODE": c.AuthMode, "LAYERFIX_FIREBASE_PROJECT_ID": c.FirebaseProjectID,
		"LAYERFIX_FIREBASE_API_KEY": c.FirebaseAPIKey, "LAYERFIX_FIREBASE_AUTH_DOMAIN": c.FirebaseAuthDomain,
		"LAYERFIX_FIREBASE_APP_ID": c.FirebaseAppID, "LAYERFIX_SMTP_URL": c.SMTPURL, "LAYERFIX_MAIL_FROM": c.MailFrom,
		"LAYERFIX_PUBLIC_URL": c.PublicURL, "LAYERFIX_STRIPE_API_BASE": c.StripeAPIBase,
		"LAYERFIX_STRIPE_SECRET_KEY": c.StripeSecretKey, "LAYERFIX_STRIPE_PUBLISHABLE_KEY": c.StripePublishableKey,
		"LAYERFIX_STRIPE_WEBHOOK_SECRET": c.StripeWebhookSecret, "LAYERFIX_STRIPE_PRICE_HOBBY": c.StripePrices["hobby"],
		"LAYERFIX_STRIPE_PRICE_PRO": c.StripePrices["pro"], "LAYERFIX_STRIPE_PRICE_FARM": c.StripePrices["farm"],
	}
	for _, s := range settings() {
		out = append(out, s.env, s.printed(get[s.env]))
	}
	return out
}

// stripePrice sets the Price id of a paid tier.
func stripePrice(tier string) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v != "" && !regexp.MustCompile(`^(price|plan)_[A-Za-z0-9_]+$`).MatchString(v) {
			return fmt.Errorf("%q is not a Stripe Price id (price_...)", v)
		}
		if c.StripePrices == nil {
			c.StripePrices = map[string]string{}
		}
		if v != "" {
			c.StripePrices[tier] = v
		}
		return nil
	}
}

// harmlessParams are connection-string parameters a secret setting's URL
// prints as they are; every other parameter's value (password=,
// sslpassword=, token=, key=...) is hidden.
var harmlessParams = map[string]bool{
	"sslmode": true, "starttls": true, "connect_timeout": true, "application_name": true, "search_path": true,
	"timezone": true, "pool_max_conns": true, "region": true, "endpoint": true, "target_session_attrs": true,
}

// secretParam matches query parameter names whose value is a credential
// (key=, access_token=, X-Goog-Signature=, password=, session=...).
var secretParam = regexp.MustCompile(`(?i)key|token|secret|passw|pwd|sig|auth|cred|session|code`)

const hidden = "xxxxx"

// mask prints a secret setting: a URL with its password and every
// parameter not in harmlessParams hidden, anything else as its length.
func mask(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "set (" + strconv.Itoa(len(v)) + " chars, hidden)"
	}
	redact(u, func(k string) bool { return !harmlessParams[strings.ToLower(k)] })
	return u.String()
}

// RedactURL prints a URL-typed setting (or any value that may be one): the
// userinfo's password (a lone user name too, which is usually a token) and
// the values of secret-looking query parameters are hidden. A value with
// nothing to hide is returned as it is.
func RedactURL(v string) string {
	u, err := url.Parse(v)
	if err != nil {
		if strings.ContainsAny(v, "@?") {
			return "set (" + strconv.Itoa(len(v)) + " chars, hidden)"
		}
		return v
	}
	if !redact(u, secretParam.MatchString) {
		return v
	}
	return u.String()
}

// redact hides u's userinfo secret and the values of the query parameters
// hide names, and drops the fragment; it reports whether it hid anything.
func redact(u *url.URL, hide func(param string) bool) bool {
	changed := false
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), hidden)
		} else {
			u.User = url.User(hidden)
		}
		changed = true
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			if hide(k) {
				for i := range vs {
					vs[i] = hidden
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment, changed = "", "", true
	}
	return changed
}

// redactErr replaces a setting's value in its error by what the log may show.
func redactErr(err error, v, shown string) error {
	if v == shown || v == "" {
		return err
	}
	msg := strings.ReplaceAll(err.Error(), strconv.Quote(v), strconv.Quote(shown))
	return errors.New(strings.ReplaceAll(msg, v, shown))
}

// printed is how a setting's value may appear in the log.
func (s setting) printed(v string) string {
	if s.secret && v != "" {
		return mask(v)
	}
	return RedactURL(v)
}

func joinNets(ns []*net.IPNet) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = n.String()
	}
	return strings.Join(s, ",")
}

func anonString(n int) string {
	if n < 0 {
		return "unlimited"
	}
	return strconv.Itoa(n)
}

// countSetting parses a whole number from min to max into the field p
// points to.
func countSetting(min, max int, p func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < min || n > max {
			return fmt.Errorf("%q is not a count from %d to %d", v, min, max)
		}
		*p(c) = n
		return nil
	}
}

// modelName is a model as servers name them: gpt-4o-mini, qwen2.5vl:7b,
// meta-llama/Llama-3.1-8B-Instruct, model.gguf.
var modelName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$`)

// httpURLSetting parses an optional http(s) URL, without a trailing slash,
// into the field p points to.
func httpURLSetting(p func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error {
		v = strings.TrimSpace(v)
		if v != "" {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "" {
				return fmt.Errorf("%q is not an http(s) URL", v)
			}
		}
		*p(c) = strings.TrimRight(v, "/")
		return nil
	}
}

// durationSetting parses a duration from min to max into the field p
// points to; example is shown in the error.
func durationSetting(min, max time.Duration, example string, p func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < min || d > max {
			return fmt.Errorf("%q is not a duration from %s to %s (e.g. %s)", v, fmtDuration(min), fmtDuration(max), example)
		}
		*p(c) = d
		return nil
	}
}

// fmtDuration writes 10m rather than 10m0s.
func fmtDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// onOffSetting parses an on/off switch into the field p points to.
func onOffSetting(p func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "on", "true", "1", "yes":
			*p(c) = true
		case "off", "false", "0", "no":
			*p(c) = false
		default:
			return fmt.Errorf("%q is not on or off", v)
		}
		return nil
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

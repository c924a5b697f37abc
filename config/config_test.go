package config

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestConfigErrorsNameTheVariable(t *testing.T) {
	cases := map[string]string{
		"LAYERFIX_ADDR":               "8080",
		"LAYERFIX_DATABASE_URL":       "mysql://x",
		"LAYERFIX_TRUSTED_PROXIES":    "10.0.0.0/99",
		"LAYERFIX_BASE_PATH":          "layer fix",
		"LAYERFIX_TIER_LIMITS":        "free=three",
		"LAYERFIX_ANON_MONTHLY_LIMIT": "-2",
		"LAYERFIX_CONTACT_EMAIL":      "not-an-email",
		"LAYERFIX_GA_MEASUREMENT_ID":  "UA-1",
		"LAYERFIX_META_PIXEL_ID":      "abc",
		"LAYERFIX_GEMINI_TIMEOUT":     "forever",
		"LAYERFIX_AI_FALLBACK":        "maybe",
		"LAYERFIX_SHARE_RATE":         "0",
		"LAYERFIX_LEARN_MIN_MAKERS":   "0",
		"LAYERFIX_LEARN_MIN_NETWORKS": "two",
	}
	for k, v := range cases {
		_, err := Load(nil, func(name string) string {
			if name == k {
				return v
			}
			return ""
		})
		if err == nil || !strings.HasPrefix(err.Error(), k+":") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%s: err = %v, want a one-line error naming it", k, v, err)
		}
	}
	if _, err := Load([]string{"-addr", "nope"}, func(string) string { return "" }); err == nil || !strings.HasPrefix(err.Error(), "-addr:") {
		t.Errorf("flag error: %v", err)
	}
	cfg := testConfig(t, map[string]string{"LAYERFIX_GEMINI_API_KEY": "AIzaSECRETSECRET", "LAYERFIX_DATABASE_URL": "postgres://u:hunter2@db/x"})
	printed := strings.ToLower(strings.Join(strings.Fields(strings.Trim(strings.ReplaceAll(fmtArgs(cfg.Printable()), ",", " "), "[]")), " "))
	if strings.Contains(printed, "secretsecret") || strings.Contains(printed, "hunter2") {
		t.Fatalf("secrets printed: %s", printed)
	}
	if cfg.DataDir != "./data" || cfg.Addr != ":8080" || cfg.AnonLimit != 3 || cfg.TierLimits.Limit("farm") != 175 ||
		cfg.ShareRate != 30 || cfg.LearnMinMakers != 3 || cfg.LearnMinNetworks != 2 {
		t.Fatalf("defaults: %+v", cfg)
	}
}

func fmtArgs(a []any) string {
	b, _ := json.Marshal(a)
	return string(b)
}

func TestPrinterLinkSettings(t *testing.T) {
	cfg := testConfig(t, nil)
	if cfg.PrinterLink || joinPrefixes(cfg.PrinterLinkNets) != "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7" {
		t.Fatalf("defaults: %v %v", cfg.PrinterLink, cfg.PrinterLinkNets)
	}
	cfg = testConfig(t, map[string]string{"LAYERFIX_PRINTER_LINK": "on", "LAYERFIX_PRINTER_LINK_NETS": "192.168.1.0/24, 127.0.0.1"})
	if !cfg.PrinterLink || joinPrefixes(cfg.PrinterLinkNets) != "192.168.1.0/24,127.0.0.1/32" {
		t.Fatalf("set: %v %v", cfg.PrinterLink, cfg.PrinterLinkNets)
	}
	for env, want := range map[string]string{
		"LAYERFIX_PRINTER_LINK":      `LAYERFIX_PRINTER_LINK: "maybe" is not on or off`,
		"LAYERFIX_PRINTER_LINK_NETS": `LAYERFIX_PRINTER_LINK_NETS: "10.0.0.0/33" is not a CIDR such as 192.168.1.0/24`,
	} {
		v := map[string]string{"LAYERFIX_PRINTER_LINK": "maybe", "LAYERFIX_PRINTER_LINK_NETS": "10.0.0.0/33"}[env]
		if _, err := Load(nil, func(k string) string { return map[string]string{env: v}[k] }); err == nil || err.Error() != want {
			t.Errorf("%s=%s: %v", env, v, err)
		}
	}
}

// TestSecretsMaskedInTheStartupLog: passwords in the userinfo and in query
// parameters of every URL setting (database, mail, Gemini and Stripe bases,
// public URL) never reach the log; what the operator needs to check stays.
func TestSecretsMaskedInTheStartupLog(t *testing.T) {
	cfg := testConfig(t, map[string]string{
		"LAYERFIX_DATABASE_URL":    "postgres://app:db-pass-1@db.internal:5432/layerfix?sslmode=require&password=db-pass-2&sslpassword=db-pass-3",
		"LAYERFIX_SMTP_URL":        "smtp://mailer:smtp-pass-1@mail.example.com:587?token=smtp-pass-2&auth=smtp-pass-3",
		"LAYERFIX_MAIL_FROM":       "no-reply@example.com",
		"LAYERFIX_GEMINI_BASE_URL": "http://gw:gem-pass-1@gw.internal:8443/v1?key=gem-pass-2&alt=sse&X-Goog-Signature=gem-pass-3",
		"LAYERFIX_STRIPE_API_BASE": "http://stripe-user:stripe-pass-1@stripe.internal:12111/?access_token=stripe-pass-2",
		"LAYERFIX_PUBLIC_URL":      "https://admin:public-pass-1@layerfix.example.com",
		"LAYERFIX_BLOB_URL":        "s3://photos/layerfix?endpoint=minio.internal:9000&region=eu-1",
	})
	printed := fmt.Sprint(cfg.Printable()...)
	for _, secret := range []string{"db-pass-1", "db-pass-2", "db-pass-3", "smtp-pass-1", "smtp-pass-2", "smtp-pass-3",
		"gem-pass-1", "gem-pass-2", "gem-pass-3", "stripe-pass-1", "stripe-pass-2", "public-pass-1"} {
		if strings.Contains(printed, secret) {
			t.Errorf("%s in the start-up log: %s", secret, printed)
		}
	}
	for _, kept := range []string{"db.internal", "sslmode=require", "mail.example.com", "no-reply@example.com",
		"gw.internal:8443/v1", "alt=sse", "stripe.internal:12111", "layerfix.example.com",
		"s3://photos/layerfix?endpoint=minio.internal:9000&region=eu-1"} {
		if !strings.Contains(printed, kept) {
			t.Errorf("%s hidden: the operator cannot check the setting: %s", kept, printed)
		}
	}
	if got := mask("host=db user=app password=kv-secret"); strings.Contains(got, "kv-secret") {
		t.Errorf("key=value DSN printed: %s", got)
	}
}

// TestSecretsFromFiles: every secret setting also reads LAYERFIX_X_FILE.
func TestSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/gemini"
	if err := os.WriteFile(file, []byte("key-from-a-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(nil, func(k string) string {
		return map[string]string{"LAYERFIX_GEMINI_API_KEY_FILE": file}[k]
	})
	if err != nil || cfg.GeminiAPIKey != "key-from-a-file" {
		t.Fatalf("cfg %q, err %v", cfg.GeminiAPIKey, err)
	}
	if _, err := Load(nil, func(k string) string {
		return map[string]string{"LAYERFIX_STRIPE_WEBHOOK_SECRET_FILE": dir + "/missing"}[k]
	}); err == nil || !strings.Contains(err.Error(), "LAYERFIX_STRIPE_WEBHOOK_SECRET_FILE") {
		t.Fatalf("a missing secret file: %v", err)
	}
	// Only secrets read files: a public setting's _FILE is not a thing.
	cfg, _ = Load(nil, func(k string) string { return map[string]string{"LAYERFIX_ADDR_FILE": file}[k] })
	if cfg.Addr != ":8080" {
		t.Fatalf("LAYERFIX_ADDR_FILE was read: %q", cfg.Addr)
	}
}

// TestURLSettingErrorsRedacted: a URL-typed setting's error names the
// variable but hides what the start-up log hides.
func TestURLSettingErrorsRedacted(t *testing.T) {
	if got := RedactURL("https://token-pass-1@gw.example.com/?session=token-pass-2"); strings.Contains(got, "token-pass") {
		t.Errorf("a lone user name or a session parameter printed: %s", got)
	}
	for env, v := range map[string]string{
		"LAYERFIX_GEMINI_BASE_URL": "ftp://gw:bad-pass-1@gw.internal/?key=bad-pass-2",
		"LAYERFIX_STRIPE_API_BASE": "stripe.internal/?api_key=bad-pass-3",
		"LAYERFIX_PUBLIC_URL":      "https://admin:bad-pass-4@layerfix.example.com/app?token=bad-pass-5",
		"LAYERFIX_BLOB_URL":        "s3://photos?endpoint=minio.internal:9000&secret=bad-pass-6",
		"LAYERFIX_DATABASE_URL":    "mysql://app:bad-pass-7@db.internal/layerfix",
	} {
		_, err := Load(nil, func(k string) string { return map[string]string{env: v}[k] })
		if err == nil {
			t.Fatalf("%s=%s accepted", env, v)
		}
		if strings.Contains(err.Error(), "bad-pass") || !strings.Contains(err.Error(), env) {
			t.Errorf("%s: the error shows a secret or hides the variable: %v", env, err)
		}
	}
}

func TestFirebaseEmulatorRefusedForRealProjects(t *testing.T) {
	env := map[string]string{"LAYERFIX_AUTH_MODE": "firebase", "LAYERFIX_FIREBASE_PROJECT_ID": "my-real-app", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"}
	_, err := Load(nil, func(k string) string { return env[k] })
	if err == nil || !strings.HasPrefix(err.Error(), "FIREBASE_AUTH_EMULATOR_HOST:") {
		t.Fatalf("err = %v", err)
	}
	env["LAYERFIX_FIREBASE_PROJECT_ID"] = "demo-layerfix"
	if _, err := Load(nil, func(k string) string { return env[k] }); err != nil {
		t.Fatalf("demo project refused: %v", err)
	}
}

func testConfig(t testing.TB, env map[string]string) *Config {
	t.Helper()
	cfg, err := Load(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

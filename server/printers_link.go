package server

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/layerfix/layerfix/textcheck"

	"github.com/layerfix/layerfix/config"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/printerlink"
	"github.com/layerfix/layerfix/store"
)

// A printer may name the host that drives it (Moonraker, OctoPrint or
// PrusaLink), so that "Diagnose the last print" can ask it for the last job,
// the config and the log. The host's API key is sealed before it is stored
// and never leaves the server again: answers say only that one is saved.

const (
	maxHostURL    = 300
	maxHostAPIKey = 256
	// Pulls one account may make per hour.
	pullsPerHour = 30
)

// hostInput is the "host" of a printer's body.
type hostInput struct {
	Kind   string  `json:"kind"`
	URL    string  `json:"url"`
	APIKey *string `json:"apiKey"` // missing or null: keep the saved key; "": remove it
}

// optionalHost tells a body without "host" (keep the link) from one with
// "host": null (remove it).
type optionalHost struct {
	set bool
	v   *hostInput
}

func (o *optionalHost) UnmarshalJSON(b []byte) error {
	o.set = true
	if string(b) == "null" {
		return nil
	}
	o.v = &hostInput{}
	return json.Unmarshal(b, o.v)
}

// hostJSON is a printer's host as answers show it: never the key.
type hostJSON struct {
	Kind      string `json:"kind"`
	URL       string `json:"url"`
	HasAPIKey bool   `json:"hasApiKey"`
}

// printerJSON is a printer as answers show it.
type printerJSON struct {
	store.Printer
	Host *hostJSON `json:"host"`
}

func toPrinterJSON(p store.Printer) printerJSON {
	out := printerJSON{Printer: p}
	if p.HostKind != "" {
		out.Host = &hostJSON{Kind: p.HostKind, URL: p.HostURL, HasAPIKey: p.HostKey != ""}
	}
	return out
}

var hostKindNames = map[string]string{printerlink.Moonraker: "Moonraker", printerlink.OctoPrint: "OctoPrint", printerlink.PrusaLink: "PrusaLink"}

// validate trims the host's fields and adds a message per failing field.
func (in *hostInput) validate(fields map[string]string) {
	in.Kind = strings.ToLower(strings.TrimSpace(in.Kind))
	if !slices.Contains(printerlink.Kinds, in.Kind) {
		fields["host.kind"] = "Host must be moonraker, octoprint or prusalink"
	}
	in.URL = strings.TrimRight(strings.TrimSpace(in.URL), "/")
	u, err := url.Parse(in.URL)
	switch {
	case in.URL == "":
		fields["host.url"] = "Enter the host's address, such as http://192.168.1.20:7125"
	case utf8.RuneCountInString(in.URL) > maxHostURL:
		fields["host.url"] = "The host's address must be less than 300 characters"
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
		fields["host.url"] = "The host's address must be an http:// or https:// address, such as http://192.168.1.20:7125"
	case u.User != nil:
		fields["host.url"] = "Leave the user name and password out of the address: put the API key in its own field"
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(in.URL, "?#"):
		fields["host.url"] = "The host's address must not hold a query (?) or a fragment (#)"
	case textcheck.InvalidChar(in.URL, false) != "":
		fields["host.url"] = "The host's address holds a character that cannot be in an address"
	}
	if in.APIKey != nil {
		k := strings.TrimSpace(*in.APIKey)
		in.APIKey = &k
		switch {
		case len(k) > maxHostAPIKey:
			fields["host.apiKey"] = "The API key must be less than 256 characters"
		case strings.ContainsFunc(k, func(r rune) bool { return r <= ' ' || r > '~' }):
			fields["host.apiKey"] = "The API key may hold only letters, digits and punctuation, without spaces"
		}
	}
}

// sameOrigin reports whether two host addresses have the same scheme, host
// and port: a saved key is only ever sent where it was saved for.
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host)
}

// applyHost sets p's host from a validated body: o unset keeps it, null
// removes it. A new key is sealed; a saved key is kept only for the same
// kind and origin.
func (h *printersAPI) applyHost(ctx context.Context, p *store.Printer, o optionalHost, fields map[string]string) error {
	if !o.set {
		return nil
	}
	if o.v == nil {
		p.HostKind, p.HostURL, p.HostKey = "", "", ""
		return nil
	}
	in := o.v
	sealed := p.HostKey
	switch {
	case in.APIKey != nil && *in.APIKey == "":
		sealed = ""
	case in.APIKey != nil:
		s, err := h.hostKeys.seal(ctx, p.UserID, *in.APIKey)
		if err != nil {
			return err
		}
		sealed = s
	case sealed != "" && (p.HostKind != in.Kind || !sameOrigin(p.HostURL, in.URL)):
		fields["host.apiKey"] = "Enter the API key again: a saved key is only sent to the host it was saved for"
		return nil
	}
	if sealed == "" && in.Kind != printerlink.Moonraker {
		fields["host.apiKey"] = hostKindNames[in.Kind] + " needs an API key"
		return nil
	}
	p.HostKind, p.HostURL, p.HostKey = in.Kind, in.URL, sealed
	return nil
}

// hostKeys seals the hosts' API keys with AES-256-GCM under a key derived
// (HKDF-SHA-256) from a server secret kept in the database. The sealed
// text is bound to its owner's account.
type hostKeys struct{ keys *keyring }

const (
	hostKeyName   = "printer-host-v1"
	hostKeyInfo   = "layerfix printer host api key v1"
	sealedPrefix  = "v1."
	maxSealedText = 1 << 10
)

func (k hostKeys) aead(ctx context.Context) (cipher.AEAD, error) {
	secret, err := k.keys.key(ctx, hostKeyName)
	if err != nil {
		return nil, err
	}
	key, err := hkdf.Key(sha256.New, secret, nil, hostKeyInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("derive host key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// errSealedKey is a saved key this server cannot open.
var errSealedKey = errors.New("sealed host key unreadable")

func sealedAAD(userID int64) []byte { return []byte("user:" + strconv.FormatInt(userID, 10)) }

func (k hostKeys) seal(ctx context.Context, userID int64, plain string) (string, error) {
	a, err := k.aead(ctx)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, a.NonceSize())
	rand.Read(nonce)
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(a.Seal(nonce, nonce, []byte(plain), sealedAAD(userID))), nil
}

func (k hostKeys) open(ctx context.Context, userID int64, sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	a, err := k.aead(ctx)
	if err != nil {
		return "", err
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, sealedPrefix))
	if err != nil || !strings.HasPrefix(sealed, sealedPrefix) || len(sealed) > maxSealedText || len(b) < a.NonceSize() {
		return "", fmt.Errorf("%w: malformed", errSealedKey)
	}
	plain, err := a.Open(nil, b[:a.NonceSize()], b[a.NonceSize():], sealedAAD(userID))
	if err != nil {
		return "", fmt.Errorf("%w: it does not open with this server's key", errSealedKey)
	}
	return string(plain), nil
}

// printerLink is what the pull needs: the operator's switch, the puller
// within the allowed networks and the per-account limit.
type printerLink struct {
	enabled bool
	puller  *printerlink.Puller
	limiter *fixedWindow
	log     *slog.Logger
}

func newPrinterLink(cfg *config.Config, st *store.Store, now func() time.Time, log *slog.Logger) *printerLink {
	return &printerLink{
		enabled: cfg.PrinterLink,
		puller:  printerlink.New(printerlink.Policy{Nets: cfg.PrinterLinkNets}),
		limiter: newFixedWindow(newLimitStates(st, "printer-pull", now), pullsPerHour, time.Hour, now),
		log:     log,
	}
}

// Codes of the pull's own errors.
const (
	CodeLinkOff           = "PRINTER_LINK_OFF"
	CodeNotLinked         = "PRINTER_NOT_LINKED"
	CodeHostNotAllowed    = "HOST_NOT_ALLOWED"
	CodeHostUnreachable   = "HOST_UNREACHABLE"
	CodeHostRefusedKey    = "HOST_REFUSED_KEY"
	CodeHostBadAnswer     = "HOST_BAD_ANSWER"
	CodeHostKeyUnreadable = "HOST_KEY_UNREADABLE"
)

// pull handles POST /api/printers/:id/pull: what the caller's printer's
// host says about the last print, as the analysis form's values, its
// attachments and a short summary for the maker to review.
func (h *printersAPI) pull(c echo.Context) error {
	id, err := pathID(c, "Printer")
	if err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), currentUser(c).ID
	p, err := h.store.PrinterByID(ctx, uid, id)
	if err != nil {
		return storeErr(err, "Printer")
	}
	if !h.link.enabled {
		return apiErr(http.StatusForbidden, CodeLinkOff, "The printer link is off on this server: its operator has not enabled it (LAYERFIX_PRINTER_LINK=on). "+
			"Add the printer's files by hand instead.")
	}
	if p.HostKind == "" {
		return apiErr(http.StatusBadRequest, CodeNotLinked, "This printer has no host yet: add its Moonraker, OctoPrint or PrusaLink address in the printer's settings.")
	}
	if ok, err := h.link.limiter.allow(ctx, "user:"+strconv.FormatInt(uid, 10)); err != nil {
		return err
	} else if !ok {
		return apiErr(http.StatusTooManyRequests, CodeRateLimited, fmt.Sprintf("You asked your printers' hosts %d times in the last hour. Please try again later.", pullsPerHour))
	}
	key, err := h.hostKeys.open(ctx, uid, p.HostKey)
	if errors.Is(err, errSealedKey) {
		return apiErr(http.StatusConflict, CodeHostKeyUnreadable, "This server can no longer read the printer's saved API key (its secret changed): enter the key again in the printer's settings.")
	} else if err != nil {
		return err
	}
	start := time.Now()
	res, err := h.link.puller.Pull(ctx, printerlink.Host{Kind: p.HostKind, URL: p.HostURL, APIKey: key})
	host := hostOnly(p.HostURL)
	if err != nil {
		h.link.log.Info("printer pull failed", "user", uid, "printer", id, "kind", p.HostKind, "host", host, "duration", time.Since(start), "err", err.Error())
		return pullErr(err, hostKindNames[p.HostKind], host)
	}
	h.link.log.Info("printer pull", "user", uid, "printer", id, "kind", p.HostKind, "host", host, "duration", time.Since(start),
		"attachments", len(res.Attachments), "notes", len(res.Notes))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, res)
}

// hostOnly is the host[:port] of an address, for logs.
func hostOnly(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

func pullErr(err error, kind, host string) error {
	switch {
	case errors.Is(err, printerlink.ErrNotAllowed):
		return apiErr(http.StatusForbidden, CodeHostNotAllowed, fmt.Sprintf("%s is not on a network this server may reach (or it redirected elsewhere). "+
			"The operator lists the allowed networks in LAYERFIX_PRINTER_LINK_NETS; link-local and cloud metadata addresses are never reached.", host))
	case errors.Is(err, printerlink.ErrUnauthorized):
		return apiErr(http.StatusBadGateway, CodeHostRefusedKey, fmt.Sprintf("%s at %s refused the API key: check the key in the printer's settings.", kind, host))
	case errors.Is(err, printerlink.ErrUnreachable):
		return apiErr(http.StatusBadGateway, CodeHostUnreachable, fmt.Sprintf("%s at %s did not answer: check that it is on and that the address is right.", kind, host))
	}
	return apiErr(http.StatusBadGateway, CodeHostBadAnswer, fmt.Sprintf("%s at %s answered something unexpected: check that the address is the %s one.", kind, host, kind))
}

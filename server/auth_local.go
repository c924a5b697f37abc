package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store"
)

// Local accounts: email and password, sessions as random tokens stored
// hashed. Error codes are Firebase's, so the app maps them the same way.
const (
	sessionTTL     = 30 * 24 * time.Hour
	resetTTL       = time.Hour
	verifyTTL      = 7 * 24 * time.Hour
	loginFailures  = 10
	loginWindow    = 15 * time.Minute
	signupsPerHour = 20
	maxEmail       = 254
	maxDisplayName = 100
	tokenReset     = "reset"
	tokenVerify    = "verify"
)

type localAuth struct {
	store     *store.Store
	now       func() time.Time
	mailer    Mailer // nil: no email
	publicURL string // scheme://host[/base] for links in emails
	limits    TierLimits
	log       *slog.Logger
	failIP    *fixedWindow
	failEmail *fixedWindow
	signups   *fixedWindow
}

func newLocalAuth(st *store.Store, cfg *Config, mailer Mailer, now func() time.Time, log *slog.Logger) *localAuth {
	return &localAuth{
		store: st, now: now, mailer: mailer, publicURL: cfg.PublicURL + cfg.BasePath, limits: cfg.TierLimits, log: log,
		failIP:    newFixedWindow(loginFailures, loginWindow, now),
		failEmail: newFixedWindow(loginFailures, loginWindow, now),
		signups:   newFixedWindow(signupsPerHour, time.Hour, now),
	}
}

// Authenticate implements Authenticator for local sessions.
func (a *localAuth) Authenticate(ctx context.Context, token string) (*store.User, error) {
	if len(token) != 43 {
		return nil, ErrBadToken
	}
	u, err := a.store.SessionUser(ctx, hashToken(token), a.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrBadToken
	}
	return u, err
}

func authErr(status int, code, msg string) *APIError { return apiErr(status, code, msg) }

// normalizeEmail returns the lower-cased address or "" when it is not one.
func normalizeEmail(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > maxEmail {
		return ""
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return ""
	}
	at := strings.LastIndex(s, "@")
	if at < 1 || !strings.Contains(s[at+1:], ".") || strings.HasSuffix(s, ".") {
		return ""
	}
	return s
}

type sessionResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
	User      profile   `json:"user"`
}

func (a *localAuth) startSession(c echo.Context, u *store.User, status int) error {
	tok, hash := newToken()
	exp := a.now().Add(sessionTTL)
	if err := a.store.CreateSession(c.Request().Context(), u.ID, hash, exp); err != nil {
		return err
	}
	return c.JSON(status, sessionResponse{Token: tok, ExpiresAt: exp, User: profileOf(u, a.now(), a.limits)})
}

type credentials struct {
	Email       string `json:"email"`
	Password    string `json:"password"`
	DisplayName string `json:"displayName"`
}

func (a *localAuth) signup(c echo.Context) error {
	var in credentials
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	email := normalizeEmail(in.Email)
	if email == "" {
		return authErr(http.StatusBadRequest, "invalid-email", "Invalid email address")
	}
	if msg := weakPassword(in.Password, email); msg != "" {
		return authErr(http.StatusBadRequest, "weak-password", msg)
	}
	name := cleanText(in.DisplayName, maxDisplayName+1)
	switch {
	case name == "":
		return authErr(http.StatusBadRequest, "invalid-display-name", "Please enter your display name")
	case utf8.RuneCountInString(name) > maxDisplayName:
		return authErr(http.StatusBadRequest, "invalid-display-name", "Display name must be less than 100 characters")
	}
	if !a.signups.allow(clientIP(c)) {
		return authErr(http.StatusTooManyRequests, "too-many-requests", "Too many accounts were created from this network. Please try again later.")
	}
	ph := hashPassword(in.Password)
	u := &store.User{Email: email, DisplayName: name, PasswordHash: &ph}
	err := a.store.CreateUser(c.Request().Context(), u)
	if errors.Is(err, store.ErrDuplicate) {
		return authErr(http.StatusConflict, "email-already-in-use", "An account with this email already exists")
	}
	if err != nil {
		return err
	}
	a.sendLink(u, tokenVerify, verifyTTL, "Verify your Layerfix email",
		"Welcome to Layerfix, %s!\n\nConfirm your email address by opening this link:\n%s\n\nYou can use Layerfix while unverified.\n", "verify")
	return a.startSession(c, u, http.StatusCreated)
}

func (a *localAuth) login(c echo.Context) error {
	var in credentials
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ip, email := clientIP(c), strings.ToLower(strings.TrimSpace(in.Email))
	if a.failIP.limited(ip) || a.failEmail.limited(email) {
		return authErr(http.StatusTooManyRequests, "too-many-requests",
			"Too many failed sign-in attempts. Please wait 15 minutes or reset your password.")
	}
	u, err := a.store.UserByEmail(c.Request().Context(), email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	hash := dummyHash
	if u != nil && u.PasswordHash != nil {
		hash = *u.PasswordHash
	}
	// The hash is checked even for unknown emails: same answer, same time.
	ok := checkPassword(in.Password, hash) && u != nil && u.PasswordHash != nil && !u.Disabled
	if !ok {
		a.failIP.record(ip)
		a.failEmail.record(email)
		return authErr(http.StatusUnauthorized, "invalid-credential", "Incorrect email or password")
	}
	return a.startSession(c, u, http.StatusOK)
}

func (a *localAuth) logout(c echo.Context) error {
	if err := a.store.DeleteSession(c.Request().Context(), hashToken(bearerToken(c))); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// passwordReset always answers 202, so nobody learns which emails exist.
// With email configured the account gets a one-hour, single-use link.
func (a *localAuth) passwordReset(c echo.Context) error {
	var in credentials
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	email := normalizeEmail(in.Email)
	if email == "" {
		return authErr(http.StatusBadRequest, "invalid-email", "Invalid email address")
	}
	if a.mailer != nil && a.signups.allow("reset:"+clientIP(c)) {
		if u, err := a.store.UserByEmail(c.Request().Context(), email); err == nil && !u.Disabled {
			a.sendLink(u, tokenReset, resetTTL, "Reset your Layerfix password",
				"Hello %s,\n\nSomeone asked to reset the password of your Layerfix account. Open this link within one hour to choose a new password:\n%s\n\nIf it was not you, ignore this email.\n", "reset")
		}
	}
	return c.JSON(http.StatusAccepted, map[string]bool{"emailEnabled": a.mailer != nil})
}

// ResetLink creates a one-hour reset link for email (the operator's
// `layerfix user reset-password` command).
func (a *localAuth) ResetLink(ctx context.Context, email string) (string, error) {
	u, err := a.store.UserByEmail(ctx, email)
	if err != nil {
		return "", err
	}
	tok, hash := newToken()
	if err := a.store.CreateAuthToken(ctx, u.ID, tokenReset, hash, a.now().Add(resetTTL)); err != nil {
		return "", err
	}
	return a.publicURL + "/login?mode=reset&oobCode=" + tok, nil
}

func (a *localAuth) sendLink(u *store.User, kind string, ttl time.Duration, subject, body, mode string) {
	if a.mailer == nil {
		return
	}
	tok, hash := newToken()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	if err := a.store.CreateAuthToken(ctx, u.ID, kind, hash, a.now().Add(ttl)); err != nil {
		cancel()
		a.log.Error("create email token", "kind", kind, "err", err)
		return
	}
	link := a.publicURL + "/login?mode=" + mode + "&oobCode=" + tok
	name := u.DisplayName
	if name == "" {
		name = "maker"
	}
	go func() {
		defer cancel()
		if err := a.mailer.Send(ctx, u.Email, subject, sprintf(body, name, link)); err != nil {
			a.log.Error("send email", "kind", kind, "user_id", u.ID, "err", err)
		}
	}()
}

type codeRequest struct {
	OOBCode  string `json:"oobCode"`
	Password string `json:"password"`
}

func (a *localAuth) passwordUpdate(c echo.Context) error {
	var in codeRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if msg := weakPassword(in.Password, ""); msg != "" {
		return authErr(http.StatusBadRequest, "weak-password", msg)
	}
	ctx := c.Request().Context()
	uid, err := a.store.UseAuthToken(ctx, tokenReset, hashToken(in.OOBCode), a.now())
	if errors.Is(err, store.ErrNotFound) {
		return authErr(http.StatusBadRequest, "invalid-action-code", "This password reset link is invalid, expired or already used. Please ask for a new one.")
	}
	if err != nil {
		return err
	}
	if err := a.store.UpdateUser(ctx, uid, map[string]any{"password_hash": hashPassword(in.Password)}); err != nil {
		return err
	}
	if err := a.store.DeleteSessions(ctx, uid); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"message": "Your password was changed. Please sign in."})
}

func (a *localAuth) verifyEmail(c echo.Context) error {
	var in codeRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	uid, err := a.store.UseAuthToken(ctx, tokenVerify, hashToken(in.OOBCode), a.now())
	if errors.Is(err, store.ErrNotFound) {
		return authErr(http.StatusBadRequest, "invalid-action-code", "This verification link is invalid, expired or already used.")
	}
	if err != nil {
		return err
	}
	if err := a.store.UpdateUser(ctx, uid, map[string]any{"email_verified": true}); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"message": "Your email is verified."})
}

package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/mail"
	"github.com/layerfix/layerfix/store"
)

// Local accounts: email and password, sessions as random tokens stored
// hashed. Error codes are Firebase's, so the app maps them the same way.
const (
	sessionTTL        = 30 * 24 * time.Hour
	resetTTL          = accounts.ResetTTL
	verifyTTL         = 7 * 24 * time.Hour
	loginFailures     = 10 // per address, and per email before the backoff starts
	loginWindow       = 15 * time.Minute
	loginBackoff      = time.Minute // first lock of an email past its failures; doubles to loginWindow
	signupsPerHour    = 5
	resetsPerHour     = 10 // reset requests one address may make
	mailsPerRecipient = 3  // account emails one address receives per hour
	tokenReset        = accounts.TokenReset
	tokenVerify       = "verify"
)

type localAuth struct {
	store     *store.Store
	now       func() time.Time
	mailer    mail.Mailer // nil: no email
	publicURL string      // scheme://host[/base] for links in emails
	limits    config.TierLimits
	log       *slog.Logger
	failIP    *attemptLimiter // failed sign-ins per address
	failEmail *attemptLimiter // failed sign-ins per email, with backoff
	failKnown *attemptLimiter // failed sign-ins per known device or network of an account, with backoff
	known     *knownSignIns
	signups   *fixedWindow // accounts created per address
	resets    *fixedWindow // reset requests per address
	mails     *fixedWindow // emails per recipient
}

func newLocalAuth(st *store.Store, cfg *config.Config, keys *keyring, mailer mail.Mailer, now func() time.Time, log *slog.Logger) *localAuth {
	return &localAuth{
		store: st, now: now, mailer: mailer, publicURL: cfg.PublicURL + cfg.BasePath, limits: cfg.TierLimits, log: log,
		failIP:    newAttemptLimiter(newLimitStates(st, "login-ip", now), loginFailures, loginWindow, 0, now),
		failEmail: newAttemptLimiter(newLimitStates(st, "login-email", now), loginFailures, loginWindow, loginBackoff, now),
		failKnown: newAttemptLimiter(newLimitStates(st, "login-known", now), loginFailures, loginWindow, loginBackoff, now),
		known: &knownSignIns{keys: keys, now: now, base: cfg.BasePath,
			nets:    newLimitStates(st, "known-net", now),
			newNets: newFixedWindow(newLimitStates(st, "known-net-new", now), knownNetsPerLife, knownNetLife, now),
			secure:  func(r *http.Request) bool { return secureRequest(r, cfg.TrustedProxies) }},
		signups: newFixedWindow(newLimitStates(st, "signup", now), signupsPerHour, time.Hour, now),
		resets:  newFixedWindow(newLimitStates(st, "reset", now), resetsPerHour, time.Hour, now),
		mails:   newFixedWindow(newLimitStates(st, "mail", now), mailsPerRecipient, time.Hour, now),
	}
}

// Authenticate implements Authenticator for local sessions.
func (a *localAuth) Authenticate(ctx context.Context, token string) (*store.User, error) {
	if len(token) != 43 {
		return nil, ErrBadToken
	}
	u, err := a.store.SessionUser(ctx, accounts.HashToken(token), a.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, ErrBadToken
	case errors.Is(err, store.ErrDisabled):
		return nil, ErrAccountDisabled
	}
	return u, err
}

func authErr(status int, code, msg string) *APIError { return apiErr(status, code, msg) }

type sessionResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
	User      profile   `json:"user"`
}

// startSession signs u in; the browser and network become known to the
// account.
func (a *localAuth) startSession(c echo.Context, u *store.User, status int) error {
	tok, hash := accounts.NewToken()
	exp := a.now().Add(sessionTTL)
	if err := a.store.CreateSession(c.Request().Context(), u.ID, hash, exp); err != nil {
		return err
	}
	if err := a.known.remember(c, u, clientIP(c)); err != nil {
		a.log.Warn("remember sign-in device", "err", err)
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
	email := accounts.NormalizeEmail(in.Email)
	if email == "" {
		return authErr(http.StatusBadRequest, "invalid-email", "Invalid email address")
	}
	if msg := accounts.WeakPassword(in.Password, email); msg != "" {
		return authErr(http.StatusBadRequest, "weak-password", msg)
	}
	name, problem := accounts.CheckDisplayName(in.DisplayName)
	if problem != "" {
		return authErr(http.StatusBadRequest, "invalid-display-name", problem)
	}
	if ok, err := a.signups.allow(c.Request().Context(), limiterKey("ip", clientIP(c))); err != nil {
		return err
	} else if !ok {
		return authErr(http.StatusTooManyRequests, "too-many-requests", "Too many accounts were created from this network. Please try again later.")
	}
	var ph string
	if err := accounts.WithHashSlot(c.Request().Context(), func() { ph = accounts.HashPassword(in.Password) }); err != nil {
		return hashBusyErr(err)
	}
	u := &store.User{Email: email, DisplayName: name, PasswordHash: &ph, CreatedAt: a.now()}
	err := a.store.CreateUser(c.Request().Context(), u)
	if errors.Is(err, store.ErrDuplicate) {
		return authErr(http.StatusConflict, "email-already-in-use", "An account with this email already exists")
	}
	if err != nil {
		return err
	}
	a.sendLink(u, tokenVerify, verifyTTL, mail.Verify, "verify")
	return a.startSession(c, u, http.StatusCreated)
}

// errBadCredentials is a wrong password or an unknown account.
var errBadCredentials = errors.New("wrong email or password")

func (a *localAuth) login(c echo.Context) error {
	var in credentials
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if len(email) > accounts.MaxEmail {
		return authErr(http.StatusBadRequest, "invalid-email", "Invalid email address")
	}
	if len(in.Password) > 4*accounts.MaxPassword {
		return authErr(http.StatusBadRequest, "invalid-credential", "Password must be at most 1024 characters")
	}
	u, err := a.checkPasswordLimited(c, email, in.Password)
	if errors.Is(err, errBadCredentials) {
		return authErr(http.StatusUnauthorized, "invalid-credential", "Incorrect email or password")
	}
	if err != nil {
		return err
	}
	// Only the right password learns that the account is disabled.
	if u.Disabled {
		return accountDisabledErr()
	}
	return a.startSession(c, u, http.StatusOK)
}

// checkPasswordLimited checks email's password under the sign-in limits and
// returns its account (disabled or not: the caller decides), or
// errBadCredentials. Every check (a sign-in, or a
// signed-in maker confirming a change with the current password) reserves
// its place in the per-address limit and then in the per-email one (or,
// from a device or network that signed in to the account before, in that
// one's own) before the hash is computed, and the hash itself waits for one
// of few slots, so concurrent guesses can neither exceed the limits nor
// exhaust memory. A check one limit refuses gives back its place in the
// other, which then keeps no key for it.
func (a *localAuth) checkPasswordLimited(c echo.Context, email, password string) (*store.User, error) {
	ip := clientIP(c)
	ctx := c.Request().Context()
	type place struct {
		lim *attemptLimiter
		key string
	}
	var held []place // reserved places, given back unless the attempt fails
	give := func() {
		for _, p := range held {
			if err := p.lim.succeeded(ctx, p.key); err != nil {
				a.log.Warn("sign-in limiter", "err", err)
			}
		}
	}
	ipKey := limiterKey("ip", ip)
	if ok, wait, err := a.failIP.reserve(ctx, ipKey); err != nil {
		return nil, err
	} else if !ok {
		return nil, tooManySignIns(wait)
	}
	held = append(held, place{a.failIP, ipKey})
	var u *store.User
	looked := false
	user := func() (*store.User, error) {
		if !looked {
			var err error
			if u, err = a.store.UserByEmail(ctx, email); errors.Is(err, store.ErrNotFound) {
				u, err = nil, nil
			}
			if err != nil {
				return nil, err
			}
			looked = true
		}
		return u, nil
	}
	// A stranger meets the email's lock. A device or network that signed
	// in to the account before meets its own lock instead; its failures
	// still count against the email for everyone else.
	byEmail, byKnown := place{a.failEmail, limiterKey("email", email)}, place{}
	k, err := a.known.known(ctx, c.Request(), email, ip, func() (int64, error) {
		acct, err := user()
		if acct == nil {
			return 0, err
		}
		return acct.ID, nil
	})
	if err != nil {
		give()
		return nil, err
	}
	if k != "" {
		byKnown = place{a.failKnown, k}
	}
	gate := byEmail
	if byKnown.lim != nil {
		gate = byKnown
	}
	if ok, wait, err := gate.lim.reserve(ctx, gate.key); err != nil || !ok {
		give()
		if err != nil {
			return nil, err
		}
		return nil, tooManySignIns(wait)
	}
	held = append(held, gate)
	if gate != byEmail {
		ok, _, err := byEmail.lim.reserve(ctx, byEmail.key)
		if err != nil {
			give()
			return nil, err
		}
		if ok {
			held = append(held, byEmail)
		}
	}
	if u, err = user(); err != nil {
		give()
		return nil, err
	}
	// The hash is checked even for unknown emails: same answer, same time.
	good := false
	err = accounts.WithHashSlot(ctx, func() {
		if u != nil && u.PasswordHash != nil {
			good = accounts.CheckPassword(password, *u.PasswordHash)
		} else {
			accounts.CheckPassword(password, accounts.DummyHash())
		}
	})
	if err != nil {
		give()
		return nil, hashBusyErr(err)
	}
	if !good {
		return nil, errBadCredentials
	}
	// The owner proved it: the address's place is given back, and the
	// failures held against the email and this device or network are
	// forgotten.
	held = held[:1]
	give()
	for _, p := range []place{byEmail, byKnown} {
		if p.lim == nil {
			continue
		}
		if err := p.lim.clear(ctx, p.key); err != nil {
			a.log.Warn("sign-in limiter", "err", err)
		}
	}
	return u, nil
}

func tooManySignIns(wait time.Duration) *APIError {
	mins := max(1, int((wait+time.Minute-1)/time.Minute))
	unit := "minutes"
	if mins == 1 {
		unit = "minute"
	}
	return authErr(http.StatusTooManyRequests, "too-many-requests",
		sprintf("Too many failed sign-in attempts. Please wait %d %s or reset your password.", mins, unit))
}

// hashBusyErr answers a sign-in that found no free hash slot in time.
func hashBusyErr(err error) error {
	if errors.Is(err, accounts.ErrHashBusy) {
		return authErr(http.StatusTooManyRequests, "too-many-requests", "Many people are signing in right now. Please try again in a moment.")
	}
	return budgetErr(err)
}

func (a *localAuth) logout(c echo.Context) error {
	if err := a.store.DeleteSession(c.Request().Context(), accounts.HashToken(bearerToken(c))); err != nil {
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
	email := accounts.NormalizeEmail(in.Email)
	if email == "" {
		return authErr(http.StatusBadRequest, "invalid-email", "Invalid email address")
	}
	allowed := false
	if a.mailer != nil {
		var err error
		if allowed, err = a.resets.allow(c.Request().Context(), limiterKey("ip", clientIP(c))); err != nil {
			return err
		}
	}
	if allowed {
		if u, err := a.store.UserByEmail(c.Request().Context(), email); err == nil && !u.Disabled {
			a.sendLink(u, tokenReset, resetTTL, mail.Reset, "reset")
		}
	}
	return c.JSON(http.StatusAccepted, passwordResetResponse{EmailEnabled: a.mailer != nil})
}

// ResetLink creates a one-hour reset link for email.
func (a *localAuth) ResetLink(ctx context.Context, email string) (string, error) {
	return accounts.ResetLink(ctx, a.store, a.publicURL, a.now(), email)
}

// sendLink emails a one-time link of kind to the account's address. The
// body is the server's own text and the link: nothing a user typed (a
// display name with URLs or newlines) goes into it, so the server cannot be
// used to send someone else's words. Each recipient gets at most
// mailsPerRecipient emails an hour; past that the request still answers
// the same and nothing is sent.
func (a *localAuth) sendLink(u *store.User, kind string, ttl time.Duration, msg func(link string) mail.Message, mode string) {
	_ = a.mailLink(u.Email, u.ID, kind, msg, mode, func(ctx context.Context, hash string) error {
		return a.store.CreateAuthToken(ctx, u.ID, kind, hash, a.now().Add(ttl))
	})
}

// errMailLimit means the recipient had mailsPerRecipient emails this hour.
var errMailLimit = errors.New("recipient email limit reached")

// mailLink makes a token with create and emails its link to the address to
// in the background. It fails only when email is off, the recipient's
// hourly limit is reached (errMailLimit) or the token cannot be stored;
// a failed send is logged.
func (a *localAuth) mailLink(to string, userID int64, kind string, msg func(link string) mail.Message, mode string, create func(ctx context.Context, hash string) error) error {
	if a.mailer == nil {
		return errors.New("email is off")
	}
	if ok, err := a.mails.allow(context.Background(), limiterKey("mail", to)); err != nil {
		a.log.Error("account email not sent", "kind", kind, "user_id", userID, "err", err)
		return err
	} else if !ok {
		a.log.Info("account email not sent: recipient limit reached", "kind", kind, "user_id", userID)
		return errMailLimit
	}
	tok, hash := accounts.NewToken()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	if err := create(ctx, hash); err != nil {
		cancel()
		a.log.Error("create email token", "kind", kind, "err", err)
		return err
	}
	link := a.publicURL + "/login?mode=" + mode + "&oobCode=" + tok
	go func() {
		defer cancel()
		m := msg(link)
		if err := a.mailer.Send(ctx, to, m.Subject, m.Body); err != nil {
			a.log.Error("send email", "kind", kind, "user_id", userID, "err", err)
		}
	}()
	return nil
}

type codeRequest struct {
	OOBCode  string `json:"oobCode"`
	Password string `json:"password"`
}

// passwordUpdate sets a new password from a reset link. The link is checked
// first and used only once the new password passes the same rules as at
// sign-up; then every session and every other reset link of the account
// stops working, and failed sign-ins held against the email are forgotten.
func (a *localAuth) passwordUpdate(c echo.Context) error {
	var in codeRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	invalid := authErr(http.StatusBadRequest, "invalid-action-code", "This password reset link is invalid, expired or already used. Please ask for a new one.")
	if len(in.OOBCode) != 43 {
		return invalid
	}
	uid, err := a.store.PeekAuthToken(ctx, tokenReset, accounts.HashToken(in.OOBCode), a.now())
	if errors.Is(err, store.ErrNotFound) {
		return invalid
	}
	if err != nil {
		return err
	}
	u, err := a.store.UserByID(ctx, uid)
	if err != nil {
		return err
	}
	if msg := accounts.WeakPassword(in.Password, u.Email); msg != "" {
		return authErr(http.StatusBadRequest, "weak-password", msg)
	}
	if _, err := a.store.UseAuthToken(ctx, tokenReset, accounts.HashToken(in.OOBCode), a.now()); errors.Is(err, store.ErrNotFound) {
		return invalid // used by a concurrent request
	} else if err != nil {
		return err
	}
	var ph string
	if err := accounts.WithHashSlot(ctx, func() { ph = accounts.HashPassword(in.Password) }); err != nil {
		return hashBusyErr(err)
	}
	if err := a.store.UpdateUser(ctx, uid, map[string]any{"password_hash": ph}); err != nil {
		return err
	}
	if err := a.store.RevokeAuthTokens(ctx, uid, tokenReset, a.now()); err != nil {
		return err
	}
	if err := a.store.DeleteSessions(ctx, uid); err != nil {
		return err
	}
	if err := a.failEmail.clear(ctx, limiterKey("email", u.Email)); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: "Your password was changed. Please sign in."})
}

func (a *localAuth) verifyEmail(c echo.Context) error {
	var in codeRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	invalid := authErr(http.StatusBadRequest, "invalid-action-code", "This verification link is invalid, expired or already used.")
	if len(in.OOBCode) != 43 {
		return invalid
	}
	uid, err := a.store.UseAuthToken(ctx, tokenVerify, accounts.HashToken(in.OOBCode), a.now())
	if errors.Is(err, store.ErrNotFound) {
		// The link may confirm a new address from the account screen.
		_, email, err := a.store.ConfirmEmailChange(ctx, accounts.HashToken(in.OOBCode), a.now())
		switch {
		case errors.Is(err, store.ErrNotFound):
			return invalid
		case errors.Is(err, store.ErrDuplicate):
			return authErr(http.StatusConflict, "email-already-in-use", "An account with this email already exists")
		case err != nil:
			return err
		}
		return c.JSON(http.StatusOK, messageResponse{Message: "Your email address is now " + email + "."})
	}
	if err != nil {
		return err
	}
	if err := a.store.UpdateUser(ctx, uid, map[string]any{"email_verified": true}); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: "Your email is verified."})
}

package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"
	"google.golang.org/api/option"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

// Firebase mode: the browser signs in with the Firebase JS SDK and sends
// its ID token as the bearer token; the Admin SDK verifies it and the
// Firebase uid is mapped to a users row, created on the first call.
const (
	firebaseCallTimeout = 10 * time.Second
	// firebaseStatusTTL is how long a looked-up disabled or revoked state is
	// trusted: a disabled account is refused at most this long afterwards.
	firebaseStatusTTL = time.Minute
	// firebaseRowTTL is how long the users row is trusted to match the
	// token's claims before it is written again.
	firebaseRowTTL   = 10 * time.Minute
	firebaseCacheMax = 10000
	maxIDToken       = 8 << 10
)

// CodeAuthUnavailable means Firebase could not be asked about a token.
const CodeAuthUnavailable = "AUTH_UNAVAILABLE"

// firebaseClient is the part of the Admin SDK's auth client used here.
type firebaseClient interface {
	VerifyIDToken(ctx context.Context, idToken string) (*auth.Token, error)
	GetUser(ctx context.Context, uid string) (*auth.UserRecord, error)
	DeleteUser(ctx context.Context, uid string) error
}

// firebaseClaims are the token claims copied to the users row.
type firebaseClaims struct {
	email, name string
	verified    bool
}

func claimsOf(t *auth.Token) firebaseClaims {
	email, _ := t.Claims["email"].(string)
	name, _ := t.Claims["name"].(string)
	verified, _ := t.Claims["email_verified"].(bool)
	return firebaseClaims{email: email, name: strings.TrimSpace(name), verified: verified}
}

// firebaseEntry is what is known about one uid.
type firebaseEntry struct {
	userID   int64
	claims   firebaseClaims // as last written to the row
	syncedAt time.Time

	disabled   bool
	validAfter int64 // Unix ms: tokens issued earlier are revoked
	checkedAt  time.Time

	// deletedAt is when the maker deleted the account on this server:
	// tokens of sign-ins before it are refused, so a token still valid
	// cannot bring an empty account back.
	deletedAt time.Time
}

type firebaseAuth struct {
	client firebaseClient
	store  *store.Store
	// checkAccounts is false without Google credentials: the account
	// cannot be looked up, so only the token itself is verified.
	checkAccounts bool
	now           func() time.Time
	log           *slog.Logger

	mu    sync.Mutex
	cache map[string]*firebaseEntry
}

// NewFirebaseAuth verifies Firebase ID tokens of cfg.FirebaseProjectID.
// With Google credentials (GOOGLE_APPLICATION_CREDENTIALS, the metadata
// server, or the Auth emulator) each account is also looked up, cached
// for a minute, so disabled accounts and revoked tokens are refused.
// Without them a disabled account keeps access until its ID token
// expires (at most an hour), which is logged once at start-up.
func NewFirebaseAuth(ctx context.Context, cfg *config.Config, st *store.Store, log *slog.Logger) (Authenticator, error) {
	if cfg.FirebaseProjectID == "" {
		return nil, errors.New("LAYERFIX_FIREBASE_PROJECT_ID: required when LAYERFIX_AUTH_MODE=firebase")
	}
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithTimeout(ctx, firebaseCallTimeout)
	defer cancel()
	checkAccounts := true
	client, err := newFirebaseClient(ctx, cfg.FirebaseProjectID)
	if err != nil && os.Getenv("GOOGLE_APPLICATION_CREDENTIALS") == "" {
		checkAccounts = false
		client, err = newFirebaseClient(ctx, cfg.FirebaseProjectID, option.WithoutAuthentication())
	}
	if err != nil {
		return nil, fmt.Errorf("LAYERFIX_AUTH_MODE=firebase: set up Firebase Auth: %w", err)
	}
	if checkAccounts {
		log.Info("accounts: Firebase", "project", cfg.FirebaseProjectID, "account_check", "disabled and revoked accounts refused within "+firebaseStatusTTL.String())
	} else {
		log.Warn("accounts: Firebase without Google credentials: ID tokens are verified, but a disabled account keeps access until its token expires (up to 1h); set GOOGLE_APPLICATION_CREDENTIALS to a service account key to refuse it at once",
			"project", cfg.FirebaseProjectID)
	}
	return newFirebaseAuth(client, st, checkAccounts, log), nil
}

func newFirebaseClient(ctx context.Context, projectID string, opts ...option.ClientOption) (*auth.Client, error) {
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID}, opts...)
	if err != nil {
		return nil, err
	}
	return app.Auth(ctx)
}

func newFirebaseAuth(c firebaseClient, st *store.Store, checkAccounts bool, log *slog.Logger) *firebaseAuth {
	return &firebaseAuth{
		client: c, store: st, checkAccounts: checkAccounts, log: log,
		now: func() time.Time { return time.Now().UTC() }, cache: map[string]*firebaseEntry{},
	}
}

// Authenticate implements Authenticator for Firebase ID tokens.
func (a *firebaseAuth) Authenticate(ctx context.Context, token string) (*store.User, error) {
	if len(token) > maxIDToken || strings.Count(token, ".") != 2 {
		return nil, ErrBadToken
	}
	vctx, cancel := context.WithTimeout(ctx, firebaseCallTimeout)
	tok, err := a.client.VerifyIDToken(vctx, token)
	cancel()
	if err != nil {
		return nil, a.firebaseErr("verify ID token", err)
	}
	if a.deletedBefore(tok) {
		return nil, ErrBadToken
	}
	if err := a.checkAccount(ctx, tok); err != nil {
		return nil, err
	}
	u, err := a.user(ctx, tok.UID, claimsOf(tok))
	if err != nil {
		return nil, err
	}
	if u.Disabled { // disabled by the operator on this server
		return nil, ErrAccountDisabled
	}
	return u, nil
}

// checkAccount refuses a disabled account (ErrAccountDisabled) or a token
// issued before the account's tokens were revoked (ErrBadToken).
func (a *firebaseAuth) checkAccount(ctx context.Context, tok *auth.Token) error {
	if !a.checkAccounts {
		return nil
	}
	now := a.now()
	a.mu.Lock()
	e, ok := a.cache[tok.UID]
	fresh := ok && !e.checkedAt.IsZero() && now.Sub(e.checkedAt) < firebaseStatusTTL
	var disabled bool
	var validAfter int64
	if fresh {
		disabled, validAfter = e.disabled, e.validAfter
	}
	a.mu.Unlock()
	if !fresh {
		gctx, cancel := context.WithTimeout(ctx, firebaseCallTimeout)
		rec, err := a.client.GetUser(gctx, tok.UID)
		cancel()
		if err != nil {
			return a.firebaseErr("look up Firebase account", err)
		}
		disabled, validAfter = rec.Disabled, rec.TokensValidAfterMillis
		a.remember(tok.UID, func(e *firebaseEntry) {
			e.disabled, e.validAfter, e.checkedAt = disabled, validAfter, now
		})
	}
	if disabled {
		return ErrAccountDisabled
	}
	if tok.IssuedAt*1000 < validAfter {
		return ErrBadToken
	}
	return nil
}

// user returns the uid's row, writing the token's email, name and
// verification to it when they changed or the row was not seen lately.
func (a *firebaseAuth) user(ctx context.Context, uid string, c firebaseClaims) (*store.User, error) {
	now := a.now()
	a.mu.Lock()
	var id int64
	if e, ok := a.cache[uid]; ok && e.userID != 0 && e.claims == c && now.Sub(e.syncedAt) < firebaseRowTTL {
		id = e.userID
	}
	a.mu.Unlock()
	if id != 0 {
		u, err := a.store.UserByID(ctx, id)
		if !errors.Is(err, store.ErrNotFound) {
			return u, err
		}
	}
	u, err := a.store.UpsertFirebaseUser(ctx, uid, c.email, c.name, c.verified)
	if errors.Is(err, store.ErrDuplicate) {
		return nil, apiErr(http.StatusConflict, "email-already-in-use", "An account with this email already exists")
	}
	if err != nil {
		return nil, err
	}
	a.remember(uid, func(e *firebaseEntry) { e.userID, e.claims, e.syncedAt = u.ID, c, now })
	return u, nil
}

func (a *firebaseAuth) remember(uid string, set func(*firebaseEntry)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.cache[uid]
	if !ok {
		if len(a.cache) >= firebaseCacheMax {
			clear(a.cache)
		}
		e = &firebaseEntry{}
		a.cache[uid] = e
	}
	set(e)
}

// firebaseErr is ErrAccountDisabled for an account disabled in Firebase,
// ErrBadToken for another token or account Firebase refuses, and a 503
// when Firebase could not be asked (keys or lookup failed).
func (a *firebaseAuth) firebaseErr(doing string, err error) error {
	if auth.IsUserDisabled(err) {
		return ErrAccountDisabled
	}
	if auth.IsIDTokenInvalid(err) || auth.IsUserNotFound(err) {
		return ErrBadToken
	}
	a.log.Warn("firebase: "+doing, "err", err)
	return apiErr(http.StatusServiceUnavailable, CodeAuthUnavailable, "Sign-in could not be checked right now. Please try again in a moment.")
}

// RecentSignIn reports whether token, a valid ID token, comes from a sign-in
// (its auth_time, not a refresh) at most maxAge ago: deleting an account
// asks the maker to sign in again.
func (a *firebaseAuth) RecentSignIn(ctx context.Context, token string, maxAge time.Duration) (bool, error) {
	vctx, cancel := context.WithTimeout(ctx, firebaseCallTimeout)
	tok, err := a.client.VerifyIDToken(vctx, token)
	cancel()
	if err != nil {
		return false, a.firebaseErr("verify ID token", err)
	}
	signedIn, now := time.Unix(tok.AuthTime, 0), a.now()
	return tok.AuthTime > 0 && !signedIn.After(now.Add(time.Minute)) && now.Sub(signedIn) <= maxAge, nil
}

// DeleteIdentity deletes uid's Firebase account through the Admin SDK; an
// account already gone counts as deleted. Without Google credentials the
// server cannot and answers false: the browser, freshly signed in, deletes
// it itself.
func (a *firebaseAuth) DeleteIdentity(ctx context.Context, uid string) (bool, error) {
	if !a.checkAccounts {
		return false, nil
	}
	dctx, cancel := context.WithTimeout(ctx, firebaseCallTimeout)
	err := a.client.DeleteUser(dctx, uid)
	cancel()
	if err != nil && !auth.IsUserNotFound(err) {
		return false, a.firebaseErr("delete Firebase account", err)
	}
	return true, nil
}

// MarkDeleted refuses, from now on, the tokens of uid's sign-ins before
// this moment (the account's row is gone).
func (a *firebaseAuth) MarkDeleted(uid string) {
	now := a.now()
	a.remember(uid, func(e *firebaseEntry) { *e = firebaseEntry{deletedAt: now} })
}

func (a *firebaseAuth) deletedBefore(tok *auth.Token) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.cache[tok.UID]
	return ok && !e.deletedAt.IsZero() && !time.Unix(tok.AuthTime, 0).After(e.deletedAt)
}

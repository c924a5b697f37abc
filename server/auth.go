package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store"
)

// Authenticator maps a bearer token to its user. Local sessions and
// Firebase ID tokens both implement it.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (*store.User, error)
}

// ErrBadToken means the token is unknown, expired, revoked or forged.
var ErrBadToken = errors.New("invalid or expired token")

// CodeUnauthenticated is the error code of a missing or bad token.
const CodeUnauthenticated = "UNAUTHENTICATED"

const userKey = "layerfix.user"

// publicAPI is the explicit allowlist of API routes that need no user;
// every other /api route requires a valid bearer token.
var publicAPI = map[string]bool{
	"GET /api/pricing":               true,
	"GET /api/usage-limits":          true,
	"GET /api/public-usage":          true,
	"POST /api/troubleshoot":         true,
	"POST /api/troubleshoot/refine":  true,
	"POST /api/share-results":        true,
	"GET /api/share/:shareId":        true,
	"POST /api/auth/signup":          true,
	"POST /api/auth/login":           true,
	"POST /api/auth/password-reset":  true,
	"POST /api/auth/password-update": true,
	"POST /api/auth/verify-email":    true,
	"POST /api/stripe/webhook":       true,
	"GET /api/openapi.json":          true,
}

// bearerToken is the token of "Authorization: Bearer <token>", or "".
func bearerToken(c echo.Context) string {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// authenticate resolves the bearer token on every API request. Routes not
// on the public allowlist get 401 without a valid user. A token sent to a
// public route is still checked, so a signed-in user is known there too.
func authenticate(auth Authenticator, basePath string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			route := c.Request().Method + " " + strings.TrimPrefix(c.Path(), basePath)
			public := publicAPI[route] || c.Path() == basePath+"/api/*" || c.Path() == basePath+"/api"
			tok := bearerToken(c)
			if tok == "" {
				if public {
					return next(c)
				}
				return apiErr(http.StatusUnauthorized, CodeUnauthenticated, "Please sign in to continue.")
			}
			u, err := auth.Authenticate(c.Request().Context(), tok)
			switch {
			case err == nil:
				c.Set(userKey, u)
			case errors.Is(err, ErrBadToken):
				if !public {
					return apiErr(http.StatusUnauthorized, CodeUnauthenticated, "Your session has expired. Please sign in again.")
				}
			default:
				return err
			}
			return next(c)
		}
	}
}

// currentUser is the signed-in user of a request, or nil.
func currentUser(c echo.Context) *store.User {
	u, _ := c.Get(userKey).(*store.User)
	return u
}

// newToken is 256 random bits, URL-safe, and its SHA-256 for storage.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

package server

import (
	"context"
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

// ErrAccountDisabled means the token is valid but its account is disabled
// (by the operator of this server, or in Firebase).
var ErrAccountDisabled = errors.New("account disabled")

// CodeUnauthenticated is the error code of a missing or bad token.
const CodeUnauthenticated = "UNAUTHENTICATED"

// CodeAccountDisabled is the error code of a disabled account's valid token
// or correct password. Like the sign-in codes it is Firebase-style, so the
// app maps it with them.
const CodeAccountDisabled = "account-disabled"

// accountDisabledErr is the answer to a disabled account: it is given only
// to whoever holds its session or its password.
func accountDisabledErr() *APIError {
	return apiErr(http.StatusForbidden, CodeAccountDisabled,
		"This account has been disabled. Contact the operator of this site to have it restored.")
}

const userKey = "layerfix.user"

// bearerToken is the token of "Authorization: Bearer <token>", or "".
func bearerToken(c echo.Context) string {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// authenticate resolves the bearer token of a request. A route that
// requires a user answers 401 without a valid one; on any other route a
// token sent is still checked, so a signed-in user is known there too, and
// an unknown or expired one is ignored. A disabled account's token gets
// 403 on every route, so the app can sign out and say why.
func authenticate(auth Authenticator, required bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			tok := bearerToken(c)
			if tok == "" {
				if !required {
					return next(c)
				}
				return apiErr(http.StatusUnauthorized, CodeUnauthenticated, "Please sign in to continue.")
			}
			u, err := auth.Authenticate(c.Request().Context(), tok)
			switch {
			case err == nil:
				c.Set(userKey, u)
			case errors.Is(err, ErrAccountDisabled):
				return accountDisabledErr()
			case errors.Is(err, ErrBadToken):
				if required {
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

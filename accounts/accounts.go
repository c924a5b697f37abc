// Package accounts holds the account rules that the web server's handlers
// and the operator's `layerfix user` command share: email and display-name
// checks, passwords, one-time tokens, the effective plan, and the
// operator's account tools.
package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	netmail "net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/textcheck"
)

// Account limits and the one-time reset link.
const (
	MaxEmail       = 254
	MaxDisplayName = 100
	TokenReset     = "reset" // the kind of a password reset token
	ResetTTL       = time.Hour
)

// CheckDisplayName cleans a display name and says what is wrong with it,
// "" when nothing is: the same rules at sign-up, on the account screen and
// for the operator's accounts.
func CheckDisplayName(raw string) (name, problem string) {
	name = textcheck.Clean(raw, MaxDisplayName+1)
	switch {
	case name == "":
		return name, "Please enter your display name"
	case utf8.RuneCountInString(name) > MaxDisplayName:
		return name, "Display name must be less than 100 characters"
	}
	return name, textcheck.Problem("Display name", name, false)
}

// NormalizeEmail returns the lower-cased address or "" when it is not one.
func NormalizeEmail(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > MaxEmail {
		return ""
	}
	a, err := netmail.ParseAddress(s)
	if err != nil || a.Address != s {
		return ""
	}
	at := strings.LastIndex(s, "@")
	if at < 1 || !strings.Contains(s[at+1:], ".") || strings.HasSuffix(s, ".") {
		return ""
	}
	return s
}

// EffectiveTier is subscriptionTier while the subscription is active,
// otherwise free.
func EffectiveTier(u *store.User) string {
	if u.SubscriptionStatus == "active" && u.SubscriptionTier != "" {
		return u.SubscriptionTier
	}
	return "free"
}

// NewToken is 256 random bits, URL-safe, and its SHA-256 for storage.
func NewToken() (token, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken is the stored form of a token: its SHA-256, in hex.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

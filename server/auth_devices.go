package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store"
)

// Known devices and networks. A browser or a network that signed in to an
// account before is not held back by the lock that failures from other
// addresses put on the account's email: it has a backoff of its own, so a
// stranger spraying wrong passwords cannot keep the owner out, and a stolen
// device cookie gives no more guesses than the email lock would.
//
// The device cookie holds, for each of the last few accounts that signed
// in with this browser, the account id, a random device id and an HMAC of
// both under a server key: it names a device of that account only, and is
// no credential (it never signs anyone in). Known networks are the
// networks (IPv4 address or IPv6 /64) of successful sign-ins, kept with the
// limiter counters for knownNetLife; an account records at most
// knownNetsPerLife new ones in that time.
const (
	deviceCookie     = "lf_device"
	deviceKeyName    = "device-cookie-v1"
	deviceLife       = 365 * 24 * time.Hour
	maxDeviceTokens  = 4 // accounts one browser remembers
	deviceTokenBytes = 8 + 16 + 16
	knownNetLife     = 90 * 24 * time.Hour
	knownNetsPerLife = 20
)

// deviceTokenLen is a token's length in the cookie (RawURL base64).
var deviceTokenLen = base64.RawURLEncoding.EncodedLen(deviceTokenBytes)

type knownSignIns struct {
	keys    *keyring
	nets    limitStates  // networks that signed in, by account
	newNets *fixedWindow // networks recorded per account
	now     func() time.Time
	base    string                   // cookie path prefix
	secure  func(*http.Request) bool // the request came over HTTPS
}

// deviceToken is one account's entry in the device cookie.
type deviceToken struct {
	uid    int64
	device [16]byte
}

func (k *knownSignIns) mac(key []byte, t deviceToken) []byte {
	m := hmac.New(sha256.New, key)
	var uid [8]byte
	binary.BigEndian.PutUint64(uid[:], uint64(t.uid))
	m.Write([]byte("device\x00"))
	m.Write(uid[:])
	m.Write(t.device[:])
	return m.Sum(nil)[:16]
}

// tokens are the genuine entries of the request's device cookie; anything
// else in it (too long, malformed, forged) is ignored.
func (k *knownSignIns) tokens(ctx context.Context, r *http.Request) ([]deviceToken, error) {
	c, err := r.Cookie(deviceCookie)
	if err != nil || len(c.Value) > maxDeviceTokens*(deviceTokenLen+1) {
		return nil, nil
	}
	key, err := k.keys.key(ctx, deviceKeyName)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) > maxDeviceTokens {
		parts = parts[:maxDeviceTokens]
	}
	var out []deviceToken
	for _, part := range parts {
		b, err := base64.RawURLEncoding.Strict().DecodeString(part)
		if err != nil || len(b) != deviceTokenBytes {
			continue
		}
		t := deviceToken{uid: int64(binary.BigEndian.Uint64(b[:8]))}
		copy(t.device[:], b[8:24])
		if hmac.Equal(b[24:], k.mac(key, t)) {
			out = append(out, t)
		}
	}
	return out, nil
}

func netKey(email, network string) string { return email + "\x00" + network }

// known is the limiter key of a sign-in to email's account from a device
// or network that signed in to it before, or "" for anyone else. uidOf
// finds the account's id (0: none); it is asked only when the request
// carries a genuine device cookie, so a stranger's attempt costs no
// account lookup here.
func (k *knownSignIns) known(ctx context.Context, r *http.Request, email, network string, uidOf func() (int64, error)) (string, error) {
	toks, err := k.tokens(ctx, r)
	if err != nil {
		return "", err
	}
	if len(toks) > 0 {
		uid, err := uidOf()
		if err != nil {
			return "", err
		}
		for _, t := range toks {
			if uid != 0 && t.uid == uid {
				return limiterKey("device", strconv.FormatInt(uid, 10)+"\x00"+hex.EncodeToString(t.device[:])), nil
			}
		}
	}
	_, found, err := k.nets.peek(ctx, netKey(email, network), k.now())
	if err != nil || !found {
		return "", err
	}
	return limiterKey("net", netKey(email, network)), nil
}

// remember records a successful sign-in to u: the network joins the
// account's known ones (within its allowance), and the browser gets a
// device cookie naming this account first, its other accounts after.
func (k *knownSignIns) remember(c echo.Context, u *store.User, network string) error {
	ctx, r, now, uid := c.Request().Context(), c.Request(), k.now(), u.ID
	key := netKey(u.Email, network)
	_, found, err := k.nets.peek(ctx, key, now)
	if err != nil {
		return err
	}
	if !found {
		found, err = k.newNets.allow(ctx, strconv.FormatInt(uid, 10))
		if err != nil {
			return err
		}
	}
	if found {
		err := k.nets.update(ctx, key, now.Add(knownNetLife), func(st *store.LimitState) { st.N, st.Start = 1, now })
		if err != nil {
			return err
		}
	}

	toks, err := k.tokens(ctx, r)
	if err != nil {
		return err
	}
	this := deviceToken{uid: uid}
	rest := make([]deviceToken, 0, len(toks))
	for _, t := range toks {
		if t.uid == uid {
			this.device = t.device
		} else if len(rest) < maxDeviceTokens-1 {
			rest = append(rest, t)
		}
	}
	if this.device == ([16]byte{}) {
		if _, err := rand.Read(this.device[:]); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
	}
	secret, err := k.keys.key(ctx, deviceKeyName)
	if err != nil {
		return err
	}
	parts := make([]string, 0, 1+len(rest))
	for _, t := range append([]deviceToken{this}, rest...) {
		b := make([]byte, 0, deviceTokenBytes)
		b = binary.BigEndian.AppendUint64(b, uint64(t.uid))
		b = append(b, t.device[:]...)
		b = append(b, k.mac(secret, t)...)
		parts = append(parts, base64.RawURLEncoding.EncodeToString(b))
	}
	// Secure whenever the request came over HTTPS; plain HTTP on localhost must still work.
	c.SetCookie(&http.Cookie{ //nolint:gosec
		Name: deviceCookie, Value: strings.Join(parts, "."), Path: k.base + "/api/auth",
		MaxAge: int(deviceLife / time.Second), Expires: now.Add(deviceLife),
		HttpOnly: true, Secure: k.secure(r), SameSite: http.SameSiteLaxMode,
	})
	return nil
}

package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"
)

//go:embed authdata/common-passwords.txt
var commonPasswordList string

var commonPasswords = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(commonPasswordList) {
		m[p] = true
	}
	return m
}()

// Minimum password length (6 characters) and a generous maximum.
const (
	MinPassword = 6
	MaxPassword = 1024
)

// WeakPassword says why a password is refused, or "".
func WeakPassword(pw, email string) string {
	n := len([]rune(pw))
	switch {
	case n < MinPassword:
		return "Password must be at least 6 characters"
	case n > MaxPassword:
		return "Password must be at most 1024 characters"
	case commonPasswords[strings.ToLower(pw)]:
		return "Password is too common: choose one that is harder to guess"
	case strings.EqualFold(pw, email) || strings.EqualFold(pw, strings.Split(email, "@")[0]):
		return "Password must not be your email address"
	}
	return ""
}

// argon2id parameters (OWASP: m=19 MiB, t=2, p=1).
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
)

// HashPassword returns a PHC string: $argon2id$v=19$m=..,t=..,p=..$salt$hash.
func HashPassword(pw string) string {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		panic(err)
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// CheckPassword compares pw with a PHC string in constant time.
func CheckPassword(pw, phc string) bool {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m > 1<<20 || t > 10 || p == 0 {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// DummyHash is checked for unknown emails so a login takes as long for
// them as for a real account. It is made at the first sign-in, not at
// start-up (19 MiB and tens of milliseconds a Pi need not spend idle).
var DummyHash = sync.OnceValue(func() string { return HashPassword("layerfix-timing-equaliser") })

// hashSlots bounds concurrent argon2id computations: each takes 19 MiB,
// so sixty concurrent sign-ins must queue, not allocate 1 GB.
var hashSlots = make(chan struct{}, MaxConcurrentHashes)

// MaxConcurrentHashes is how many password hashes run at once.
const MaxConcurrentHashes = 2

// hashWait is how long a sign-in waits for a hash slot.
var hashWait = 15 * time.Second

// ErrHashBusy means no hash slot came free in time.
var ErrHashBusy = errors.New("too many sign-ins at once")

// WithHashSlot runs fn holding one of the hash slots.
func WithHashSlot(ctx context.Context, fn func()) error {
	t := time.NewTimer(hashWait)
	defer t.Stop()
	select {
	case hashSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return ErrHashBusy
	}
	n := hashesInFlight.Add(1)
	for p := hashPeak.Load(); n > p && !hashPeak.CompareAndSwap(p, n); p = hashPeak.Load() {
	}
	defer func() {
		hashesInFlight.Add(-1)
		<-hashSlots
	}()
	fn()
	return nil
}

// hashesInFlight and hashPeak show how many hashes run at once.
var hashesInFlight, hashPeak atomic.Int64

// HashPeak is the most password hashes that ran at once since
// ResetHashPeak.
func HashPeak() int64 { return hashPeak.Load() }

// ResetHashPeak starts counting HashPeak afresh.
func ResetHashPeak() { hashPeak.Store(0) }

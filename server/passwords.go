package server

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
	minPassword = 6
	maxPassword = 1024
)

// weakPassword says why a password is refused, or "".
func weakPassword(pw, email string) string {
	n := len([]rune(pw))
	switch {
	case n < minPassword:
		return "Password must be at least 6 characters"
	case n > maxPassword:
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

// hashPassword returns a PHC string: $argon2id$v=19$m=..,t=..,p=..$salt$hash.
func hashPassword(pw string) string {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		panic(err)
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// checkPassword compares pw with a PHC string in constant time.
func checkPassword(pw, phc string) bool {
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

// dummyHash is checked for unknown emails so a login takes as long for
// them as for a real account. It is made at the first sign-in, not at
// start-up (19 MiB and tens of milliseconds a Pi need not spend idle).
var dummyHash = sync.OnceValue(func() string { return hashPassword("layerfix-timing-equaliser") })

// hashSlots bounds concurrent argon2id computations: each takes 19 MiB,
// so sixty concurrent sign-ins must queue, not allocate 1 GB.
var hashSlots = make(chan struct{}, 2)

// hashWait is how long a sign-in waits for a hash slot.
var hashWait = 15 * time.Second

var errHashBusy = errors.New("too many sign-ins at once")

// withHashSlot runs fn holding one of the hash slots.
func withHashSlot(ctx context.Context, fn func()) error {
	t := time.NewTimer(hashWait)
	defer t.Stop()
	select {
	case hashSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errHashBusy
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

package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/layerfix/layerfix/ai"
)

// keyring loads named server secrets (stored in the database, created on
// first use) once per process.
type keyring struct {
	store interface {
		ServerKey(ctx context.Context, name, newSecret string) (string, error)
	}
	mu   sync.Mutex
	keys map[string][]byte
}

func (k *keyring) key(ctx context.Context, name string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if key, ok := k.keys[name]; ok {
		return key, nil
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	secret, err := k.store.ServerKey(ctx, name, hex.EncodeToString(fresh))
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(secret)
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("server key %s is not a hex secret", name)
	}
	if k.keys == nil {
		k.keys = map[string][]byte{}
	}
	k.keys[name] = key
	return key, nil
}

// Results this server made carry a signature over their content, so
// POST /api/share-results publishes only those, never any text someone
// wants on this site's domain.
const resultKeyName = "result-signature-v1"

// resultSigner signs and checks analysis results with a server key.
type resultSigner struct{ keys *keyring }

func (s resultSigner) sign(ctx context.Context, r *ai.Result) (string, error) {
	e := encodeResult(r)
	defer e.release()
	return s.signEncoded(ctx, e)
}

func (s resultSigner) signEncoded(ctx context.Context, e encodedResult) (string, error) {
	key, err := s.keys.key(ctx, resultKeyName)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	e.writeContent(m)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:24]), nil
}

func (s resultSigner) valid(ctx context.Context, r *ai.Result, sig string) (bool, error) {
	want, err := s.sign(ctx, r)
	if err != nil {
		return false, err
	}
	return hmac.Equal([]byte(want), []byte(sig)), nil
}

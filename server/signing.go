package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
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
	macs map[string]*sync.Pool // HMAC-SHA256 states keyed with each secret
}

// keyedMAC is an HMAC-SHA256 keyed with one of the keyring's secrets;
// release resets it to its keyed state and hands it back for reuse.
type keyedMAC struct {
	hash.Hash
	pool *sync.Pool
	buf  []byte // room for what is signed and the sum
}

func (m *keyedMAC) release() {
	m.Reset()
	if cap(m.buf) > 64<<10 {
		m.buf = nil // an outsized input is not kept
	}
	m.pool.Put(m)
}

// mac returns an HMAC-SHA256 keyed with the named secret. Keyed states are
// reused: keying one hashes two blocks and allocates five times, as much
// as signing a whole result.
func (k *keyring) mac(ctx context.Context, name string) (*keyedMAC, error) {
	k.mu.Lock()
	pool := k.macs[name]
	k.mu.Unlock()
	if pool == nil {
		key, err := k.key(ctx, name)
		if err != nil {
			return nil, err
		}
		k.mu.Lock()
		if pool = k.macs[name]; pool == nil {
			pool = &sync.Pool{}
			pool.New = func() any { return &keyedMAC{Hash: hmac.New(sha256.New, key), pool: pool} }
			if k.macs == nil {
				k.macs = map[string]*sync.Pool{}
			}
			k.macs[name] = pool
		}
		k.mu.Unlock()
	}
	return pool.Get().(*keyedMAC), nil
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
	m, err := s.keys.mac(ctx, resultKeyName)
	if err != nil {
		return "", err
	}
	defer m.release()
	e.writeContent(m)
	m.buf = m.Sum(m.buf[:0])
	return base64.RawURLEncoding.EncodeToString(m.buf[:24]), nil
}

func (s resultSigner) valid(ctx context.Context, r *ai.Result, sig string) (bool, error) {
	want, err := s.sign(ctx, r)
	if err != nil {
		return false, err
	}
	return hmac.Equal([]byte(want), []byte(sig)), nil
}

package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"

	"github.com/layerfix/layerfix/ai"
)

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

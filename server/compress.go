package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Compressed assets: a phone on a slow line gets the app's JavaScript and
// CSS as brotli (or gzip when the browser does not take brotli), compressed
// once per file on first request and kept, with a strong ETag per encoding.
// Images and fonts are already compressed and go as they are.

// compressible reports whether a file of this type gains from compression.
func compressible(ctype string) bool {
	for _, p := range []string{"text/", "application/javascript", "application/json", "image/svg+xml", "application/manifest+json", "text/javascript"} {
		if strings.HasPrefix(ctype, p) {
			return true
		}
	}
	return false
}

type encoded struct {
	identity, gzip, br []byte
	etag               string // of the identity body; encodings add a suffix
}

type assetCache struct {
	mu    sync.Mutex
	files map[string]*encoded
}

// get returns the encodings of a file's content, computing them once.
func (a *assetCache) get(name string, body []byte, compress bool) *encoded {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.files[name]; ok {
		return e
	}
	sum := sha256.Sum256(body)
	e := &encoded{identity: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	if compress && len(body) > 1024 {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		// Writes into a bytes.Buffer do not fail.
		_, _ = zw.Write(body)
		_ = zw.Close()
		var br bytes.Buffer
		bw := brotli.NewWriterLevel(&br, 9)
		_, _ = bw.Write(body)
		_ = bw.Close()
		if gz.Len() < len(body) {
			e.gzip = gz.Bytes()
		}
		if br.Len() < len(body) {
			e.br = br.Bytes()
		}
	}
	if a.files == nil {
		a.files = map[string]*encoded{}
	}
	a.files[name] = e
	return e
}

// pick chooses the encoding for an Accept-Encoding header: brotli, then
// gzip, then none (an encoding with q=0 is refused).
func (e *encoded) pick(accept string) (body []byte, encoding, etag string) {
	ok := map[string]bool{}
	for _, part := range strings.Split(accept, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.ReplaceAll(strings.TrimSpace(params), " ", "") == "q=0" {
			continue
		}
		ok[strings.ToLower(strings.TrimSpace(name))] = true
	}
	switch {
	case e.br != nil && ok["br"]:
		return e.br, "br", strings.TrimSuffix(e.etag, `"`) + `-br"`
	case e.gzip != nil && (ok["gzip"] || ok["*"]):
		return e.gzip, "gzip", strings.TrimSuffix(e.etag, `"`) + `-gz"`
	}
	return e.identity, "", e.etag
}

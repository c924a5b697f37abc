// Package storetest opens throwaway stores for other packages' tests.
package storetest

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/layerfix/layerfix/store"
)

// Open opens a store on a fresh SQLite file in a temp dir, closed when the
// test ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("open test store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenShared opens a store on url (pgtest.SchemaURL), closed when the test
// ends: call it twice on one URL for two instances on one database.
func OpenShared(t testing.TB, url string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Options{DatabaseURL: url, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("open shared store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

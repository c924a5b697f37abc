package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"gorm.io/gorm"
)

// Concurrent writes share commits, and a write that fails (a duplicate
// photo id) fails alone: its batch-mates are committed.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	ctx := context.Background()
	s := openAt(t, t.TempDir())
	defer s.Close()
	if s.gc == nil {
		t.Fatal("SQLite store without group commit")
	}
	u := &User{Email: "gc@example.com", DisplayName: "G"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePhotos(ctx, []Photo{{ID: "taken", UserID: u.ID}}); err != nil {
		t.Fatal(err)
	}
	const n = 200
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			id := fmt.Sprintf("p%03d", i)
			if i%10 == 0 {
				id = "taken" // fails: duplicate primary key
			}
			errs[i] = s.CreatePhotos(ctx, []Photo{{ID: id, UserID: u.ID}})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if (i%10 == 0) != (err != nil) {
			t.Fatalf("write %d: err = %v", i, err)
		}
		if i%10 == 0 && !errors.Is(err, gorm.ErrDuplicatedKey) {
			t.Errorf("write %d: %v, want a duplicate-key error", i, err)
		}
	}
	var count int64
	s.r.Model(&Photo{}).Count(&count)
	if count != 1+n-n/10 {
		t.Fatalf("%d photos stored, want %d", count, 1+n-n/10)
	}
	// A panicking write is that write's error, not the process's.
	if err := s.write(ctx, func(*gorm.DB) error { panic("boom") }); err == nil {
		t.Fatal("a panicking write succeeded")
	}
	if _, err := s.ConsumeAnonymous(ctx, "192.0.2.9", s.Now(), 3); err != nil {
		t.Fatalf("the committer is unusable after a panic: %v", err)
	}
}

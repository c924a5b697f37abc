package store

import (
	"context"
	"testing"
	"time"
)

func TestOrphanPhotos(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := &User{Email: "p@example.com"}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-48 * time.Hour)
		photos := []Photo{
			{ID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", UserID: u.ID, CreatedAt: old},
			{ID: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", UserID: u.ID, CreatedAt: old},
			{ID: "cccccccccccccccccccccccccccccccc", UserID: u.ID},
		}
		if err := s.CreatePhotos(ctx, photos); err != nil {
			t.Fatal(err)
		}
		is := &Issue{UserID: u.ID, Category: "other", Description: "with a photo",
			PhotoURLs: StringList{"/api/photos/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg"}}
		if err := s.CreateIssue(ctx, is); err != nil {
			t.Fatal(err)
		}
		got, err := s.OrphanPhotos(ctx, time.Now().Add(-24*time.Hour), 10)
		if err != nil || len(got) != 1 || got[0].ID != "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" {
			t.Fatalf("orphans %+v %v", got, err)
		}
		if err := s.DeletePhotos(ctx, []string{got[0].ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PhotoByID(ctx, got[0].ID); err != ErrNotFound {
			t.Fatalf("deleted photo: %v", err)
		}
	})
}

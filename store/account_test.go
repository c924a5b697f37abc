package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestEmailChangeTokens(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		ada := &User{Email: "ada@example.com", DisplayName: "Ada"}
		bob := &User{Email: "bob@example.com", DisplayName: "Bob"}
		for _, u := range []*User{ada, bob} {
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateAuthToken(ctx, ada.ID, "reset", "reset-hash", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateEmailChangeToken(ctx, ada.ID, "typo@example.com", "first", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateEmailChangeToken(ctx, ada.ID, "ada@new.example", "second", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ConfirmEmailChange(ctx, "first", now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("an earlier link after a newer one: %v", err)
		}
		if _, _, err := s.ConfirmEmailChange(ctx, "reset-hash", now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a reset token used as an email change: %v", err)
		}
		id, email, err := s.ConfirmEmailChange(ctx, "second", now)
		if err != nil || id != ada.ID || email != "ada@new.example" {
			t.Fatalf("confirm: %d %q %v", id, email, err)
		}
		u, _ := s.UserByID(ctx, ada.ID)
		if u.Email != "ada@new.example" || !u.EmailVerified {
			t.Fatalf("after confirm: %+v", u)
		}
		if _, err := s.UseAuthToken(ctx, "reset", "reset-hash", now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a reset link of the old address works after the change: %v", err)
		}
		if _, _, err := s.ConfirmEmailChange(ctx, "second", now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("second use: %v", err)
		}
		// Expired.
		if err := s.CreateEmailChangeToken(ctx, ada.ID, "late@example.com", "late", now.Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ConfirmEmailChange(ctx, "late", now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("expired: %v", err)
		}
		// Taken meanwhile: refused, and the link stays usable.
		if err := s.CreateEmailChangeToken(ctx, ada.ID, "bob@example.com", "taken", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ConfirmEmailChange(ctx, "taken", now); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("taken address: %v", err)
		}
		if err := s.SetEmail(ctx, bob.ID, "bob@elsewhere.example", false); err != nil {
			t.Fatal(err)
		}
		if _, email, err := s.ConfirmEmailChange(ctx, "taken", now); err != nil || email != "bob@example.com" {
			t.Fatalf("once the address is free: %q %v", email, err)
		}
		if err := s.SetEmail(ctx, bob.ID, "BOB@example.com", false); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("SetEmail to a taken address: %v", err)
		}
		if err := s.SetEmail(ctx, 99999, "x@example.com", false); !errors.Is(err, ErrNotFound) {
			t.Fatalf("SetEmail of no user: %v", err)
		}
	})
}

func TestSessionsExceptAndEachPhoto(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := &User{Email: "farm@example.com", DisplayName: "Farm"}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"keep", "a", "b"} {
			if err := s.CreateSession(ctx, u.ID, h, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DeleteSessionsExcept(ctx, u.ID, "keep"); err != nil {
			t.Fatal(err)
		}
		for h, want := range map[string]bool{"keep": true, "a": false, "b": false} {
			_, err := s.SessionUser(ctx, h, time.Now())
			if (err == nil) != want {
				t.Fatalf("session %s: %v, want kept=%v", h, err, want)
			}
		}
		// More photos than one page.
		var photos []Photo
		for i := range 1203 {
			photos = append(photos, Photo{ID: fmt.Sprintf("%032x", i), UserID: u.ID, SizeBytes: 1, Width: 1, Height: 1})
		}
		if err := s.CreatePhotos(ctx, photos); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		if err := s.EachPhoto(ctx, u.ID, func(p *Photo) error { seen[p.ID] = true; return nil }); err != nil {
			t.Fatal(err)
		}
		if len(seen) != len(photos) {
			t.Fatalf("EachPhoto saw %d of %d", len(seen), len(photos))
		}
	})
}

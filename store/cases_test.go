package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Learning reads only confirmations of verified, enabled accounts that
// carry knowledge-base steps and a network, at most perMaker per account
// (the newest), newest first.
func TestConfirmedFixesCountOnlyVerifiedMakersWithACap(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		verified := func(email string) *User {
			u := newUser(t, s, email)
			if err := s.UpdateUser(ctx, u.ID, map[string]any{"email_verified": true}); err != nil {
				t.Fatal(err)
			}
			return u
		}
		ada, bob, eve := verified("ada@example.com"), verified("bob@example.com"), newUser(t, s, "eve@example.com")
		gone := verified("gone@example.com")
		s.UpdateUser(ctx, gone.ID, map[string]any{"disabled": true})
		p := &Printer{UserID: ada.ID, Name: "Mk4", Brand: "Prusa", NozzleSize: 0.6, FilamentDiameter: 1.75}
		s.CreatePrinter(ctx, p)
		t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		n := 0
		resolve := func(u *User, printer *int64, conf Confirmation) int64 {
			n++
			is := &Issue{UserID: u.ID, PrinterID: printer, Category: "stringing", Description: fmt.Sprintf("strings %d", n), CreatedAt: t0}
			if err := s.CreateIssue(ctx, is); err != nil {
				t.Fatal(err)
			}
			if err := s.ResolveIssue(ctx, u.ID, is.ID, []string{"Free words"}, nil, conf, t0.Add(time.Duration(n)*time.Hour)); err != nil {
				t.Fatal(err)
			}
			return is.ID
		}
		step := Confirmation{Steps: []string{"stringing-retraction/raise-retraction"}, Network: "net-a"}
		var adas []int64
		for range 4 {
			adas = append(adas, resolve(ada, &p.ID, step))
		}
		b := resolve(bob, nil, Confirmation{Steps: step.Steps, Network: "net-b"})
		resolve(bob, nil, Confirmation{Network: "net-b"})  // no knowledge-base step
		resolve(bob, nil, Confirmation{Steps: step.Steps}) // no network
		resolve(eve, nil, step)                            // not verified
		resolve(gone, nil, step)                           // disabled

		got, err := s.ConfirmedFixes(ctx, 100, 2)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, f := range got {
			ids = append(ids, f.ID)
		}
		if want := []int64{b, adas[3], adas[2]}; fmt.Sprint(ids) != fmt.Sprint(want) {
			t.Fatalf("confirmed fixes %v, want %v", ids, want)
		}
		if f := got[1]; f.UserID != ada.ID || f.Network != "net-a" || len(f.LearnedSteps) != 1 || f.LearnedSteps[0] != step.Steps[0] ||
			f.PrinterBrand == nil || *f.PrinterBrand != "Prusa" || f.NozzleSize == nil || *f.NozzleSize != 0.6 || f.Description != "strings 4" {
			t.Fatalf("ada's newest confirmation %+v", f)
		}
		if got[0].PrinterBrand != nil || got[0].UserID != bob.ID {
			t.Fatalf("bob's confirmation %+v", got[0])
		}
		if got, _ := s.ConfirmedFixes(ctx, 1, 2); len(got) != 1 || got[0].ID != b {
			t.Fatalf("limit 1: %+v", got)
		}
	})
}

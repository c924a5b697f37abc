package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func newUser(t *testing.T, s *Store, email string) *User {
	t.Helper()
	u := &User{Email: email}
	if err := s.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestPrintersAreScopedAndDeleteKeepsIssues(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ada, bob := newUser(t, s, "ada@example.com"), newUser(t, s, "bob@example.com")
		p := &Printer{UserID: ada.ID, Name: "Mk4", Brand: "Prusa", NozzleSize: 0.4, FilamentDiameter: 1.75}
		if err := s.CreatePrinter(ctx, p); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PrinterByID(ctx, bob.ID, p.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob reads ada's printer: %v", err)
		}
		if err := s.UpdatePrinter(ctx, &Printer{ID: p.ID, UserID: bob.ID, Name: "x", Brand: "y"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob updates ada's printer: %v", err)
		}
		if err := s.DeletePrinter(ctx, bob.ID, p.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob deletes ada's printer: %v", err)
		}
		vol := "250x210x220"
		p.BuildVolume, p.NozzleSize = &vol, 0.6
		if err := s.UpdatePrinter(ctx, p); err != nil {
			t.Fatal(err)
		}
		is := &Issue{UserID: ada.ID, PrinterID: &p.ID, Category: "stringing", Description: "strings everywhere", AIChecklist: JSON(`{"summary":"s"}`)}
		if err := s.CreateIssue(ctx, is); err != nil {
			t.Fatal(err)
		}
		v, err := s.IssueByID(ctx, ada.ID, is.ID)
		if err != nil || v.PrinterName == nil || *v.PrinterName != "Mk4" || *v.PrinterBrand != "Prusa" {
			t.Fatalf("issue view %+v %v", v, err)
		}
		if _, err := s.IssueByID(ctx, bob.ID, is.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob reads ada's issue: %v", err)
		}
		if err := s.DeletePrinter(ctx, ada.ID, p.ID); err != nil {
			t.Fatal(err)
		}
		list, _, _, err := s.IssuePage(ctx, ada.ID, IssueFilter{}, nil, 10)
		if err != nil || len(list) != 1 || list[0].PrinterID != nil || list[0].PrinterName != nil {
			t.Fatalf("issues after printer delete: %+v %v", list, err)
		}
	})
}

func TestResolveStartAndHistory(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ada, bob := newUser(t, s, "ada@example.com"), newUser(t, s, "bob@example.com")
		p := &Printer{UserID: ada.ID, Name: "Mk4", Brand: "Prusa", NozzleSize: 0.4, FilamentDiameter: 1.75}
		s.CreatePrinter(ctx, p)
		mk := func(desc string, at time.Time) *Issue {
			is := &Issue{UserID: ada.ID, PrinterID: &p.ID, Category: "stringing", Description: desc, CreatedAt: at}
			if err := s.CreateIssue(ctx, is); err != nil {
				t.Fatal(err)
			}
			return is
		}
		t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		a, b, c := mk("first", t0), mk("second", t0.Add(time.Hour)), mk("third", t0.Add(2*time.Hour))
		if err := s.StartIssue(ctx, bob.ID, a.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob starts ada's issue: %v", err)
		}
		if err := s.StartIssue(ctx, ada.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.StartIssue(ctx, ada.ID, a.ID); err != nil {
			t.Fatalf("start twice: %v", err)
		}
		notes := "did it"
		if err := s.ResolveIssue(ctx, bob.ID, a.ID, []string{"x"}, nil, Confirmation{}, t0); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob resolves ada's issue: %v", err)
		}
		if err := s.ResolveIssue(ctx, ada.ID, a.ID, []string{"Raise retraction"}, &notes, Confirmation{}, t0.Add(24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.ResolveIssue(ctx, ada.ID, a.ID, nil, nil, Confirmation{}, t0); !errors.Is(err, ErrWrongState) {
			t.Fatalf("resolve twice: %v", err)
		}
		if err := s.StartIssue(ctx, ada.ID, a.ID); !errors.Is(err, ErrWrongState) {
			t.Fatalf("start a resolved issue: %v", err)
		}
		s.ResolveIssue(ctx, ada.ID, b.ID, nil, nil, Confirmation{}, t0.Add(48*time.Hour)) // no working steps: not history
		s.ResolveIssue(ctx, ada.ID, c.ID, []string{"Dry the filament"}, nil, Confirmation{}, t0.Add(72*time.Hour))
		h, err := s.PrinterHistory(ctx, ada.ID, p.ID, 20)
		if err != nil || len(h) != 2 || h[0].ID != c.ID || h[1].ID != a.ID || h[1].WorkingRecommendations[0] != "Raise retraction" || *h[1].ResolutionNotes != "did it" {
			t.Fatalf("history %+v %v", h, err)
		}
		if h, _ := s.PrinterHistory(ctx, bob.ID, p.ID, 20); len(h) != 0 {
			t.Fatalf("bob sees ada's history: %+v", h)
		}
		f, err := s.IssueFacets(ctx, ada.ID)
		// Three resolved stringing issues of one printer in one month: one counted row.
		if err != nil || len(f) != 1 || f[0].Count != 3 || f[0].Status != StatusResolved || *f[0].PrinterID != p.ID ||
			f[0].CreatedAt.Format("2006-01") != t0.UTC().Format("2006-01") {
			t.Fatalf("facets %+v %v", f, err)
		}
	})
}

func TestPhotosAndServerKey(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ada, bob := newUser(t, s, "ada@example.com"), newUser(t, s, "bob@example.com")
		if err := s.CreatePhotos(ctx, []Photo{{ID: "aa", UserID: ada.ID, SizeBytes: 10, Width: 2, Height: 2}, {ID: "bb", UserID: bob.ID, SizeBytes: 10, Width: 2, Height: 2}}); err != nil {
			t.Fatal(err)
		}
		got, err := s.PhotosOf(ctx, ada.ID, []string{"aa", "bb", "cc"})
		if err != nil || len(got) != 1 || got[0].ID != "aa" {
			t.Fatalf("photos of ada %+v %v", got, err)
		}
		if p, err := s.PhotoByID(ctx, "bb"); err != nil || p.UserID != bob.ID {
			t.Fatalf("photo bb %+v %v", p, err)
		}
		if _, err := s.PhotoByID(ctx, "zz"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown photo: %v", err)
		}
		var wg sync.WaitGroup
		keys := make([]string, 8)
		for i := range keys {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				k, err := s.ServerKey(ctx, "k", string(rune('a'+i)))
				if err != nil {
					t.Error(err)
				}
				keys[i] = k
			}(i)
		}
		wg.Wait()
		for _, k := range keys {
			if k != keys[0] || k == "" {
				t.Fatalf("instances disagree on the key: %v", keys)
			}
		}
	})
}

// The diagnosed category is stored beside the chosen one; lists, filters and
// statistics use the maker's choice where they made one, else the diagnosis.
func TestDiagnosedCategory(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ada := newUser(t, s, "ada@example.com")
		p := &Printer{UserID: ada.ID, Name: "Mk4", Brand: "Prusa", NozzleSize: 0.4, FilamentDiameter: 1.75}
		s.CreatePrinter(ctx, p)
		clog := "extrusion-issues"
		mk := func(chosen string, diagnosed *string) *Issue {
			is := &Issue{UserID: ada.ID, PrinterID: &p.ID, Category: chosen, DiagnosedCategory: diagnosed, Description: chosen}
			if err := s.CreateIssue(ctx, is); err != nil {
				t.Fatal(err)
			}
			return is
		}
		diagnosedClog := mk("other", &clog) // left on "Other": shows the clog
		chosen := mk("stringing", &clog)    // the maker's choice wins
		undiagnosed := mk("other", nil)     // nothing diagnosed (or saved before it was)
		for cat, want := range map[string][]int64{
			"extrusion-issues": {diagnosedClog.ID},
			"stringing":        {chosen.ID},
			"other":            {undiagnosed.ID},
		} {
			got, _, total, err := s.IssuePage(ctx, ada.ID, IssueFilter{Category: cat}, nil, 10)
			if err != nil || total != int64(len(want)) || len(got) != len(want) || got[0].ID != want[0] {
				t.Fatalf("category %s: %d issues %+v, %v", cat, total, got, err)
			}
		}
		counts := func() map[string]int {
			f, err := s.IssueFacets(ctx, ada.ID)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]int{}
			for _, x := range f {
				out[x.Category] += x.Count
			}
			return out
		}
		if c := counts(); c["extrusion-issues"] != 1 || c["stringing"] != 1 || c["other"] != 1 {
			t.Fatalf("facets by category %v", c)
		}
		// A narrowed-down analysis diagnoses again.
		heat := "heating-issues"
		if err := s.SetChecklist(ctx, ada.ID, undiagnosed.ID, JSON(`{"summary":"s"}`), &heat); err != nil {
			t.Fatal(err)
		}
		v, err := s.IssueByID(ctx, ada.ID, undiagnosed.ID)
		if err != nil || v.DiagnosedCategory == nil || *v.DiagnosedCategory != heat || v.Category != "other" {
			t.Fatalf("after refine: %+v %v", v, err)
		}
		if c := counts(); c["heating-issues"] != 1 || c["other"] != 0 {
			t.Fatalf("facets after refine %v", c)
		}
	})
}

func TestShownCategory(t *testing.T) {
	clog := "extrusion-issues"
	empty := ""
	for _, tc := range []struct {
		chosen    string
		diagnosed *string
		want      string
	}{
		{"other", &clog, clog}, {"", &clog, clog}, {"stringing", &clog, "stringing"},
		{"other", nil, "other"}, {"other", &empty, "other"}, {"warping", nil, "warping"},
	} {
		if got := ShownCategory(tc.chosen, tc.diagnosed); got != tc.want {
			t.Errorf("ShownCategory(%q, %v) = %q, want %q", tc.chosen, tc.diagnosed, got, tc.want)
		}
	}
}

func TestPrinterHostIsStoredAndUpdated(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ada := newUser(t, s, "ada@example.com")
		p := &Printer{UserID: ada.ID, Name: "V2", Brand: "Voron", NozzleSize: 0.4, FilamentDiameter: 1.75,
			HostKind: "moonraker", HostURL: "http://10.0.0.5:7125", HostKey: "v1.sealed"}
		if err := s.CreatePrinter(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := s.PrinterByID(ctx, ada.ID, p.ID)
		if err != nil || got.HostKind != "moonraker" || got.HostURL != "http://10.0.0.5:7125" || got.HostKey != "v1.sealed" {
			t.Fatalf("stored host = %+v, %v", got, err)
		}
		got.HostKind, got.HostURL, got.HostKey = "", "", ""
		if err := s.UpdatePrinter(ctx, got); err != nil {
			t.Fatal(err)
		}
		if again, _ := s.PrinterByID(ctx, ada.ID, p.ID); again.HostKind != "" || again.HostURL != "" || again.HostKey != "" {
			t.Fatalf("host after clearing = %+v", again)
		}
	})
}

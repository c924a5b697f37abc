package server

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store"
)

// seedIssues stores n issues of the maker directly: every third on the
// printer, every fourth resolved, one a day going back from the clock.
func seedIssues(t *testing.T, ws *workspace, auth []string, printerID int64, n int) int64 {
	t.Helper()
	var uid int64
	w := ws.do(t, "GET", "/api/user/profile", "", auth...)
	var p struct{ ID int64 }
	json.Unmarshal(w.Body.Bytes(), &p)
	uid = p.ID
	base := ws.clock.now()
	for i := 0; i < n; i++ {
		is := &store.Issue{UserID: uid, Category: "stringing", Description: fmt.Sprintf("issue %d with strings", i),
			Status: store.StatusPending, CreatedAt: base.Add(-time.Duration(i) * 24 * time.Hour)}
		if i%3 == 0 {
			is.PrinterID = &printerID
		}
		if i%4 == 0 {
			is.Status = store.StatusResolved
		}
		if i == 7 {
			is.Description = "Elephant foot on the first layer"
		}
		if err := ws.store.CreateIssue(t.Context(), is); err != nil {
			t.Fatal(err)
		}
	}
	return uid
}

type pageOut struct {
	Items []struct {
		ID          int64
		Status      string
		Description string
		CreatedAt   time.Time
		Printer     *struct{ Name string }
	}
	NextCursor *string
	Total      int64
}

func (ws *workspace) page(t *testing.T, auth []string, query string) pageOut {
	t.Helper()
	w := ws.do(t, "GET", "/api/issues?"+query, "", auth...)
	if w.Code != 200 {
		t.Fatalf("GET /api/issues?%s: %d %s", query, w.Code, w.Body.String())
	}
	var p pageOut
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Pages follow each other with nothing lost or repeated, newest first;
// filters are applied by the server with the total that matches; the
// dashboard summary counts by status; the export streams every issue.
func TestIssuePagesFiltersSummaryAndExport(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	seedIssues(t, ws, ada, pr.ID, 120)
	bob := ws.user(t, "bob@example.com")

	seen := map[int64]bool{}
	var last time.Time
	cursor, pages := "", 0
	for {
		q := "limit=50"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		p := ws.page(t, ada, q)
		pages++
		if p.Total != 120 {
			t.Fatalf("total = %d, want 120", p.Total)
		}
		for _, it := range p.Items {
			if seen[it.ID] {
				t.Fatalf("issue %d on two pages", it.ID)
			}
			seen[it.ID] = true
			if !last.IsZero() && it.CreatedAt.After(last) {
				t.Fatalf("not newest first: %v after %v", it.CreatedAt, last)
			}
			last = it.CreatedAt
		}
		if p.NextCursor == nil {
			break
		}
		cursor = *p.NextCursor
	}
	if len(seen) != 120 || pages != 3 {
		t.Fatalf("%d issues on %d pages, want 120 on 3", len(seen), pages)
	}

	for q, want := range map[string]int64{
		"status=resolved":            30,
		"status=open":                90,
		"status=pending&printer=Mk4": 30, // i%3==0 and i%4!=0: 40 - 10
		"printer=" + url.QueryEscape(store.UnknownPrinter): 80,
		"q=ELEPHANT": 1,
		"q=100%25":   0, // % is a literal, not a wildcard
		"from=" + url.QueryEscape(ws.clock.now().Add(-9*24*time.Hour).Format(time.RFC3339)): 10,
		"to=" + url.QueryEscape(ws.clock.now().Add(-110*24*time.Hour).Format(time.RFC3339)): 10,
		"category=stringing":   120,
		"category=first-layer": 0,
	} {
		if got := ws.page(t, ada, q).Total; got != want {
			t.Errorf("%s: total %d, want %d", q, got, want)
		}
	}
	if p := ws.page(t, bob, "limit=50"); p.Total != 0 || len(p.Items) != 0 {
		t.Fatalf("Bob sees Ada's issues: %+v", p)
	}
	for _, bad := range []string{"limit=0", "limit=500", "status=done", "category=lasers", "from=yesterday", "cursor=%21%21", "cursor=" + strings.Repeat("A", 100)} {
		if w := ws.do(t, "GET", "/api/issues?"+bad, "", ada...); w.Code != 400 {
			t.Errorf("%s: %d, want 400", bad, w.Code)
		}
	}

	w := ws.do(t, "GET", "/api/issues/summary", "", ada...)
	var sum struct {
		Total, Open, Pending, InProgress, Resolved int64
		Recent                                     []struct{ ID int64 }
	}
	json.Unmarshal(w.Body.Bytes(), &sum)
	if sum.Total != 120 || sum.Open != 90 || sum.Pending != 90 || sum.Resolved != 30 || len(sum.Recent) != 5 {
		t.Fatalf("summary: %+v", sum)
	}

	w = ws.do(t, "GET", "/api/issues/export?format=csv", "", ada...)
	rows, err := csv.NewReader(strings.NewReader(w.Body.String())).ReadAll()
	if err != nil || len(rows) != 121 {
		t.Fatalf("csv export: %d rows, %v", len(rows), err)
	}
	w = ws.do(t, "GET", "/api/issues/export?format=json", "", ada...)
	var all []json.RawMessage
	if err := json.Unmarshal(w.Body.Bytes(), &all); err != nil || len(all) != 120 {
		t.Fatalf("json export: %d issues, %v", len(all), err)
	}
	w = ws.do(t, "GET", "/api/issues/export?format=json", "", bob...)
	if strings.TrimSpace(w.Body.String()) != "[]" {
		t.Fatalf("empty json export: %q", w.Body.String())
	}
}

// rowCountingStore hands the real store's rows to the issue routes and
// notes, for each row, how many bytes the client had received by then.
type rowCountingStore struct {
	*store.Store
	out      *byteCountingWriter
	sentWhen []int // bytes the client had when row i was handed out
}

func (s *rowCountingStore) EachIssue(ctx context.Context, userID int64, fn func(*store.IssueView) error) error {
	return s.Store.EachIssue(ctx, userID, func(v *store.IssueView) error {
		s.sentWhen = append(s.sentWhen, s.out.n)
		return fn(v)
	})
}

type byteCountingWriter struct {
	*httptest.ResponseRecorder
	n int
}

func (w *byteCountingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return w.ResponseRecorder.Write(p)
}

// TestUnpagedIssueListStreams: GET /api/issues without page parameters
// answers the whole log in the same shape (a JSON array of issues, newest
// first) but never holds more than one batch of rows: when the store hands
// out a row, every issue more than a batch before it is already with the
// client, whatever the log's size.
func TestUnpagedIssueListStreams(t *testing.T) {
	const n, batch = 5000, 600 // the store reads 500 rows at a time
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	var prof struct{ ID int64 }
	json.Unmarshal(ws.do(t, "GET", "/api/user/profile", "", ada...).Body.Bytes(), &prof)
	checklist := store.JSON(`{"summary":"Stringing from retraction","steps":[{"title":"Increase retraction","description":"5 mm","priority":"high"}],"additionalTips":[]}`)
	rows := make([]store.Issue, n)
	for i := range rows {
		rows[i] = store.Issue{UserID: prof.ID, PrinterID: &pr.ID, Category: "stringing", Status: store.StatusPending,
			Description: fmt.Sprintf("issue %d: strings between the towers", i), AIChecklist: checklist,
			CreatedAt: ws.clock.now().Add(-time.Duration(i) * time.Minute)}
	}
	if err := ws.store.CreateIssues(t.Context(), rows); err != nil {
		t.Fatal(err)
	}
	user, err := ws.store.UserByID(t.Context(), prof.ID)
	if err != nil {
		t.Fatal(err)
	}

	out := &byteCountingWriter{ResponseRecorder: httptest.NewRecorder()}
	counting := &rowCountingStore{Store: ws.store, out: out}
	h := &issuesAPI{store: counting, photos: ws.photos, signer: ws.signer, now: ws.clock.now, log: ws.log}
	c := ws.e.NewContext(httptest.NewRequest("GET", "/api/issues", nil), out)
	c.Set(userKey, user)
	if err := h.list(c); err != nil || out.Code != 200 {
		t.Fatalf("list: %v %d", err, out.Code)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(out.Body.Bytes(), &items); err != nil || len(items) != n {
		t.Fatalf("not an array of %d issues (%d, %v)", n, len(items), err)
	}
	var first, last issueJSON
	json.Unmarshal(items[0], &first)
	json.Unmarshal(items[n-1], &last)
	if first.Description != "issue 0: strings between the towers" || last.Description != fmt.Sprintf("issue %d: strings between the towers", n-1) ||
		first.Printer == nil || first.Printer.Name != "Mk4" || first.AIChecklistSignature == "" {
		t.Fatalf("not the issue shape, newest first: %s ... %s", items[0], items[n-1])
	}
	if len(counting.sentWhen) != n {
		t.Fatalf("the store handed out %d of %d rows in batches: the list was read whole", len(counting.sentWhen), n)
	}
	delivered := 0 // bytes of the issues a batch before row i
	for i := batch; i < n; i++ {
		delivered += len(items[i-batch])
		if counting.sentWhen[i] < delivered {
			t.Fatalf("row %d handed out with %d bytes sent: more than %d rows held before writing", i, counting.sentWhen[i], batch)
		}
	}
}

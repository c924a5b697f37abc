package server

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"firebase.google.com/go/v4/auth"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

const accountPassword = "gears-and-layers" // the password workspace.user signs up with

func TestUpdateDisplayName(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")

	w := ws.do(t, "PATCH", "/api/user/profile", `{"displayName":"  Ada King "}`, ada...)
	var p profile
	if json.Unmarshal(w.Body.Bytes(), &p); w.Code != 200 || p.DisplayName != "Ada King" || p.Email != "ada@example.com" {
		t.Fatalf("rename: %d %s", w.Code, w.Body.String())
	}
	if got := profileOfUser(t, ws.testServer, ada[1][7:]); got.DisplayName != "Ada King" {
		t.Fatalf("profile after rename: %+v", got)
	}
	if got := profileOfUser(t, ws.testServer, bob[1][7:]); got.DisplayName != "Ada Lovelace" {
		t.Fatalf("another maker's name changed: %+v", got)
	}

	bad := map[string]struct{ body, field string }{
		"empty":         {`{"displayName":"   "}`, "Please enter your display name"},
		"missing":       {`{}`, "Please enter your display name"},
		"too long":      {mustJSON(t, map[string]string{"displayName": strings.Repeat("a", 101)}), "less than 100 characters"},
		"invisible":     {mustJSON(t, map[string]string{"displayName": "Ada\u202eKing"}), "invisible formatting character"},
		"wrong type":    {`{"displayName":42}`, ""},
		"not an object": {`[1]`, ""},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			w := ws.do(t, "PATCH", "/api/user/profile", c.body, ada...)
			e := decodeError(t, w)
			if w.Code != 400 || (c.field != "" && !strings.Contains(e.Fields["displayName"], c.field)) {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
		})
	}
	if w := ws.do(t, "PATCH", "/api/user/profile", `{"displayName":"X"}`); w.Code != 401 {
		t.Fatalf("signed out: %d", w.Code)
	}
	if w := ws.do(t, "PATCH", "/api/user/profile", "displayName=X", append(ada, "Content-Type", "text/plain")...); w.Code != 415 {
		t.Fatalf("not JSON: %d", w.Code)
	}
}

func TestChangePassword(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	// A second device, signed in earlier.
	w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`)
	var other sessionResponse
	if json.Unmarshal(w.Body.Bytes(), &other); w.Code != 200 {
		t.Fatalf("second sign-in: %d", w.Code)
	}

	bad := map[string]struct {
		body   string
		status int
		field  string
	}{
		"wrong current":   {`{"currentPassword":"not-my-password","newPassword":"layer-shift-42"}`, 400, "currentPassword"},
		"no current":      {`{"newPassword":"layer-shift-42"}`, 400, "currentPassword"},
		"weak new":        {`{"currentPassword":"gears-and-layers","newPassword":"abc"}`, 400, "newPassword"},
		"common new":      {`{"currentPassword":"gears-and-layers","newPassword":"password"}`, 400, "newPassword"},
		"same as current": {`{"currentPassword":"gears-and-layers","newPassword":"gears-and-layers"}`, 400, "newPassword"},
		"huge current":    {mustJSON(t, passwordChange{CurrentPassword: strings.Repeat("x", 5000), NewPassword: "layer-shift-42"}), 400, "currentPassword"},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			w := ws.do(t, "POST", "/api/user/password", c.body, ada...)
			if e := decodeError(t, w); w.Code != c.status || e.Fields[c.field] == "" {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
		})
	}
	w = ws.do(t, "POST", "/api/user/password", `{"currentPassword":"gears-and-layers","newPassword":"layer-shift-42"}`, ada...)
	if w.Code != 200 {
		t.Fatalf("change: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "GET", "/api/user/profile", "", ada...); w.Code != 200 {
		t.Fatalf("the device that changed it was signed out: %d", w.Code)
	}
	if w := ws.do(t, "GET", "/api/user/profile", "", bearer(other.Token)...); w.Code != 401 {
		t.Fatalf("another device stays signed in: %d", w.Code)
	}
	if w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`); w.Code != 401 {
		t.Fatalf("old password: %d", w.Code)
	}
	if w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"layer-shift-42"}`); w.Code != 200 {
		t.Fatalf("new password: %d", w.Code)
	}
}

// TestAccountPasswordChecksAreRateLimited: a stolen session cannot guess the
// password through the account routes: they count as failed sign-ins, lock
// like them, and lock sign-in for strangers too.
func TestAccountPasswordChecksAreRateLimited(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	routes := []struct{ method, path, body string }{
		{"POST", "/api/user/password", `{"currentPassword":"guess-%d","newPassword":"layer-shift-42"}`},
		{"POST", "/api/user/email", `{"currentPassword":"guess-%d","newEmail":"new@example.com"}`},
		{"DELETE", "/api/user", `{"password":"guess-%d"}`},
	}
	codes := map[int]int{}
	for i := range 12 {
		r := routes[i%len(routes)]
		w := ws.do(t, r.method, r.path, strings.Replace(r.body, "%d", string(rune('a'+i)), 1), ada...)
		codes[w.Code]++
	}
	if codes[400] != loginFailures || codes[429] != 12-loginFailures {
		t.Fatalf("answers %v: want %d wrong-password answers, then 429", codes, loginFailures)
	}
	// Even the right password waits now, on every route.
	if w := ws.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`, ada...); w.Code != 429 {
		t.Fatalf("right password during the lock: %d", w.Code)
	}
	// A stranger's sign-in meets the email's lock.
	w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`, "RemoteAddr", "198.51.100.7:1234")
	if w.Code != 429 {
		t.Fatalf("sign-in from elsewhere after the guesses: %d", w.Code)
	}
}

func TestChangeEmailWithoutMail(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	ws.user(t, "bob@example.com")
	bad := map[string]struct {
		body   string
		status int
		field  string
	}{
		"invalid":       {`{"newEmail":"not an email","currentPassword":"gears-and-layers"}`, 400, "newEmail"},
		"same":          {`{"newEmail":"ADA@example.com","currentPassword":"gears-and-layers"}`, 400, "newEmail"},
		"no password":   {`{"newEmail":"ada@new.example"}`, 400, "currentPassword"},
		"wrong":         {`{"newEmail":"ada@new.example","currentPassword":"nope-nope-nope"}`, 400, "currentPassword"},
		"taken":         {`{"newEmail":"Bob@Example.com","currentPassword":"gears-and-layers"}`, 409, "newEmail"},
		"over 254 long": {mustJSON(t, emailChange{NewEmail: strings.Repeat("a", 250) + "@example.com", CurrentPassword: accountPassword}), 400, "newEmail"},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			w := ws.do(t, "POST", "/api/user/email", c.body, ada...)
			if e := decodeError(t, w); w.Code != c.status || e.Fields[c.field] == "" {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
		})
	}
	w := ws.do(t, "POST", "/api/user/email", `{"newEmail":"Ada@New.Example","currentPassword":"gears-and-layers"}`, ada...)
	m := decodeMap(t, w)
	if w.Code != 200 || m["pending"] != false || m["email"] != "ada@new.example" {
		t.Fatalf("change: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ws.testServer, ada[1][7:]); p.Email != "ada@new.example" || p.EmailVerified {
		t.Fatalf("profile: %+v", p)
	}
	if w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@new.example","password":"gears-and-layers"}`); w.Code != 200 {
		t.Fatalf("sign-in with the new email: %d", w.Code)
	}
	if w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`); w.Code != 401 {
		t.Fatalf("sign-in with the old email: %d", w.Code)
	}
}

func TestChangeEmailWithMail(t *testing.T) {
	m := &fakeMailer{}
	ws := newWorkspace(t, nil, func(_ *config.Config, d *Deps) { d.Mailer = m })
	ada := ws.user(t, "ada@example.com")
	m.wait(t, 1) // the sign-up's verification
	if w := ws.do(t, "POST", "/api/auth/password-reset", `{"email":"ada@example.com"}`); w.Code != 202 {
		t.Fatal(w.Code)
	}
	resetMail := m.wait(t, 2)[1]
	code := regexp.MustCompile(`oobCode=([A-Za-z0-9_-]{43})`)

	sent := 2
	request := func(to string) string {
		t.Helper()
		sent++
		w := ws.do(t, "POST", "/api/user/email", mustJSON(t, emailChange{NewEmail: to, CurrentPassword: accountPassword}), ada...)
		if r := decodeMap(t, w); w.Code != 202 || r["pending"] != true {
			t.Fatalf("change to %s: %d %s", to, w.Code, w.Body.String())
		}
		mails := m.wait(t, sent)
		last := mails[len(mails)-1]
		if last.to != to || !strings.Contains(last.body, "/login?mode=verify&oobCode=") || strings.Contains(last.body, "Ada") {
			t.Fatalf("confirmation email %+v", last)
		}
		return code.FindStringSubmatch(last.body)[1]
	}
	first := request("typo@example.com")
	second := request("ada@new.example")
	if p := profileOfUser(t, ws.testServer, ada[1][7:]); p.Email != "ada@example.com" {
		t.Fatalf("the email changed before the link was opened: %+v", p)
	}
	// Only the newest link works.
	if w := ws.do(t, "POST", "/api/auth/verify-email", mustJSON(t, map[string]string{"oobCode": first})); w.Code != 400 {
		t.Fatalf("an older link: %d %s", w.Code, w.Body.String())
	}
	w := ws.do(t, "POST", "/api/auth/verify-email", mustJSON(t, map[string]string{"oobCode": second}))
	if w.Code != 200 || !strings.Contains(w.Body.String(), "ada@new.example") {
		t.Fatalf("confirm: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ws.testServer, ada[1][7:]); p.Email != "ada@new.example" || !p.EmailVerified {
		t.Fatalf("profile after the link: %+v", p)
	}
	if w := ws.do(t, "POST", "/api/auth/verify-email", mustJSON(t, map[string]string{"oobCode": second})); w.Code != 400 {
		t.Fatalf("second use: %d", w.Code)
	}
	// A reset link sent to the old address stops working.
	old := code.FindStringSubmatch(resetMail.body)[1]
	if w := ws.do(t, "POST", "/api/auth/password-update", mustJSON(t, map[string]string{"oobCode": old, "password": "taken-over-99"})); w.Code != 400 {
		t.Fatalf("old reset link after the change: %d", w.Code)
	}

	// An address taken between the request and the link is refused.
	third := request("carol@example.com")
	ws.user(t, "carol@example.com")
	if w := ws.do(t, "POST", "/api/auth/verify-email", mustJSON(t, map[string]string{"oobCode": third})); w.Code != 409 {
		t.Fatalf("address taken meanwhile: %d %s", w.Code, w.Body.String())
	}
}

// photoFile is where the disk store keeps photo id.
func photoFile(dir, id string) string { return filepath.Join(dir, id[:2], id+".jpg") }

// seedAccount gives a maker a printer, an issue with a photo and an
// attachment, and one more photo never attached; it returns the photo ids.
func seedAccount(t *testing.T, ws *workspace, auth []string, printer string) (issue issueOut, photos []string) {
	t.Helper()
	p := ws.addPrinter(t, auth, printer, "Prusa")
	url := ws.uploadPNG(t, auth, 40, 30)
	issue = ws.submit(t, auth, issueBody(t, p.ID, func(m map[string]any) {
		m["photoUrls"] = []string{url}
		m["attachments"] = attachments("printer.cfg", "[extruder]\nrotation_distance: 7.5\n")
	}))
	loose := ws.uploadPNG(t, auth, 20, 20)
	for _, u := range []string{url, loose} {
		id, _ := photoIDOf(u)
		photos = append(photos, id)
	}
	return issue, photos
}

func readZip(t *testing.T, body []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return out
}

func TestDownloadMyData(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")
	issue, photos := seedAccount(t, ws, ada, "Ada's MK4")
	_, bobPhotos := seedAccount(t, ws, bob, "Bob's Voron")

	w := ws.do(t, "GET", "/api/user/data", "", ada...)
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/zip" ||
		!strings.HasPrefix(w.Header().Get("Content-Disposition"), `attachment; filename="layerfix-data-2026-03-14.zip"`) {
		t.Fatalf("download: %d %v", w.Code, w.Header())
	}
	files := readZip(t, w.Body.Bytes())
	var acct map[string]any
	json.Unmarshal(files["account.json"], &acct)
	if acct["email"] != "ada@example.com" || acct["displayName"] != "Ada Lovelace" {
		t.Fatalf("account.json %s", files["account.json"])
	}
	if bytes.Contains(files["account.json"], []byte("argon2")) || bytes.Contains(files["account.json"], []byte("password")) {
		t.Fatalf("account.json holds the password hash: %s", files["account.json"])
	}
	var printers []store.Printer
	if json.Unmarshal(files["printers.json"], &printers); len(printers) != 1 || printers[0].Name != "Ada's MK4" {
		t.Fatalf("printers.json %s", files["printers.json"])
	}
	var issues []struct {
		ID          int64
		Description string
		Printer     *printerRef
		Attachments []store.Attachment
		Photos      []string
		AIChecklist ai.Result `json:"aiChecklist"`
	}
	if err := json.Unmarshal(files["issues.json"], &issues); err != nil || len(issues) != 1 {
		t.Fatalf("issues.json %s (%v)", files["issues.json"], err)
	}
	got := issues[0]
	if got.ID != issue.ID || got.Printer == nil || got.Printer.Name != "Ada's MK4" || got.AIChecklist.Summary == "" ||
		len(got.Attachments) != 1 || !strings.Contains(got.Attachments[0].Text, "rotation_distance") ||
		len(got.Photos) != 1 || got.Photos[0] != "photos/"+photos[0]+".jpg" {
		t.Fatalf("issue %+v", got)
	}
	for _, id := range photos {
		stored, err := os.ReadFile(photoFile(ws.photoDir, id))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(files["photos/"+id+".jpg"], stored) {
			t.Fatalf("photo %s: %d bytes in the zip, %d stored", id, len(files["photos/"+id+".jpg"]), len(stored))
		}
	}
	if len(files) != 4+len(photos) {
		names := []string{}
		for n := range files {
			names = append(names, n)
		}
		t.Fatalf("zip holds %v", names)
	}
	// Nothing of another maker.
	for _, id := range bobPhotos {
		if _, ok := files["photos/"+id+".jpg"]; ok {
			t.Fatalf("Bob's photo %s in Ada's data", id)
		}
	}
	if bytes.Contains(files["printers.json"], []byte("Voron")) || bytes.Contains(files["issues.json"], []byte("Voron")) {
		t.Fatal("Bob's printer in Ada's data")
	}
	if w := ws.do(t, "GET", "/api/user/data", ""); w.Code != 401 {
		t.Fatalf("signed out: %d", w.Code)
	}
}

func TestDataDownloadSlots(t *testing.T) {
	d := newDownloadSlots(2)
	r1, err := d.take(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.take(1); !isAPIError(err, 429, CodeRateLimited) {
		t.Fatalf("second download of one account: %v", err)
	}
	r2, err := d.take(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.take(3); !isAPIError(err, 429, "BUSY") {
		t.Fatalf("over the server's downloads: %v", err)
	}
	r1()
	r2()
	if _, err := d.take(3); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

// countRows counts the rows of table whose column is id.
func countRows(t *testing.T, st *store.Store, table, column string, id any) int64 {
	t.Helper()
	_, r := st.DBs()
	var n int64
	if err := r.QueryRow("SELECT COUNT(*) FROM "+table+" WHERE "+column+" = ?", id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDeleteMyAccount(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")
	issue, photos := seedAccount(t, ws, ada, "MK4")
	bobIssue, bobPhotos := seedAccount(t, ws, bob, "Voron")
	adaID := profileOfUser(t, ws.testServer, ada[1][7:]).ID

	for name, c := range map[string]struct {
		body   string
		status int
	}{
		"no password":    {`{}`, 400},
		"wrong password": {`{"password":"spaghetti-monster"}`, 400},
		"no body":        {"", 415},
	} {
		t.Run(name, func(t *testing.T) {
			if w := ws.do(t, "DELETE", "/api/user", c.body, ada...); w.Code != c.status {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
		})
	}
	if w := ws.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`); w.Code != 401 {
		t.Fatalf("signed out: %d", w.Code)
	}
	w := ws.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`, ada...)
	if r := decodeMap(t, w); w.Code != 200 || r["deleted"] != true || r["subscriptionCanceled"] != false {
		t.Fatalf("delete: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "GET", "/api/user/profile", "", ada...); w.Code != 401 {
		t.Fatalf("session after deletion: %d", w.Code)
	}
	if w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`); w.Code != 401 {
		t.Fatalf("sign-in after deletion: %d", w.Code)
	}
	for _, c := range []struct{ table, column string }{{"users", "id"}, {"printers", "user_id"}, {"issues", "user_id"},
		{"photos", "user_id"}, {"sessions", "user_id"}, {"auth_tokens", "user_id"}} {
		if n := countRows(t, ws.store, c.table, c.column, adaID); n != 0 {
			t.Errorf("%d rows of %s left", n, c.table)
		}
	}
	if n := countRows(t, ws.store, "issue_attachments", "issue_id", issue.ID); n != 0 {
		t.Errorf("%d attachments left", n)
	}
	for _, id := range photos {
		if _, err := os.Stat(photoFile(ws.photoDir, id)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("photo file %s: %v", id, err)
		}
	}
	// Another maker keeps everything.
	if w := ws.do(t, "GET", "/api/issues/"+itoa(bobIssue.ID), "", bob...); w.Code != 200 {
		t.Fatalf("Bob's issue: %d", w.Code)
	}
	for _, id := range bobPhotos {
		if _, err := os.Stat(photoFile(ws.photoDir, id)); err != nil {
			t.Errorf("Bob's photo %s: %v", id, err)
		}
	}
	// The email can be used again.
	ws.user(t, "ada@example.com")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestDeleteAccountCancelsSubscriptionFirst(t *testing.T) {
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	subscribe(t, ts, f, tok, "pro")
	sub := f.onlySub(t)

	// Stripe down: nothing is deleted, and the maker is told why.
	f.set(func(f *fakeStripe) { f.fail = 503 })
	w := ts.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`, bearer(tok)...)
	if w.Code != 503 || !strings.Contains(decodeError(t, w).Message, "was not deleted") {
		t.Fatalf("delete with Stripe down: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "pro" {
		t.Fatalf("profile after the failed deletion %+v", p)
	}
	f.set(func(f *fakeStripe) { f.fail = 0 })

	w = ts.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`, bearer(tok)...)
	r := decodeMap(t, w)
	if w.Code != 200 || r["subscriptionCanceled"] != true || !strings.Contains(r["message"].(string), "Pro subscription was canceled") {
		t.Fatalf("delete: %d %s", w.Code, w.Body.String())
	}
	if got := f.onlySub(t); got.status != "canceled" {
		t.Fatalf("at Stripe: %+v", got)
	}
	dels := f.requests("DELETE", "/v1/subscriptions/"+sub.id)
	if len(dels) != 2 || dels[1].form.Get("invoice_now") != "false" || dels[1].form.Get("prorate") != "false" {
		t.Fatalf("cancel requests %+v (the first answered 503)", dels)
	}
	// Stripe's later event for the gone customer is acknowledged.
	ev := sendEvent(t, ts.testServer, "evt_gone", "customer.subscription.deleted", subObject(sub.id, sub.customer, "canceled"), time.Now())
	if ev.Code != 200 || !strings.Contains(ev.Body.String(), string(store.EventUnknownCustomer)) {
		t.Fatalf("webhook after deletion: %d %s", ev.Code, ev.Body.String())
	}
}

// TestDeleteAccountAgainstStripeMock: the cancellation's real request shape.
func TestDeleteAccountAgainstStripeMock(t *testing.T) {
	ts := newStripeMockServer(t)
	st := ts.store
	tok := signup(t, ts, "maker@example.com", "gears-and-layers").Token
	id := profileOfUser(t, ts, tok).ID
	ctx := context.Background()
	if _, err := st.SetStripeCustomer(ctx, id, "cus_mock"); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveSubscription(ctx, id, store.SubscriptionUpdate{SubscriptionID: "sub_mock", Status: "active", Tier: "farm"}); err != nil {
		t.Fatal(err)
	}
	w := ts.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`, bearer(tok)...)
	if r := decodeMap(t, w); w.Code != 200 || r["subscriptionCanceled"] != true {
		t.Fatalf("delete: %d %s", w.Code, w.Body.String())
	}
}

// TestDeleteAccountWithBillingOff: an operator-granted plan has nothing to cancel.
func TestDeleteAccountWithBillingOff(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	id := profileOfUser(t, ws.testServer, ada[1][7:]).ID
	if err := ws.store.UpdateUser(context.Background(), id, map[string]any{"subscription_tier": "farm", "subscription_status": "active"}); err != nil {
		t.Fatal(err)
	}
	w := ws.do(t, "DELETE", "/api/user", `{"password":"gears-and-layers"}`, ada...)
	if r := decodeMap(t, w); w.Code != 200 || r["subscriptionCanceled"] != false || strings.Contains(r["message"].(string), "subscription") {
		t.Fatalf("delete: %d %s", w.Code, w.Body.String())
	}
}

func TestDeleteFirebaseAccount(t *testing.T) {
	now := time.Date(2026, 5, 10, 12, 0, 0, 0, time.UTC)
	token := func(uid, email string, signedIn time.Time) *auth.Token {
		t := fakeToken(uid, email, "Ada", now.Add(-time.Minute))
		t.AuthTime = signedIn.Unix()
		return t
	}
	fake := &fakeFirebase{
		tokens: map[string]*auth.Token{
			"tok.en.stale": token("uid-ada", "ada@example.com", now.Add(-recentSignIn-time.Second)),
			"tok.en.fresh": token("uid-ada", "ada@example.com", now.Add(-time.Minute)),
			"tok.en.bob":   token("uid-bob", "bob@example.com", now.Add(-time.Minute)),
		},
		users: map[string]*auth.UserRecord{"uid-ada": {UserInfo: &auth.UserInfo{UID: "uid-ada"}}, "uid-bob": {UserInfo: &auth.UserInfo{UID: "uid-bob"}}},
	}
	cfg := testConfig(t, map[string]string{"LAYERFIX_AUTH_MODE": "firebase", "LAYERFIX_FIREBASE_PROJECT_ID": "demo-x"})
	st := storetest.Open(t)
	fa := newFirebaseAuth(fake, st, true, slog.New(slog.NewTextHandler(io.Discard, nil)))
	fa.now = func() time.Time { return now }
	s, err := New(cfg, Deps{Store: st, Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Authenticator: fa, Now: fa.now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}
	profileOfUser(t, ts, "tok.en.bob")

	w := ts.do(t, "DELETE", "/api/user", "", bearer("tok.en.stale")...)
	if w.Code != 403 || decodeError(t, w).Code != CodeRecentSignIn {
		t.Fatalf("an old sign-in: %d %s", w.Code, w.Body.String())
	}
	for _, path := range []string{"/api/user/password", "/api/user/email"} {
		if w := ts.do(t, "POST", path, `{}`, bearer("tok.en.fresh")...); w.Code != 404 {
			t.Fatalf("%s in Firebase mode: %d (Firebase keeps passwords and emails)", path, w.Code)
		}
	}
	w = ts.do(t, "DELETE", "/api/user", "", bearer("tok.en.fresh")...)
	if r := decodeMap(t, w); w.Code != 200 || r["identityDeleted"] != true {
		t.Fatalf("delete: %d %s", w.Code, w.Body.String())
	}
	if _, ok := fake.users["uid-ada"]; ok {
		t.Fatal("the Firebase account was not deleted")
	}
	// The token is still signed and unexpired: it must not bring an empty account back.
	fake.set(func(f *fakeFirebase) { f.users["uid-ada"] = &auth.UserRecord{UserInfo: &auth.UserInfo{UID: "uid-ada"}} })
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer("tok.en.fresh")...); w.Code != 401 {
		t.Fatalf("the deleted account's token: %d %s", w.Code, w.Body.String())
	}
	users, _ := st.ListUsers(context.Background())
	if len(users) != 1 || users[0].Email != "bob@example.com" {
		t.Fatalf("rows left: %+v", users)
	}

	// Without Google credentials the browser deletes the Firebase account itself.
	noCreds := newFirebaseAuth(fake, st, false, slog.New(slog.NewTextHandler(io.Discard, nil)))
	noCreds.now = fa.now
	if deleted, err := noCreds.DeleteIdentity(context.Background(), "uid-bob"); deleted || err != nil {
		t.Fatalf("without credentials: %v %v", deleted, err)
	}
}

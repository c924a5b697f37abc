package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Photos never attached to an issue are swept after a day; attached ones
// and fresh uploads stay.
func TestSweepOrphanPhotos(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	p := ws.addPrinter(t, ada, "Bench", "Prusa MK4")
	attached := ws.uploadPNG(t, ada, 32, 32)
	orphan := ws.uploadPNG(t, ada, 32, 32)
	ws.submit(t, ada, issueBody(t, p.ID, func(m map[string]any) { m["photoUrls"] = []string{attached} }))
	if n := len(storedPhotos(t, ws.photoDir)); n != 2 {
		t.Fatalf("%d files before the sweep", n)
	}
	ctx := context.Background()
	if n, err := ws.photos.sweepOrphanPhotos(ctx); err != nil || n != 0 {
		t.Fatalf("fresh uploads swept: %d %v", n, err)
	}
	// Uploads are stamped by the database clock (the real one).
	ws.clock.set(time.Now().Add(orphanAge + time.Minute))
	// The clock jump outlived the first session: sign in again.
	w := ws.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`)
	if w.Code != 200 {
		t.Fatalf("login: %d", w.Code)
	}
	var sess sessionResponse
	json.Unmarshal(w.Body.Bytes(), &sess)
	ada = bearer(sess.Token)
	if n, err := ws.photos.sweepOrphanPhotos(ctx); err != nil || n != 1 {
		t.Fatalf("sweep after a day: %d %v, want 1", n, err)
	}
	files := storedPhotos(t, ws.photoDir)
	orphanID := strings.TrimSuffix(orphan[strings.LastIndex(orphan, "/")+1:strings.Index(orphan, ".jpg")], ".jpg")
	if len(files) != 1 || strings.Contains(files[0], orphanID) {
		t.Fatalf("files after the sweep: %v (orphan %s)", files, orphanID)
	}
	if w := ws.do(t, "GET", orphan, "", ada...); w.Code != 404 {
		t.Fatalf("swept photo still served: %d", w.Code)
	}
	if w := ws.do(t, "GET", attached, "", ada...); w.Code != 200 {
		t.Fatalf("attached photo: %d", w.Code)
	}
}

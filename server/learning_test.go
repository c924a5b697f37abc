package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/ai"
)

// rankOf is the 1-based position of title among the steps, 0 when absent.
func rankOf(steps []ai.Step, title string) int {
	for i, s := range steps {
		if s.Title == title {
			return i + 1
		}
	}
	return 0
}

// TestServerLearnsConfirmedFixes: a fix a maker confirmed on one printer is
// raised for a similar description on another printer of the same server,
// and only while learning is on.
func TestServerLearnsConfirmedFixes(t *testing.T) {
	const (
		kbFix  = "Replace the hotend fan"                                      // in the knowledge base, rarely first
		ownFix = "Reprinted the extruder arm in PETG, the PLA one had cracked" // nobody's knowledge base
		first  = "The extruder skips and clicks halfway through long prints and the walls get thin and gappy"
		second = "Walls come out thin and gappy halfway through a long print, and I hear the extruder click and skip"
	)
	for _, learn := range []bool{true, false} {
		t.Run(fmt.Sprintf("learn=%v", learn), func(t *testing.T) {
			engine, err := ai.NewEngine()
			if err != nil {
				t.Fatal(err)
			}
			ws := newWorkspace(t, engine, func(c *Config, d *Deps) {
				c.Learn = learn
				d.Learner = engine
			})
			ctx := context.Background()
			ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")
			mk4 := ws.addPrinter(t, ada, "Mk4", "Prusa MK4")
			ender := ws.addPrinter(t, bob, "Ender", "Creality Ender 3")

			before := ws.submit(t, bob, issueBody(t, ender.ID, func(m map[string]any) {
				m["category"], m["description"] = "extrusion-issues", second
			}))
			baseKB, baseOwn := rankOf(before.AIChecklist.Steps, kbFix), rankOf(before.AIChecklist.Steps, ownFix)
			if baseKB == 1 || baseOwn != 0 {
				t.Fatalf("before learning: %q at %d, %q at %d: the test proves nothing", kbFix, baseKB, ownFix, baseOwn)
			}

			done := ws.submit(t, ada, issueBody(t, mk4.ID, func(m map[string]any) {
				m["category"], m["description"] = "extrusion-issues", first
			}))
			w := ws.do(t, "PATCH", fmt.Sprintf("/api/issues/%d/resolve", done.ID),
				mustJSON(t, map[string]any{"workingRecommendations": []string{kbFix, ownFix}}), ada...)
			if w.Code != 200 {
				t.Fatalf("resolve: %d %s", w.Code, w.Body.String())
			}
			if ws.learn != nil {
				if err := ws.learn.refresh(ctx); err != nil {
					t.Fatal(err)
				}
			}

			after := ws.submit(t, bob, issueBody(t, ender.ID, func(m map[string]any) {
				m["category"], m["description"] = "extrusion-issues", second
			}))
			gotKB, gotOwn := rankOf(after.AIChecklist.Steps, kbFix), rankOf(after.AIChecklist.Steps, ownFix)
			if !learn {
				if gotKB != baseKB || gotOwn != 0 {
					t.Fatalf("learning off, yet %q moved %d -> %d and %q is at %d", kbFix, baseKB, gotKB, ownFix, gotOwn)
				}
				return
			}
			if gotKB == 0 || (baseKB != 0 && gotKB >= baseKB) {
				t.Errorf("%q at %d after learning, %d before", kbFix, gotKB, baseKB)
			}
			if gotOwn == 0 || gotOwn > 3 {
				t.Errorf("the maker's own fix is at %d: %+v", gotOwn, after.AIChecklist.Steps)
			}
			// Ada's printer name and email never reach Bob.
			for _, s := range after.AIChecklist.Steps {
				for _, secret := range []string{"Mk4", "ada@"} {
					if strings.Contains(strings.ToLower(s.Title+s.Description), strings.ToLower(secret)) {
						t.Errorf("step %+v names the other maker", s)
					}
				}
			}
		})
	}
}

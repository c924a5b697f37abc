package ai

import "testing"

// The diagnosed category follows the description, not the tile the maker
// left on "Other".
func TestDiagnose(t *testing.T) {
	e := sharedEngine(t)
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{Category: "other", Description: "The nozzle is clogged: nothing comes out and the extruder clicks."}, "extrusion-issues"},
		{Request{Category: "other", Description: "Thin strings and hairs between the towers after every travel move."}, "stringing"},
		{Request{Category: "first-layer", Description: "The corners of my ABS print warp up and lift off the bed."}, "bed-adhesion"},
		{Request{Category: "other", Description: "Something is wrong with my printer, please help me."}, ""},
	} {
		if got := e.Diagnose(tc.req); got != tc.want {
			t.Errorf("%q: diagnosed %q, want %q", tc.req.Description, got, tc.want)
		}
	}
}

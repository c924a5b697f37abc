package ai

import (
	"path/filepath"
	"strings"
	"testing"
)

// attachSet is a file of cases where an attachment (a log, a config, a
// settings dump) decides the fix, with floors for hit@3 with and without
// the attachments. testdata/attach/locked.json is its locked test set (see
// testdata/attach/README.md): never read while the engine is written, scored
// once per change, only as aggregate numbers.
type attachSet struct {
	file   string
	locked bool
	// floors with the attachments, and without them (the same cases)
	hit1, hit3         float64
	bareHit1, bareHit3 float64
}

var attachSets = []attachSet{
	// floors: the locked scores of change 20 (README.md), rounded down
	{file: "testdata/attach/locked.json", locked: true, hit1: 0.616, hit3: 0.699, bareHit1: 0.066, bareHit3: 0.166},
	{file: "testdata/attach/train.json"},
	// written by the knowledge author while writing rules: a tuning set
	{file: "testdata/attach/dev.json"},
	// a second collection, read while writing rules (README.md)
	{file: "testdata/attach/train2.json"},
}

// TestEvalAttach scores the attachment sets with and without their
// attachments, the locked set first. Only the training set's misses are
// logged (`go test ./ai -run EvalAttach -v`).
func TestEvalAttach(t *testing.T) {
	e := sharedEngine(t)
	for _, set := range attachSets {
		t.Run(strings.TrimSuffix(filepath.Base(set.file), ".json"), func(t *testing.T) {
			cases := loadEvalCases(t, set.file)
			with := scoreCases(t, e, cases, false, !set.locked && testing.Verbose())
			bare := scoreCases(t, e, withoutAttachments(cases), false, false)
			t.Logf("%s: %d cases, with attachments hit@1 = %.3f, hit@3 = %.3f, hit@any = %.3f; without them %.3f / %.3f / %.3f",
				set.file, len(cases), with.hit1, with.hit3, with.any, bare.hit1, bare.hit3, bare.any)
			if with.hit1 < set.hit1 || with.hit3 < set.hit3 {
				t.Errorf("with attachments hit@1 / hit@3 = %.3f / %.3f, below the floors %.2f / %.2f", with.hit1, with.hit3, set.hit1, set.hit3)
			}
			if bare.hit1 < set.bareHit1 || bare.hit3 < set.bareHit3 {
				t.Errorf("without attachments hit@1 / hit@3 = %.3f / %.3f, below the floors %.2f / %.2f", bare.hit1, bare.hit3, set.bareHit1, set.bareHit3)
			}
		})
	}
}

// withoutAttachments is cases as a maker who attached nothing describes them.
func withoutAttachments(cases []Case) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		c.Attachments = nil
		out[i] = c
	}
	return out
}

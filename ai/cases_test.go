package ai

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// appendCaseFeatures keeps each word and word pair once, in the order they
// first occur, both below and past the number it tells apart by a scan.
func TestCaseFeaturesAreDistinctInOrder(t *testing.T) {
	e := sharedEngine(t)
	rng := rand.New(rand.NewSource(5))
	vocab := strings.Fields("bed nozzle layer string warp clog fan petg pla hot cold the a of to 3 200 z x y")
	for round := 0; round < 300; round++ {
		var words []string
		for n := rng.Intn(120); len(words) < n; {
			words = append(words, vocab[rng.Intn(len(vocab))])
		}
		toks := e.spell.analyze(strings.Join(words, " "))
		var want []caseFeature
		seen := map[caseFeature]bool{}
		for i, t := range toks {
			if len(t.text) < 2 || isDigits(t.text) {
				continue
			}
			fs := []caseFeature{{a: t.text}}
			if i+1 < len(toks) && !toks[i+1].clause && len(toks[i+1].text) >= 2 && !isDigits(toks[i+1].text) {
				fs = append(fs, caseFeature{a: t.text, b: toks[i+1].text})
			}
			for _, f := range fs {
				if !seen[f] {
					seen[f] = true
					want = append(want, f)
				}
			}
		}
		prefix := []caseFeature{{a: "kept"}}
		got := appendCaseFeatures(prefix, toks, map[caseFeature]struct{}{})
		if !slices.Equal(got[1:], want) || got[0] != prefix[0] {
			t.Fatalf("round %d (%d words): features %v, want %v", round, len(words), got, want)
		}
	}
}

// nearest finds the cases a brute-force cosine over every case's features
// finds, with the same similarities, for the embedded cases and for a
// server's own cases (weighted by the embedded cases' idf, with their own
// weight for a feature no embedded case has).
func TestNearestIsTheBruteForceCosine(t *testing.T) {
	e := realEngine(t)
	embedded, local := serverCases(t, e, 40, func(i int, c *Case) {
		c.Maker = fmt.Sprintf("maker-%d", i%3)
		c.Description += " zqxfeature" // a word no embedded case has
	})
	reqs := benchRequests()
	for _, c := range embedded[len(embedded)-60:] {
		reqs = append(reqs, c.Request())
	}
	reqs = append(reqs, Request{Category: "stringing", Description: "zqxfeature strings zqxfeature and blobs"})
	for _, ix := range []*caseIndex{e.cases, e.local.Load()} {
		cases := embedded
		if ix != e.cases {
			cases = local
		}
		caseFeats := make([]map[string]bool, len(cases))
		for i, c := range cases {
			caseFeats[i] = map[string]bool{}
			for _, f := range caseFeatures(e.spell.analyze(c.Description)) {
				caseFeats[i][f] = true
			}
		}
		for _, req := range reqs {
			toks := e.spell.analyze(req.Description)
			feats := appendCaseFeatures(nil, toks, map[caseFeature]struct{}{})
			p := e.facts(&req).printer
			got := ix.nearest(nil, feats, &req, p, len(cases))
			var want []neighbor
			qnorm := 0.0
			for _, f := range feats {
				w := ix.weight(f.String())
				qnorm += w * w
			}
			qnorm = math.Sqrt(qnorm)
			for i := range cases {
				dot := 0.0
				for _, f := range feats {
					if w := ix.weight(f.String()); caseFeats[i][f.String()] {
						dot += w * w
					}
				}
				c := &ix.cases[i]
				if dot == 0 || ix.norms[i] == 0 {
					continue
				}
				sim := dot / (qnorm * ix.norms[i])
				if req.Category != "" && req.Category != "other" && req.Category == c.category {
					sim *= caseCategoryFit
				}
				if p != nil && c.printer == p {
					sim *= casePrinterFit
				}
				if sim >= caseMinSim {
					want = append(want, neighbor{c: c, sim: sim})
				}
			}
			slices.SortFunc(want, func(a, b neighbor) int {
				if a.sim != b.sim {
					return cmp.Compare(b.sim, a.sim)
				}
				return strings.Compare(a.c.id, b.c.id)
			})
			makers := map[string]bool{}
			want = slices.DeleteFunc(want, func(n neighbor) bool {
				dup := n.c.maker != "" && makers[n.c.maker]
				makers[n.c.maker] = true
				return dup
			})
			if len(got) != len(want) {
				t.Fatalf("%q: %d neighbours, want %d", req.Description, len(got), len(want))
			}
			for i := range want {
				if got[i].c != want[i].c || got[i].sim != want[i].sim {
					t.Fatalf("%q: neighbour %d is %s at %v, want %s at %v", req.Description, i, got[i].c.id, got[i].sim, want[i].c.id, want[i].sim)
				}
			}
		}
	}
}

// An analysis leaves nothing behind for the next one: the votes of the
// nearest cases (embedded and this server's) are reused memory, and the
// same requests give the same answers in any order.
func TestVotesLeaveNothingBehind(t *testing.T) {
	e := realEngine(t)
	embedded, _ := serverCases(t, e, 30, func(i int, c *Case) {
		res, err := e.Analyze(context.Background(), c.Request())
		if err != nil {
			t.Fatal(err)
		}
		c.Steps = e.StepRefs(c.Request(), []string{res.Steps[len(res.Steps)-1].Title})
	})
	reqs := benchRequests()
	for _, c := range embedded[:30] {
		reqs = append(reqs, c.Request())
	}
	answers := func(order []int) map[int]string {
		out := map[int]string{}
		for _, i := range order {
			res, err := e.Analyze(context.Background(), reqs[i])
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(res)
			out[i] = string(data)
		}
		return out
	}
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	first := answers(order)
	rand.New(rand.NewSource(6)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	second := answers(order)
	learned := 0
	for i := range reqs {
		if first[i] != second[i] {
			t.Fatalf("request %d (%q) answered differently after other requests:\n%s\n%s", i, reqs[i].Description, first[i], second[i])
		}
		if strings.Contains(first[i], "confirmed") {
			learned++
		}
	}
	if learned == 0 {
		t.Fatal("no answer has a step this server's makers confirmed: the server's votes were not exercised")
	}
}

// serverCases makes the first n embedded cases this server's own cases of
// e, each changed by change, and returns the embedded cases and those.
func serverCases(t *testing.T, e *Engine, n int, change func(i int, c *Case)) (embedded, local []Case) {
	t.Helper()
	embedded, err := EmbeddedCases()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range embedded[:n] {
		c.ID, c.Maker = fmt.Sprintf("local-%d", i), fmt.Sprintf("maker-%d", i)
		change(i, &c)
		local = append(local, c)
	}
	if err := e.SetLocalCases(local); err != nil {
		t.Fatal(err)
	}
	return embedded, local
}

package ai

import (
	"fmt"
	"strings"
)

// Learned steps: what this server's makers confirmed is kept as references
// to knowledge-base steps, never as wording, and written out again for each
// maker from the knowledge base and that maker's own settings.

// kbLead is how many of the knowledge base's own first steps keep their
// places whatever this server's makers confirmed: the shortest answer the
// engine gives.
const kbLead = minSteps

// ruleRefPrefix starts the reference of a step built from the maker's own
// settings; the condition that calls for it follows.
const ruleRefPrefix = "rule:"

// StepRefs returns the knowledge-base steps that titles are among the
// engine's steps for req: a failure mode's fix, or a step built from the
// maker's own settings. Titles that are neither (a maker's own words, a step
// Gemini worded itself, the maker's history) have no reference: they are
// never learned.
func (e *Engine) StepRefs(req Request, titles []string) []string {
	req.History = nil
	a := e.prepare(&req)
	defer a.release()
	byTitle := map[string]string{}
	add := func(title, ref string) {
		if _, ok := byTitle[title]; !ok {
			byTitle[title] = ref
		}
	}
	for _, r := range a.facts.ruleSteps() {
		add(truncateRunes(r.step.Title, maxTitleLen), ruleRefPrefix+r.cond)
	}
	for _, s := range a.ranked { // a title several modes share is the likeliest mode's
		for _, f := range e.kb.modes[s.mode].Fixes {
			add(f.Title, f.ref)
			add(a.facts.ownNumbers(&f).title, f.ref) // as this maker's numbers wrote it
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range titles {
		if ref, ok := byTitle[t]; ok && !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	return out
}

// knownSteps keeps the references this knowledge base still has and gives
// each one's share of the case's vote.
func (e *Engine) knownSteps(refs []string) ([]string, float64) {
	var out []string
	seen := map[string]bool{}
	for _, ref := range refs {
		_, fix := e.fixByRef[ref]
		cond, rule := strings.CutPrefix(ref, ruleRefPrefix)
		if seen[ref] || !(fix || rule && conditions[cond] != nil) {
			continue
		}
		seen[ref] = true
		out = append(out, ref)
	}
	return out, voteShare(len(out))
}

// withLearned orders the candidates again with the steps this server's
// makers confirmed for similar problems, or returns nil when they change
// nothing. The maker's history and the knowledge base's own first kbLead
// steps keep their places; below them a confirmed step rises by the votes of
// the makers who confirmed it, and a confirmed fix of a mode the ranking did
// not reach joins when its conditions hold. A confirmed step built from
// settings counts only when this maker's settings call for it, so it always
// quotes this maker's numbers.
func (a *analysis) withLearned(cands, chosen []candidateStep, added fixSet, top float64) []candidateStep {
	if a.votes == nil || len(a.votes.learned) == 0 {
		return nil
	}
	lead := 0
	for n := 0; lead < len(chosen) && n < kbLead; lead++ {
		if !chosen[lead].history {
			n++
		}
	}
	out := append([]candidateStep(nil), chosen[:lead]...)
	inLead := map[string]bool{}
	changed := false
	for i := range out {
		inLead[out[i].step.Title] = true
		if !out[i].history && out[i].ref != "" {
			out[i].makers = a.votes.makers[out[i].ref]
			changed = changed || out[i].makers > 0
		}
	}
	var rest []candidateStep
	for _, c := range cands {
		if inLead[c.step.Title] {
			continue
		}
		if w := a.votes.learned[c.ref]; w > 0 && !c.history {
			c.score += top * w
			c.makers = a.votes.makers[c.ref]
			changed = true
		}
		rest = append(rest, c)
	}
	for ref, w := range a.votes.learned {
		if k, ok := a.e.fixByRef[ref]; ok {
			if c, ok := a.otherFix(k, added, top*w); ok && !inLead[c.step.Title] {
				c.makers = a.votes.makers[ref]
				rest = append(rest, c)
				changed = true
			}
		}
	}
	if !changed {
		return nil
	}
	sortByScore(rest)
	return append(out, rest...)
}

// confirmedNote says how many makers of this server confirmed a step.
func confirmedNote(makers int) string {
	if makers == 1 {
		return "A maker on this server confirmed that this fixed a similar problem."
	}
	return fmt.Sprintf("%d makers on this server confirmed that this fixed a similar problem.", makers)
}

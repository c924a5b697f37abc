package ai

import "math"

// Narrow-it-down questions: when the likeliest failure modes score close
// together, up to maxQuestions yes/no questions from the knowledge base
// (kb/questions.json) that separate them best are offered; an answer
// multiplies the scores of the modes the question names (see rankModes).
const (
	maxQuestions  = 2
	closeModes    = 4    // modes considered for a question
	closeFraction = 0.45 // a mode within this fraction of the top score is close
	minSplit      = 0.25 // log-factor spread a question needs to be worth asking
)

// questions are the questions already answered (so a result shows what it
// was narrowed by), then the unanswered ones that best separate the close
// top modes.
func (a *analysis) questions() []Question {
	var out []Question
	for _, q := range a.e.kb.questions {
		if _, ok := a.req.Answers[q.ID]; ok {
			out = append(out, Question{ID: q.ID, Text: q.Text})
		}
	}
	return append(out, a.newQuestions()...)
}

// newQuestions picks the unanswered questions that best separate the close
// top modes.
func (a *analysis) newQuestions() []Question {
	if len(a.ranked) < 2 || len(a.e.kb.questions) == 0 {
		return nil
	}
	top := a.ranked[0].total
	if top <= 0 {
		return nil
	}
	var close []int
	for _, s := range a.ranked[:min(closeModes, len(a.ranked))] {
		if s.total >= closeFraction*top {
			close = append(close, s.mode)
		}
	}
	if len(close) < 2 {
		return nil
	}
	type pick struct {
		q     *kbQuestion
		split float64
	}
	var picks []pick
	for _, q := range a.e.kb.questions {
		if _, answered := a.req.Answers[q.ID]; answered {
			continue
		}
		split := 0.0
		for _, ans := range []bool{false, true} {
			for i := range close {
				for j := i + 1; j < len(close); j++ {
					split += math.Abs(math.Log(q.factor(ans, close[i])) - math.Log(q.factor(ans, close[j])))
				}
			}
		}
		if split >= minSplit {
			picks = append(picks, pick{q, split})
		}
	}
	// Best split first; the knowledge base's order breaks ties.
	for i := 1; i < len(picks); i++ {
		for j := i; j > 0 && picks[j].split > picks[j-1].split; j-- {
			picks[j], picks[j-1] = picks[j-1], picks[j]
		}
	}
	var out []Question
	for _, p := range picks[:min(maxQuestions, len(picks))] {
		out = append(out, Question{ID: p.q.ID, Text: p.q.Text})
	}
	return out
}

// QuestionIDs reports whether id is a question of the knowledge base.
func (e *Engine) QuestionIDs() map[string]bool {
	out := make(map[string]bool, len(e.kb.questions))
	for _, q := range e.kb.questions {
		out[q.ID] = true
	}
	return out
}

// answered keeps the answers to the knowledge base's questions, so a saved
// result remembers what was answered.
func answered(answers map[string]bool, qs []*kbQuestion) map[string]bool {
	var out map[string]bool
	for _, q := range qs {
		if a, ok := answers[q.ID]; ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[q.ID] = a
		}
	}
	return out
}

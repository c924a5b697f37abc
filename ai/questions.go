package ai

import (
	"encoding/json"
	"math"
)

// Narrow-it-down questions: when the likeliest failure modes score close
// together, questions from the knowledge base (kb/questions.json) that
// separate them best are offered, at most MaxQuestions for one analysis,
// answered ones included; an answer multiplies the scores of the modes the
// question names (see rankModes).
const (
	MaxQuestions  = 2
	closeModes    = 4    // modes considered for a question
	closeFraction = 0.45 // a mode within this fraction of the top score is close
	minSplit      = 0.25 // log-factor spread a question needs to be worth asking
)

// maxQuestions is the package's short name for MaxQuestions.
const maxQuestions = MaxQuestions

// Answer is a maker's answer to a narrow-it-down question: yes, no, or not
// sure (a maker without an enclosure cannot say whether one helps).
type Answer string

// The answers a question takes.
const (
	AnswerYes    Answer = "yes"
	AnswerNo     Answer = "no"
	AnswerUnsure Answer = "unsure"
)

// Valid reports whether a is one of the three answers.
func (a Answer) Valid() bool {
	return a == AnswerYes || a == AnswerNo || a == AnswerUnsure
}

// UnmarshalJSON reads an answer; results saved before "not sure" existed
// hold true or false. Any other JSON value reads as an answer that is not
// Valid, so the API can say which question's answer is wrong.
func (a *Answer) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case bool:
		*a = AnswerNo
		if v {
			*a = AnswerYes
		}
	case string:
		*a = Answer(v)
	default:
		*a = ""
	}
	return nil
}

// questions are the questions already answered (so a result shows what it
// was narrowed by), then the unanswered ones that best separate the close
// top modes, at most MaxQuestions in all.
func (a *analysis) questions() []Question {
	var out []Question
	for _, q := range a.e.kb.questions {
		if _, ok := a.req.Answers[q.ID]; ok {
			out = append(out, Question{ID: q.ID, Text: q.Text})
		}
	}
	if len(out) >= maxQuestions {
		return out
	}
	return append(out, a.newQuestions(maxQuestions-len(out))...)
}

// newQuestions picks up to n unanswered questions that best separate the
// close top modes. A question must be about the problem at hand: it names a
// close mode of the likeliest mode's category or of the category the maker
// chose (a hotend question never comes under a warping report).
func (a *analysis) newQuestions(n int) []Question {
	if n <= 0 || len(a.ranked) < 2 || len(a.e.kb.questions) == 0 {
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
	topic := map[string]bool{a.e.kb.modes[a.ranked[0].mode].Category: true}
	if c := a.req.Category; c != "" && c != "other" {
		topic[c] = true
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
		onTopic := false
		for _, mi := range close {
			if topic[a.e.kb.modes[mi].Category] && q.names(mi) {
				onTopic = true
			}
		}
		if !onTopic {
			continue
		}
		split := 0.0
		for _, ans := range []Answer{AnswerNo, AnswerYes} {
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
	for _, p := range picks[:min(n, len(picks))] {
		out = append(out, Question{ID: p.q.ID, Text: p.q.Text})
	}
	return out
}

// names reports whether an answer to q changes mode mi's score.
func (q *kbQuestion) names(mi int) bool {
	return q.factor(AnswerYes, mi) != 1 || q.factor(AnswerNo, mi) != 1
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
func answered(answers map[string]Answer, qs []*kbQuestion) map[string]Answer {
	var out map[string]Answer
	for _, q := range qs {
		if a, ok := answers[q.ID]; ok {
			if out == nil {
				out = map[string]Answer{}
			}
			out[q.ID] = a
		}
	}
	return out
}

package ai

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode/utf8"
)

// fixTitles finds the knowledge-base fixes whose titles match a case's
// patterns. Running every pattern of every case against every fix title
// is most of the cost of building the engine, and nearly all of those runs
// fail, so each pattern first names the words a match cannot do without
// (its requirement) and the regular expression runs only on the
// titles that contain one of them. The answer is exactly the regular
// expression's.
type fixTitles struct {
	refs  [][2]int // mode and fix index of each title
	lower []string // each title in ASCII lower case; "" when not ASCII
	raw   []string
}

func newFixTitles(modes []*kbMode) *fixTitles {
	ft := &fixTitles{}
	for mi, m := range modes {
		if m.FilesOnly {
			continue // the case base never names a fix only a file can call for
		}
		for fi, f := range m.Fixes {
			ft.refs = append(ft.refs, [2]int{mi, fi})
			ft.raw = append(ft.raw, f.Title)
			lower := ""
			if isASCII(f.Title) {
				lower = asciiLower(f.Title)
			}
			ft.lower = append(ft.lower, lower)
		}
	}
	return ft
}

// matching calls fn with the mode and fix index of every title that one
// of patterns (Go RE2, matched case-insensitively) matches, in title order.
func (ft *fixTitles) matching(patterns []string, fn func(mode, fix int)) error {
	type compiled struct {
		re   *regexp.Regexp
		need requirement
	}
	cs := make([]compiled, 0, len(patterns))
	for _, p := range patterns {
		re, err := regexp.Compile("(?i)" + p)
		if err != nil {
			return fmt.Errorf("pattern %q: %w", p, err)
		}
		c := compiled{re: re}
		if parsed, err := syntax.Parse("(?i)"+p, syntax.Perl); err == nil {
			c.need = required(parsed)
		}
		cs = append(cs, c)
	}
	for i, title := range ft.raw {
		for _, c := range cs {
			if ft.lower[i] != "" && !c.need.holds(ft.lower[i]) {
				continue // no match can do without what the pattern requires
			}
			if c.re.MatchString(title) {
				fn(ft.refs[i][0], ft.refs[i][1])
				break
			}
		}
	}
	return nil
}

// A requirement is what every match of a pattern contains: each clause
// lists strings (lower-case ASCII) of which the match has at least one,
// and every clause holds. It is read in ASCII lower case, so it is used
// only on ASCII titles, where case folding is ASCII case folding; a
// literal with any other character requires nothing.
type requirement [][]string

// maxExact bounds the strings a part of a pattern is spelled out as
// ("c(able|heck)" is "cable" or "check"), and maxClauses the clauses of
// one requirement.
const (
	maxExact   = 16
	maxClauses = 8
)

func (r requirement) holds(lower string) bool {
	for _, clause := range r {
		if !containsAny(lower, clause) {
			return false
		}
	}
	return true
}

// required is the requirement of every match of re.
func required(re *syntax.Regexp) requirement {
	if exact := exactStrings(re); exact != nil {
		return requirement{exact}
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// Every part is in the match; runs of spelled-out parts are spelled
		// out together.
		var out requirement
		var run []string
		flush := func() {
			if len(run) > 0 {
				out = append(out, run)
			}
			run = nil
		}
		for _, sub := range re.Sub {
			if exact := exactStrings(sub); exact != nil {
				if run == nil {
					run = exact
				} else if joined := product(run, exact); joined != nil {
					run = joined
				} else {
					flush()
					run = exact
				}
				continue
			}
			flush()
			out = append(out, required(sub)...)
		}
		flush()
		return strongest(out)
	case syntax.OpAlternate:
		// One branch is in the match: (a and b) or (c and d) is
		// (a or c) and (a or d) and (b or c) and (b or d).
		out := requirement{nil}
		for _, sub := range re.Sub {
			r := required(sub)
			if len(r) == 0 {
				return nil
			}
			if len(out)*len(r) > maxClauses {
				r = strongest(r)[:1]
				out = strongest(out)[:1]
			}
			next := make(requirement, 0, len(out)*len(r))
			for _, a := range out {
				for _, b := range r {
					next = append(next, append(append([]string(nil), a...), b...))
				}
			}
			out = next
		}
		return out
	}
	return nil
}

// exactStrings spells out every string re matches (lower-case ASCII, none
// empty), or returns nil when they are too many, unbounded or not ASCII.
func exactStrings(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if s == "" || !isASCII(s) {
			return nil
		}
		return []string{asciiLower(s)}
	case syntax.OpCapture:
		return exactStrings(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			e := exactStrings(sub)
			if e == nil || len(out)+len(e) > maxExact {
				return nil
			}
			out = append(out, e...)
		}
		return out
	case syntax.OpConcat:
		var out []string
		for _, sub := range re.Sub {
			e := exactStrings(sub)
			if e == nil {
				return nil
			}
			if out == nil {
				out = e
			} else if out = product(out, e); out == nil {
				return nil
			}
		}
		return out
	}
	return nil
}

// product is every a followed by every b, or nil past maxExact.
func product(a, b []string) []string {
	if len(a)*len(b) > maxExact {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// strongest orders clauses by how much they say (the longest shortest
// string first) and keeps at most maxClauses.
func strongest(r requirement) requirement {
	sort.SliceStable(r, func(i, j int) bool { return shortest(r[i]) > shortest(r[j]) })
	if len(r) > maxClauses {
		r = r[:maxClauses]
	}
	return r
}

func shortest(list []string) int {
	n := -1
	for _, s := range list {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

package server

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// A shared guide is read by strangers. Two things make the maker's own
// result read well to them:
//   - what the analysis says to its maker about their own report ("Your
//     description mentions…", "You print at 245 °C") is put in the third
//     person ("The maker's description mentions…");
//   - a signed-in owner's name, email and printers are replaced as whole
//     phrases, with the words around them: "your Workshop Beast (a Creality
//     Ender 3 V2)" becomes "the printer", a sentence that started with the
//     printer starts with "The printer", and a manufacturer's name the
//     guide uses in general advice ("Creality-style extruders") stays.

// publicWording puts the analysis's sentences about its maker's own report
// in the third person. Instructions ("check your hotend's manual") address
// the reader and stay.
var publicWording = []struct {
	re *regexp.Regexp
	to string
}{
	{regexp.MustCompile(`\bYour (description|sliced file|bed|infill|photos?)\b`), "The maker's $1"},
	{regexp.MustCompile(`\byour (description and settings|description|sliced file)\b`), "the maker's $1"},
	{regexp.MustCompile(`\bfor your settings\b`), "for the maker's settings"},
	{regexp.MustCompile(`\bYou print\b`), "The maker prints"},
	{regexp.MustCompile(`\bYou also ticked:`), "The maker also ticked:"},
	// The maker's earlier description, quoted on a step from their own
	// history, stays with the maker.
	{regexp.MustCompile(`( similar problem on this printer on [^(."]+?) \("(?:[^"\\]|\\.)*"\)\.`), "$1."},
	{regexp.MustCompile(`\bsimilar problem on this printer\b`), "similar problem on the same printer"},
}

func publicWords(s string) string {
	for _, w := range publicWording {
		s = w.re.ReplaceAllString(s, w.to)
	}
	return s
}

// publicGuide rewrites a result for strangers: the third person, and for
// a signed-in owner (u not nil) none of their names, email or printers.
func publicGuide(res *ai.Result, u *store.User, printers []store.Printer) {
	texts := resultTexts(res)
	rewrite := publicWords
	if u != nil {
		r := newRedactor(u, printers, texts)
		rewrite = func(s string) string { return publicWords(r.redact(s)) }
	}
	for _, p := range texts {
		*p = rewrite(*p)
	}
}

// resultTexts are the texts of a result a guide shows.
func resultTexts(res *ai.Result) []*string {
	out := []*string{&res.Summary}
	for i := range res.Steps {
		out = append(out, &res.Steps[i].Title, &res.Steps[i].Description)
	}
	for i := range res.AdditionalTips {
		out = append(out, &res.AdditionalTips[i])
	}
	return out
}

type phraseKind int

const (
	personPhrase  phraseKind = iota // the owner: "the maker"
	printerPhrase                   // one of the owner's printers: "the printer"
	makerBrand                      // a manufacturer's name: replaced only next to a printer phrase
)

type ownerPhrase struct {
	re   *regexp.Regexp
	kind phraseKind
}

// redactor finds the owner's phrases in a guide's texts.
type redactor struct {
	phrases []ownerPhrase
}

// newRedactor collects what names the owner: the email and its local part,
// the display name and each of its words, and for each printer its name,
// its brand, both together and the knowledge base's name for it. A single
// word the guide itself uses as an ordinary lower-case word (a maker called
// "Bed Boss" and the guide's "bed") is not a name there and stays.
func newRedactor(u *store.User, printers []store.Printer, texts []*string) *redactor {
	type phrase struct {
		text string
		kind phraseKind
	}
	var all []phrase
	add := func(s string, kind phraseKind) { all = append(all, phrase{s, kind}) }
	add(u.Email, personPhrase)
	if local, _, ok := strings.Cut(u.Email, "@"); ok {
		add(local, personPhrase)
	}
	add(u.DisplayName, personPhrase)
	for _, w := range strings.Fields(u.DisplayName) {
		add(w, personPhrase)
	}
	for _, p := range printers {
		names, brandIsMaker := ai.PrinterMention(p.Brand, p.Name)
		add(p.Name, printerPhrase)
		add(p.Brand+" "+p.Name, printerPhrase)
		for _, n := range names {
			add(n, printerPhrase)
		}
		if brandIsMaker {
			add(p.Brand, makerBrand)
		} else {
			add(p.Brand, printerPhrase)
		}
	}

	// Phrases of several words (and emails) always go; a single word only
	// where the guide does not use it as an ordinary word, which is judged
	// on the texts without the longer phrases ("ada" in "ada@example.com"
	// is no ordinary word).
	r := &redactor{}
	seen := map[string]bool{}
	var single []phrase
	for _, p := range all {
		words := strings.FieldsFunc(p.text, notWordRune)
		n := 0
		for _, w := range words {
			n += utf8.RuneCountInString(w)
		}
		if n < 3 {
			continue
		}
		if len(words) == 1 && !strings.Contains(p.text, "@") && p.kind != makerBrand {
			single = append(single, p)
			continue
		}
		r.addPhrase(p.text, words, p.kind, seen)
	}
	ordinary := map[string]bool{}
	for _, t := range texts {
		rest := *t
		for _, p := range r.phrases {
			rest = p.re.ReplaceAllString(rest, " ")
		}
		for _, w := range strings.FieldsFunc(rest, notWordRune) {
			if w == strings.ToLower(w) {
				ordinary[w] = true
			}
		}
	}
	for _, p := range single {
		w := strings.FieldsFunc(p.text, notWordRune)
		if !ordinary[strings.ToLower(w[0])] {
			r.addPhrase(p.text, w, p.kind, seen)
		}
	}
	return r
}

// addPhrase adds a phrase matched in any letter case; its words may be
// joined by spaces, hyphens, dots or nothing ("Ender-3 V2", "Ender 3 V2"
// and "Ender3V2" are one phrase). An email is matched as written.
func (r *redactor) addPhrase(text string, words []string, kind phraseKind, seen map[string]bool) {
	var pattern string
	if strings.Contains(text, "@") {
		pattern = regexp.QuoteMeta(strings.TrimSpace(text))
	} else {
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = regexp.QuoteMeta(w)
		}
		pattern = strings.Join(quoted, `[\s\-_.]*`)
	}
	key := strings.ToLower(pattern) + "\x00" + strconv.Itoa(int(kind))
	if seen[key] {
		return
	}
	seen[key] = true
	r.phrases = append(r.phrases, ownerPhrase{re: regexp.MustCompile(`(?i)` + pattern), kind: kind})
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

type span struct {
	start, end int
	kind       phraseKind
}

// spans finds the owner's phrases in s as whole words, the longest first
// where they overlap, with neighbours of one printer joined: "Creality"
// and "Ender 3 V2" in "Creality Ender 3 V2" are one printer.
func (r *redactor) spans(s string) []span {
	var found []span
	for _, p := range r.phrases {
		for _, m := range p.re.FindAllStringIndex(s, -1) {
			if wordEdge(s, m[0], m[1]) {
				found = append(found, span{m[0], m[1], p.kind})
			}
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].start != found[j].start {
			return found[i].start < found[j].start
		}
		return found[i].end > found[j].end
	})
	var out []span
	for _, f := range found {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if f.start < last.end { // overlaps a longer one
				continue
			}
			gap := s[last.end:f.start]
			if (last.kind != personPhrase && f.kind != personPhrase) && strings.Trim(gap, " -") == "" {
				last.end = f.end
				if f.kind == printerPhrase {
					last.kind = printerPhrase
				}
				continue
			}
		}
		out = append(out, f)
	}
	kept := out[:0]
	for _, o := range out {
		if o.kind != makerBrand {
			kept = append(kept, o)
		}
	}
	return kept
}

// wordEdge reports whether s[start:end] is not part of a longer word.
func wordEdge(s string, start, end int) bool {
	if start > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:start]); !notWordRune(r) {
			return false
		}
	}
	if end < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[end:]); !notWordRune(r) {
			return false
		}
	}
	return true
}

var (
	determinerBefore = regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(your|my|our|their|his|her|the|a|an|this|that)\s+$`)
	possessiveAfter  = regexp.MustCompile(`^['’]s\b`)
	emailDomainAfter = regexp.MustCompile(`^@[\p{L}\p{N}.-]*[\p{L}\p{N}]`)
	// "a closed P1S": the phrase follows an article and a word of its own.
	describedBefore  = regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(your|my|our|their|his|her|the|a|an|this|that)(\s+\p{Ll}[\p{L}\-]*\s+)$`)
	greetingBefore   = regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(hi|hello|hey|dear|thanks|thank you)\s+$`)
	sentenceEnd      = regexp.MustCompile(`(^|[.!?]|\n)\s*$`)
	possessiveEnd    = regexp.MustCompile(`['’]s\s+$`)
	spaceBeforePunct = regexp.MustCompile(` +([,.;:!?)])`)
	manySpaces       = regexp.MustCompile(`[ \t]{2,}`)
)

// redact replaces the owner's phrases in s so that the sentence still reads.
func (r *redactor) redact(s string) string {
	spans := r.spans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	capNext := false // a name that opened a sentence went: its next word opens it
	write := func(t string) {
		if capNext {
			if i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsSpace(r) }); i >= 0 {
				c, size := utf8.DecodeRuneInString(t[i:])
				t = t[:i] + string(unicode.ToUpper(c)) + t[i+size:]
				capNext = false
			}
		}
		b.WriteString(t)
	}
	pos := 0
	for _, sp := range spans {
		start, end := sp.start, sp.end
		// The words that go with the phrase: "your ", "'s".
		if m := determinerBefore.FindStringSubmatchIndex(s[pos:start]); m != nil {
			start = pos + m[2]
		}
		if m := emailDomainAfter.FindStringIndex(s[end:]); m != nil && sp.kind == personPhrase {
			end += m[1] // a name that is the email's local part takes its domain along
		}
		possessive := false
		if m := possessiveAfter.FindStringIndex(s[end:]); m != nil {
			end += m[1]
			possessive = true
		}
		before := b.String() + s[pos:start]
		after := s[end:]
		// "(a Creality Ender 3 V2)" after a phrase says it again: drop it.
		if strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")") {
			write(strings.TrimRight(strings.TrimSuffix(s[pos:start], "("), " "))
			pos = end + 1
			continue
		}
		atStart := sentenceEnd.MatchString(before)
		// "Ada, …" and "Hi Ada, …" speak to the owner: the name goes.
		if sp.kind == personPhrase && !possessive && strings.HasPrefix(after, ",") {
			if atStart {
				write(s[pos:start])
				pos = end + 1
				capNext = true
				continue
			}
			if greetingBefore.MatchString(before) {
				write(strings.TrimRight(s[pos:start], " "))
				pos = end
				continue
			}
		}
		word := "the maker"
		if sp.kind == printerPhrase {
			word = "the printer"
			if atStart && strings.HasPrefix(after, ":") {
				word = "on this printer" // a label: "Creality Ender 3 V2: check …"
			}
		}
		lead := s[pos:start]
		if possessiveEnd.MatchString(before) { // "Ada's Ender" -> "the maker's printer"
			word = strings.TrimPrefix(word, "the ")
		} else if m := describedBefore.FindStringSubmatchIndex(lead); m != nil && !atStart {
			// "a closed P1S" -> "a closed printer"; "your closed P1S" -> "the closed printer"
			word = strings.TrimPrefix(strings.TrimPrefix(word, "the "), "on this ")
			if det := strings.ToLower(lead[m[2]:m[3]]); det != "a" && det != "an" && det != "the" && det != "this" && det != "that" {
				lead = lead[:m[2]] + "the" + lead[m[3]:]
			}
		}
		if possessive {
			word += "'s"
		}
		if atStart {
			word = strings.ToUpper(word[:1]) + word[1:]
		}
		write(lead)
		capNext = false
		write(word)
		pos = end
	}
	write(s[pos:])
	out := strings.ReplaceAll(b.String(), "()", "")
	out = spaceBeforePunct.ReplaceAllString(out, "$1")
	out = manySpaces.ReplaceAllString(out, " ")
	return strings.TrimSpace(out)
}

package ai

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Text handling for the built-in engine: descriptions and knowledge-base terms
// go through the same pipeline (lower case, negations folded to "not", stop
// words dropped, light stemming), so "won't stick", "wont stick" and
// "doesn't stick" all become "not stick". Misspellings are corrected against
// the knowledge base's own vocabulary with a small edit distance.

// negations are folded into the single token "not".
var negations = map[string]bool{
	"dont": true, "doesnt": true, "didnt": true, "wont": true, "cant": true, "cannot": true,
	"isnt": true, "arent": true, "wasnt": true, "werent": true, "couldnt": true, "wouldnt": true,
	"shouldnt": true, "hasnt": true, "havent": true, "aint": true, "never": true, "not": true,
	"neither": true, "nor": true,
}

// stopWords carry no meaning for diagnosis and are dropped everywhere.
var stopWords = toSet(`a an the is are was were be been being am it its it's i im ive me my mine
we our you your yours he she they them their this that these those there here to of on in at by
and or but so if then than as with for from into onto about just also some any very really quite
pretty super extremely many lot lots bit kind sort do does did done have has had having
can could would should will shall may might must get gets got getting what which who when where
why how all each every both other still even only own such like seems seem seemed
look looks looked ever already while after before during because`)

// fixedWords are the words normWord does not stem: negations become "not"
// and stop words "".
var fixedWords = func() map[string]string {
	m := make(map[string]string, len(stopWords)+len(negations))
	for w := range stopWords {
		m[w] = ""
	}
	for w := range negations {
		m[w] = "not"
	}
	return m
}()

// neverCorrect are common words that must not be "corrected" into a
// knowledge-base term that happens to be one edit away.
var neverCorrect = toSet(`after again alone along always another around asked based before being
below better between bought could doing early either else enough every everything fine first
found going good great happen happened happens having hello helps maybe might money more most
never night other people place please point pretty quite right since small something start
started still sure thank thanks there these thing things think those though three today tried
trying until using want wanted where which while whole works would write years`)

func toSet(words string) map[string]bool {
	set := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		set[strings.ReplaceAll(w, "'", "")] = true
	}
	return set
}

// words splits s into lower-case words of letters and digits. Apostrophes
// are removed so that "won't" becomes "wont"; a decimal point inside a number
// is kept ("0.2").
func words(s string) []string {
	return appendWords(nil, s)
}

// appendWords appends the words of s to out. A word that s already holds
// in lower case, unbroken, is a substring of s; only the others are built.
func appendWords(out []string, s string) []string {
	var buf []byte     // the current word, when it is not s[start:end]
	start, end := 0, 0 // the current word in s, while inSub
	inWord, inSub := false, false
	word := func() string {
		if inSub {
			return s[start:end]
		}
		return string(buf)
	}
	// add appends to the current word the rune s holds at i (w bytes)
	// written as r.
	add := func(i, w int, orig, r rune) {
		if !inWord {
			inWord, inSub, start, end = true, true, i, i
		}
		if inSub && end == i && orig == r {
			end = i + w
			return
		}
		if inSub {
			buf, inSub = append(buf[:0], s[start:end]...), false
		}
		buf = utf8.AppendRune(buf, r)
	}
	for i := 0; i < len(s); {
		if c := s[i]; inSub && end == i && ('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			end, i = i+1, i+1 // the word goes on in s: what add would do
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			add(i, w, r, unicode.ToLower(r))
		case r == '\'' || r == '’' || r == '`':
			// "won't" -> "wont"
		case r == '.' && inWord && i+w < len(s) && unicode.IsDigit(utf8DecodeAt(s, i+w)) && isNumberLike(word()):
			// "0.4", and release numbers whole: "3.7.0", "v2.1"
			add(i, w, r, r)
		default:
			if inWord {
				out = append(out, word())
				inWord = false
			}
		}
		i += w
	}
	if inWord {
		out = append(out, word())
	}
	return out
}

func utf8DecodeAt(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

// isNumberLike is digits and dots, optionally after a "v" ("v2.1").
func isNumberLike(s string) bool {
	s = strings.TrimPrefix(s, "v")
	return isDigits(strings.ReplaceAll(s, ".", "")) && !strings.HasPrefix(s, ".")
}

// versionToken stands for any release number in a description: makers name
// the firmware or slicer release they run ("firmware 3.7.0", "Cura 5.3.1",
// "v2.1"), and a term such as "firmware 1.0.0" in the knowledge base matches
// every release. A number with two dots, or one dot after a "v", is a
// release; "0.28" and "1.75" stay measurements.
const versionToken = "release#"

func isVersion(w string) bool {
	if !isNumberLike(w) {
		return false
	}
	if strings.HasPrefix(w, "v") {
		return strings.Contains(w, ".")
	}
	return strings.Count(w, ".") >= 2
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// stem reduces an English word to a crude stem. It only has to be consistent:
// the same function is applied to the knowledge base and to descriptions.
func stem(w string) string {
	if len(w) <= 3 || hasDigit(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ness") && len(w) > 6:
		w = w[:len(w)-4]
	case strings.HasSuffix(w, "ings") && len(w) > 6 && hasVowel(w[:len(w)-4]):
		w = w[:len(w)-4]
	case strings.HasSuffix(w, "ing") && len(w) > 5 && hasVowel(w[:len(w)-3]):
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "edly") && len(w) > 6:
		w = w[:len(w)-4]
	case strings.HasSuffix(w, "ly") && len(w) > 5:
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ed") && len(w) > 4 && !strings.HasSuffix(w, "eed") && hasVowel(w[:len(w)-2]):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "es") && len(w) > 4 && !strings.HasSuffix(w, "ses"):
		w = w[:len(w)-1]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && len(w) > 3:
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "usion"):
		w = w[:len(w)-4] + "d" // extrusion -> extrud
	case strings.HasSuffix(w, "esion"):
		w = w[:len(w)-3] + "r" // adhesion -> adher
	case strings.HasSuffix(w, "ation") && len(w) > 7:
		w = w[:len(w)-3] // calibration -> calibrat
	case strings.HasSuffix(w, "tion") && len(w) > 6:
		w = w[:len(w)-3] // retraction -> retract
	case strings.HasSuffix(w, "ment") && len(w) > 7:
		w = w[:len(w)-4]
	case strings.HasSuffix(w, "ure") && len(w) > 6:
		w = w[:len(w)-3] // enclosure -> enclos, moisture -> moist
	}
	if n := len(w); strings.HasSuffix(w, "y") && n > 4 && !isVowel(w[n-2]) && w[n-2] != w[n-3] {
		w = w[:len(w)-1] // stringy -> string, wavy -> wav
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1] // ooze -> ooz, bridge -> bridg
	}
	// clogg -> clog, warpp -> warp
	if n := len(w); n > 3 && w[n-1] == w[n-2] && !isVowel(w[n-1]) && w[n-1] != 's' {
		w = w[:n-1]
	}
	return w
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func hasVowel(s string) bool {
	return strings.ContainsAny(s, "aeiouy")
}

func isVowel(c byte) bool {
	return strings.IndexByte("aeiou", c) >= 0
}

// normWord maps one raw word to its token: negations become "not", stop
// words become "" (dropped) and anything else is stemmed.
func normWord(w string) string {
	if t, ok := fixedWords[w]; ok {
		return t
	}
	if isVersion(w) {
		return versionToken
	}
	return stem(w)
}

// token is one normalised word of a description.
type token struct {
	text   string
	raw    string // the word as the maker wrote it
	fuzzy  bool   // corrected from a misspelling
	tried  bool   // in a sentence about something the maker already did
	clause bool   // first word after a comma, colon or bracket
}

// tokens normalises s without spelling correction (used for knowledge-base text).
func tokens(s string) []string {
	ws := words(s)
	out := ws[:0]
	for _, w := range ws {
		if t := normWord(w); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// englishGz is a sorted list of real English words of six letters or more
// (see dict/README.md): they are never "corrected".
//
//go:embed dict/english.txt.gz
var englishGz []byte

// englishWords loads the word list once.
var englishWords = sync.OnceValues(func() ([]string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(englishGz))
	if err != nil {
		return nil, fmt.Errorf("open English word list: %w", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("read English word list: %w", err)
	}
	list := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !sort.StringsAreSorted(list) {
		return nil, fmt.Errorf("the English word list is not sorted")
	}
	return list, nil
})

// speller corrects misspelled words against a vocabulary, SymSpell style:
// every vocabulary key and its single-character deletions are indexed, so a
// lookup costs a handful of map probes instead of a scan of the vocabulary.
type speller struct {
	english []string             // sorted real words that are never corrected
	vocab   map[string]bool      // stemmed tokens of the knowledge base
	known   map[string]knownWord // the words of its terms and phrases, stop words and negations
	keys    map[string][]string  // sound key -> stems
	deletes map[string][]string  // sound key with one character deleted -> stems
}

// soundKey folds common spelling variants: "ph" sounds like "f" and doubled
// letters are collapsed, so "elefant" and "elephant", "spagetti" and
// "spaghetti" share or nearly share a key.
func soundKey(w string) string {
	w = strings.ReplaceAll(w, "ph", "f")
	w = strings.ReplaceAll(w, "ck", "k")
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		if i > 0 && w[i] == w[i-1] {
			continue
		}
		b = append(b, w[i])
	}
	return string(b)
}

func newSpeller(english []string) *speller {
	return &speller{english: english, vocab: map[string]bool{}, keys: map[string][]string{}, deletes: map[string][]string{}}
}

// isEnglish reports whether w is a real word of the word list.
func (s *speller) isEnglish(w string) bool {
	i := sort.SearchStrings(s.english, w)
	return i < len(s.english) && s.english[i] == w
}

// knownWord is a word whose token is worked out at load.
type knownWord struct {
	token   string // normWord of the word
	inVocab bool   // the vocabulary has token
}

// learnWords works out the tokens of the words of texts, of the stop words
// and of the negations, once the vocabulary is complete.
func (s *speller) learnWords(texts []string) {
	s.known = make(map[string]knownWord, len(fixedWords))
	learn := func(w string) {
		t := normWord(w)
		s.known[w] = knownWord{token: t, inVocab: s.vocab[t]}
	}
	for w := range fixedWords {
		learn(w)
	}
	for _, text := range texts {
		for _, w := range words(text) {
			learn(w)
		}
	}
}

// normalize is normWord(w) and whether the vocabulary has it; a nil speller
// has every word.
func (s *speller) normalize(w string) (string, bool) {
	if s == nil {
		return normWord(w), true
	}
	if k, ok := s.known[w]; ok {
		return k.token, k.inVocab
	}
	t := normWord(w)
	return t, s.vocab[t]
}

func (s *speller) add(stemmed string) {
	if s.vocab[stemmed] {
		return
	}
	s.vocab[stemmed] = true
	if len(stemmed) < 4 || isDigits(stemmed) {
		return
	}
	k := soundKey(stemmed)
	s.keys[k] = appendUnique(s.keys[k], stemmed)
	for i := range k {
		d := k[:i] + k[i+1:]
		s.deletes[d] = appendUnique(s.deletes[d], stemmed)
	}
}

func appendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// correct returns the vocabulary stem closest to the unknown raw word w and
// true, or "" and false when there is no safe correction.
func (s *speller) correct(raw, stemmed string) (string, bool) {
	if len(raw) < 6 || neverCorrect[raw] || strings.ContainsAny(raw, "0123456789") || s.isEnglish(raw) {
		return "", false
	}
	k := soundKey(stemmed)
	if c := s.keys[k]; len(c) > 0 {
		return c[0], true
	}
	best, bestDist := "", 3
	consider := func(cands []string) {
		for _, c := range cands {
			if len(c) < 4 || c[:2] != stemmed[:2] {
				continue
			}
			d := editDistance(k, soundKey(c))
			if d < bestDist || (d == bestDist && c < best) {
				best, bestDist = c, d
			}
		}
	}
	// One deletion on either side covers insertions, deletions, substitutions
	// and transpositions of one character.
	consider(s.deletes[k])
	for i := range k {
		d := k[:i] + k[i+1:]
		consider(s.keys[d])
		consider(s.deletes[d])
	}
	limit := 1
	if len(k) >= 8 {
		limit = 2
	}
	if best == "" || bestDist > limit {
		return "", false
	}
	return best, true
}

// editDistance is the optimal-string-alignment distance (Levenshtein plus
// adjacent transpositions) between two short ASCII-ish strings.
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	la, lb := len(a), len(b)
	prev2 := make([]int, lb+1)
	prev := make([]int, lb+1)
	cur := make([]int, lb+1)
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}

// triedWords mark a sentence that reports something the maker already did
// ("I dried it twice", "already replaced the nozzle"): its words are weaker
// evidence for the cause, and the fix it names is less likely to be the one
// still missing.
var triedWords = toSet(`tried try trying already replaced swapped changed cleaned checked dried
upgraded tightened adjusted recalibrated calibrated reseated installed releveled relevelled
re-leveled re-levelled leveled levelled lubricated greased lowered raised increased decreased
reduced disabled enabled`)

// sentences splits text at sentence punctuation, keeping decimal points.
func sentences(text string) []string { return appendSentences(nil, text) }

// appendSentences appends the sentences of text to out.
func appendSentences(out []string, text string) []string {
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '!' || c == '?' || c == ';' || c == '\n'
		if c == '.' {
			digitBefore := i > 0 && text[i-1] >= '0' && text[i-1] <= '9'
			digitAfter := i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9'
			end = !(digitBefore && digitAfter)
		}
		if end {
			out = append(out, text[start:i])
			start = i + 1
		}
	}
	return append(out, text[start:])
}

// analyze turns a description into tokens, correcting words that are not in
// the vocabulary when a close vocabulary word exists.
func (s *speller) analyze(text string) []token {
	return s.appendTokens(make([]token, 0, 8+len(text)/6), text)
}

// appendTokens appends the tokens of text (analyze) to out.
func (s *speller) appendTokens(out []token, text string) []token {
	// Room on the stack for a description of a few sentences; a longer
	// one grows onto the heap.
	var sentRoom, clauseRoom [8]string
	var wordRoom [64]string
	var startRoom [8]int
	ws := wordRoom[:0]      // the words of a sentence, clause after clause
	starts := startRoom[:0] // where each clause's words start in ws
	for si, sent := range appendSentences(sentRoom[:0], text) {
		// A sentence's words are its clauses' words: clauses split only
		// where words split too.
		ws, starts = ws[:0], starts[:0]
		for _, cl := range appendClauses(clauseRoom[:0], sent) {
			starts = append(starts, len(ws))
			ws = appendWords(ws, cl)
		}
		tried := false
		for _, w := range ws {
			if triedWords[w] {
				tried = true
				break
			}
		}
		for ci, from := range starts {
			to := len(ws)
			if ci+1 < len(starts) {
				to = starts[ci+1]
			}
			// A term never reaches across a clause or sentence boundary.
			first := ci > 0 || si > 0
			for _, w := range ws[from:to] {
				t, inVocab := s.normalize(w)
				if t == "" {
					continue
				}
				tok := token{text: t, raw: w, tried: tried, clause: first}
				first = false
				if !inVocab {
					if c, ok := s.correct(w, t); ok {
						tok.text, tok.fuzzy = c, true
					}
				}
				out = append(out, tok)
			}
		}
	}
	return out
}

// clauses splits a sentence at commas, colons and brackets, keeping commas
// inside numbers ("1,75").
func clauses(sent string) []string { return appendClauses(nil, sent) }

// appendClauses appends the clauses of sent to out.
func appendClauses(out []string, sent string) []string {
	start := 0
	for i := 0; i < len(sent); i++ {
		switch c := sent[i]; c {
		case ',':
			if i > 0 && i+1 < len(sent) && isDigit(sent[i-1]) && isDigit(sent[i+1]) {
				continue
			}
		case ':', '(', ')':
		default:
			continue
		}
		out = append(out, sent[start:i])
		start = i + 1
	}
	return append(out, sent[start:])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// containsWord reports whether name occurs in text (both lower case) with no
// letter or digit directly before or after it.
func containsWord(text, name string) bool {
	for from := 0; from <= len(text)-len(name); {
		i := strings.Index(text[from:], name)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(name)
		before := i == 0 || !isAlnum(text[i-1])
		after := end == len(text) || !isAlnum(text[end])
		if before && after {
			return true
		}
		from = i + 1
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// compact keeps only letters and digits, lower case: "Ender-3 V2" -> "ender3v2".
func compact(s string) string {
	return string(appendCompact(nil, s))
}

// appendCompact appends compact(s) to b.
func appendCompact(b []byte, s string) []byte {
	for _, r := range s {
		if r = unicode.ToLower(r); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' {
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

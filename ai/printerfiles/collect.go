package printerfiles

import (
	"iter"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// collector gathers one file's facts. A setting seen again replaces the
// earlier one (the later line is what the firmware uses); an event seen
// again counts up.
type collector struct {
	source string
	facts  []Fact
	index  map[factID]int
}

type factID struct{ key, subject string }

func newCollector(source string) *collector {
	return &collector{source: source, index: make(map[factID]int, 64)}
}

// set records a setting: the last one wins; an empty value is no setting.
func (c *collector) set(key, subject, value string, line int, quote string) {
	c.put(key, subject, value, 0, false, line, quote, false)
}

// setNum records a numeric setting.
func (c *collector) setNum(key, subject string, v float64, line int, quote string) {
	c.put(key, subject, fmtNum(v), v, true, line, quote, false)
}

// setValueNum records a setting whose value reads differently from its number.
func (c *collector) setValueNum(key, subject, value string, v float64, line int, quote string) {
	c.put(key, subject, value, v, true, line, quote, false)
}

// setBool records a yes/no setting as "true"/"false" with Num 1/0.
func (c *collector) setBool(key, subject string, v bool, line int, quote string) {
	n := 0.0
	if v {
		n = 1
	}
	c.put(key, subject, strconv.FormatBool(v), n, true, line, quote, false)
}

// event records an error or event: the first one is kept and counted.
func (c *collector) event(key, subject, value string, line int, quote string) {
	c.put(key, subject, value, 0, false, line, quote, true)
}

func (c *collector) put(key, subject, value string, num float64, hasNum bool, line int, quote string, isEvent bool) {
	value = cleanValue(value)
	if value == "" && !isEvent {
		return // an option written without a value sets nothing
	}
	if math.IsInf(num, 0) || math.IsNaN(num) {
		return // a computed value out of range is no fact (and no JSON number)
	}
	subject = clip(subject, 60)
	if !hasNum {
		if n, ok := parseNum(value); ok {
			num, hasNum = n, true
		}
	}
	id := factID{key, subject}
	if i, ok := c.index[id]; ok {
		f := &c.facts[i]
		if isEvent {
			f.Count++
			return
		}
		f.Value, f.Num, f.HasNum, f.Line, f.Quote = value, num, hasNum, line, makeQuote(quote)
		return
	}
	if len(c.facts) >= MaxFactsPerFile {
		return
	}
	f := Fact{Key: key, Subject: subject, Value: value, Num: num, HasNum: hasNum,
		Source: c.source, Line: line, Quote: makeQuote(quote)}
	if isEvent {
		f.Count = 1
	}
	c.index[id] = len(c.facts)
	c.facts = append(c.facts, f)
}

// get returns a recorded fact.
func (c *collector) get(key, subject string) (Fact, bool) {
	if i, ok := c.index[factID{key, subject}]; ok {
		return c.facts[i], true
	}
	return Fact{}, false
}

func (c *collector) result() []Fact { return c.facts }

// eachLine walks a text line by line without copying it: the 1-based line
// number and the line without its ending, cut to MaxLineBytes. What a paste
// put before the text is left out: a byte-order mark, and the margin every
// line shares (see pasteMargin).
func eachLine(s string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		s := strings.TrimPrefix(s, "\uFEFF")
		m := pasteMargin(s)
		n := 0
		for pos := 0; pos < len(s); {
			rest := s[pos:]
			line := rest
			if end := strings.IndexByte(rest, '\n'); end >= 0 {
				line = rest[:end]
				pos += end + 1
			} else {
				pos = len(s)
			}
			n++
			line = m.strip(strings.TrimSuffix(line, "\r"))
			if len(line) > MaxLineBytes {
				line = cutUTF8(line, MaxLineBytes)
			}
			if !yield(n, line) {
				return
			}
		}
	}
}

// margin is what a forum post or chat put before every line of a pasted
// file: Markdown quote marks ("> ", nested "> > "), then the indentation of a
// Markdown code block or a reply. A file's own lines never all share one.
type margin struct {
	quotes int    // "> " marks
	indent string // spaces and tabs after them
	// diff: the file is a unified diff of the maker's changes ("git diff"):
	// its new side is read, removed lines and headers are left out
	diff bool
}

// maxQuotes is the depth of Markdown quotes removed.
const maxQuotes = 3

// pasteMargin finds the margin every non-blank line of s shares.
func pasteMargin(s string) margin {
	var m margin
	for m.quotes < maxQuotes && allLines(s, m, func(l string) bool { return l == ">" || strings.HasPrefix(l, "> ") }) {
		m.quotes++
	}
	first := true
	allLines(s, m, func(l string) bool {
		ind := l[:len(l)-len(trimLeftSpace(l))]
		if first {
			m.indent, first = ind, false
		}
		i := 0
		for i < len(ind) && i < len(m.indent) && ind[i] == m.indent[i] {
			i++
		}
		m.indent = m.indent[:i]
		return m.indent != ""
	})
	// a diff's headers ("+++ b/printer.cfg", "@@ -1,5 +1,5 @@") open it
	hunk, newFile, seen := false, false, 0
	allLines(s, m, func(l string) bool {
		hunk = hunk || strings.HasPrefix(l, "@@ -")
		newFile = newFile || strings.HasPrefix(l, "+++ ")
		seen++
		return !(hunk && newFile) && seen < 20
	})
	m.diff = hunk && newFile
	return m
}

// allLines reports whether ok holds for every non-blank line of s after
// the margin m; false when no line is non-blank.
func allLines(s string, m margin, ok func(string) bool) bool {
	seen := false
	for pos := 0; pos < len(s); {
		line := s[pos:]
		if end := strings.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
			pos += end + 1
		} else {
			pos = len(s)
		}
		line = m.strip(strings.TrimRight(line, " \t\r"))
		if line == "" {
			continue
		}
		if !ok(line) {
			return false
		}
		seen = true
	}
	return seen
}

// strip removes the margin from one line; a line shorter than the margin
// (a quoted blank line) becomes empty.
func (m margin) strip(line string) string {
	for range m.quotes {
		if line == ">" || strings.TrimRight(line, " \t") == ">" {
			return ""
		}
		line = strings.TrimPrefix(line, "> ")
	}
	if m.indent != "" {
		if !strings.HasPrefix(line, m.indent) {
			return trimLeftSpace(line)
		}
		line = line[len(m.indent):]
	}
	if m.diff {
		switch {
		case line == "" || line[0] == '-' || line[0] == '@' || line[0] == '\\' ||
			strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "diff --git ") || strings.HasPrefix(line, "index "):
			return ""
		case line[0] == '+' || line[0] == ' ':
			return line[1:]
		}
	}
	return line
}

// slot returns the element of list named name, adding one made by mk while
// the list holds fewer than maxSubjects; nil when it is full.
func slot[T any](list *[]T, name string, nameOf func(*T) string, mk func(string) T) *T {
	for i := range *list {
		if nameOf(&(*list)[i]) == name {
			return &(*list)[i]
		}
	}
	if len(*list) >= maxSubjects {
		return nil
	}
	*list = append(*list, mk(name))
	return &(*list)[len(*list)-1]
}

// hasAnyPrefix reports whether s starts with one of the prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// trimLeftSpace removes leading spaces and tabs.
func trimLeftSpace(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// message is a log message read by its start alone: the fact key, its
// subject, and what the fact's value is: the whole message ('m'), what
// follows the prefix ('r'), or the text in parentheses ('p').
type message struct {
	prefix, key, subject string
	value                byte
}

// messageTable indexes messages by their first byte.
type messageTable struct {
	list    []message
	byFirst [256][]uint8
}

func newMessageTable(list []message) *messageTable {
	t := &messageTable{list: list}
	for i, m := range list {
		t.byFirst[m.prefix[0]] = append(t.byFirst[m.prefix[0]], uint8(i))
	}
	return t
}

// readMessage records msg when it starts with one of the table's
// prefixes; it reports whether it did.
func readMessage(c *collector, t *messageTable, msg string, n int, quote string) bool {
	if msg == "" {
		return false
	}
	for _, i := range t.byFirst[msg[0]] {
		m := &t.list[i]
		if !strings.HasPrefix(msg, m.prefix) {
			continue
		}
		v := msg
		switch m.value {
		case 'r':
			v = strings.TrimLeft(msg[len(m.prefix):], ": ")
		case 'p':
			v, _ = between(msg, "(", ")")
		}
		c.event(m.key, m.subject, v, n, quote)
		return true
	}
	return false
}

// setLetters records the parameters of a G-code line that keys names, by
// letter ("G31 P500 X-2 Y33.5 Z2.85").
func (c *collector) setLetters(ps []param, keys map[byte]string, subject string, n int, quote string) {
	for _, p := range ps {
		if key, ok := keys[p.letter]; ok {
			c.set(key, subject, p.value, n, quote)
		}
	}
}

// makeQuote trims a line for Fact.Quote; the result is a substring of it.
func makeQuote(line string) string { return clip(line, MaxQuoteBytes) }

func cleanValue(v string) string { return clip(v, MaxValueBytes) }

// clip trims s, ends it before its first control character and cuts it to
// n bytes: a substring of s.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 && b != '\t' || b == 0x7f {
			s = s[:i]
			break
		}
	}
	return strings.TrimSpace(cutUTF8(s, n))
}

// cutUTF8 cuts s to at most n bytes on a rune boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// parseNum reads a plain decimal number ("80", "-0.5", ".023", "1e-3");
// anything else, including inf, NaN and hex, is not a number.
func parseNum(s string) (float64, bool) {
	if s == "" || len(s) > 32 {
		return 0, false
	}
	digits := false
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= '0' && b <= '9':
			digits = true
		case b == '.' || b == '-' || b == '+' || b == 'e' || b == 'E':
		default:
			return 0, false
		}
	}
	if !digits {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// leadingNum reads the number at the start of s ("100k" gives 100) and what
// follows it.
func leadingNum(s string) (float64, string, bool) {
	i := 0
	for i < len(s) && i < 32 {
		b := s[i]
		if b >= '0' && b <= '9' || b == '.' || (b == '-' || b == '+') && i == 0 {
			i++
			continue
		}
		if (b == 'e' || b == 'E') && i > 0 && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-') {
			i++
			continue
		}
		break
	}
	v, ok := parseNum(s[:i])
	return v, s[i:], ok
}

func fmtNum(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// cut returns what follows the first sep in s.
func after(s, sep string) (string, bool) {
	i := strings.Index(s, sep)
	if i < 0 {
		return "", false
	}
	return s[i+len(sep):], true
}

// inside returns what s holds between a prefix and a suffix, "" when s
// does not have both.
func inside(s, prefix, suffix string) string {
	if len(s) < len(prefix)+len(suffix) || !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		return ""
	}
	return s[len(prefix) : len(s)-len(suffix)]
}

// between returns the text between open and close, both after the start.
func between(s, open, close string) (string, bool) {
	rest, ok := after(s, open)
	if !ok {
		return "", false
	}
	i := strings.Index(rest, close)
	if i < 0 {
		return "", false
	}
	return rest[:i], true
}

// firstWord returns s up to its first space or tab.
func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// stripTimestamp removes a clock or date prefix a console adds
// ("10:16:02  ", "[10:16:02] ", "10:16:02\u00a0", "3/2/2024, 4:02:11 PM\t",
// "2023-06-27 11:50:42,123 - ").
func stripTimestamp(s string) string {
	t := trimLeftSpace(s)
	if t != "" && t[0] == '[' {
		if i := strings.IndexByte(t, ']'); i > 0 && i < 32 && isClock(t[1:i]) {
			return trimLeftSpace(t[i+1:])
		}
	}
	j, colons := 0, 0
	for j < len(t) && j < 40 {
		b := t[j]
		switch {
		case b >= '0' && b <= '9' || b == '/' || b == '-' || b == '.' || b == ',':
		case b == ':':
			colons++
		case b == ' ' && j+1 < len(t) && t[j+1] >= '0' && t[j+1] <= '9':
		case b == ' ' && (strings.HasPrefix(t[j:], " AM") || strings.HasPrefix(t[j:], " PM")):
			j += 2
		default:
			goto done
		}
		j++
	}
done:
	if colons < 2 {
		return s // a clock has hours, minutes and seconds; "0: Heaters switched off" is a heater's number
	}
	rest := t[j:]
	switch {
	case strings.HasPrefix(rest, " - "), strings.HasPrefix(rest, " : "):
		// OctoPrint's serial.log "2024-11-02 10:12:44,123 - ", Repetier-Host's "10:12:44.123 : "
		return rest[3:]
	case rest == "":
		return ""
	case rest[0] == '\t' || rest[0] == ' ':
		return trimLeftSpace(rest)
	case strings.HasPrefix(rest, "\u00a0"):
		// Fluidd's console ends its clock with a no-break space
		return trimLeftSpace(rest[len("\u00a0"):])
	}
	return s
}

func isClock(s string) bool {
	if len(s) < 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; !(b >= '0' && b <= '9' || b == ':' || b == '.' || b == ' ' || b == '-' || b == '/' || b == ',') {
			return false
		}
	}
	return strings.IndexByte(s, ':') >= 0
}

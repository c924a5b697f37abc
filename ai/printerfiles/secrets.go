package printerfiles

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Removed replaces the value of a secret.
const Removed = "[removed]"

// StripSecrets replaces the values of obvious secrets in a printer's text
// files with Removed and returns the text and how many values it replaced.
// It knows the shapes these files take: `key: value` and `key = value`
// (Klipper, Moonraker, INI, YAML, wpa_supplicant, env files), JSON and
// Python-repr pairs in logs, `#define NAME value` (Marlin), URLs with a
// password or a secret query parameter, Authorization headers, bearer
// tokens and RepRapFirmware's password commands (M551, M587, M589 P). A key is a secret by its last word (password, passwd, pass, pwd,
// psk, passphrase, token, secret, credentials, cookie, salt, and api/access/
// secret/private key, access/auth code), or a bare `key` holding a key-like
// value (OctoPrint's `api: key:`); in an [mqtt] section the user name is
// removed too. Invalid UTF-8 becomes U+FFFD. Stripping twice changes
// nothing more; every replacement adds at most len(Removed)-1 bytes.
func StripSecrets(text string) (string, int) {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	var b strings.Builder
	n, section, last := 0, "", 0
	for start := 0; start <= len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		if m := sectionLine.FindStringSubmatch(line); m != nil {
			section = strings.ToLower(strings.TrimSpace(m[1]))
		}
		// A line is stripped until nothing changes: one rule's cut can
		// leave a shape another rule removes.
		out, k := line, 0
		for pass := 0; pass < 4; pass++ {
			next, c := stripLine(out, section)
			if c == 0 {
				break
			}
			out, k = next, k+c
		}
		if k > 0 {
			if b.Len() == 0 {
				b.Grow(len(text) + 64)
			}
			b.WriteString(text[last:start])
			b.WriteString(out)
			last, n = end, n+k
		}
		start = end + 1
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[last:])
	return b.String(), n
}

var (
	sectionLine = regexp.MustCompile(`^\s*\[([^\]\n]{1,80})\]\s*(?:[#;].*)?$`)
	define      = regexp.MustCompile(`^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]{0,80})[ \t]+(\S.*?)[ \t\r]*$`)
)

// stripLine applies every rule once. The rules scan by hand, in time linear
// in the line, whatever it holds.
func stripLine(line, section string) (string, int) {
	n := 0
	var spans []span
	if strings.Contains(line, "://") {
		line = replaceSpans(line, urlPasswords(line, spans[:0]), &n)
	}
	if strings.ContainsAny(line, "?&") {
		line = replaceSpans(line, queryValues(line, spans[:0]), &n)
	}
	if i := indexFold(line, "bearer"); i >= 0 {
		line = replaceSpans(line, bearerTokens(line, i, spans[:0]), &n)
	}
	if strings.Contains(line, "define") {
		if m := define.FindStringSubmatchIndex(line); m != nil && keyClass(line[m[2]:m[3]], "", false) == secretKey {
			s, e := quotedSpan(line, m[4], m[5])
			return replaceSpans(line, []span{{s, e}}, &n), n
		}
	}
	if strings.ContainsAny(line, ":=") {
		line = replaceSpans(line, pairValues(line, section, spans[:0]), &n)
	}
	if strings.Contains(line, "5") {
		line = replaceSpans(line, rrfPasswords(line, spans[:0]), &n)
	}
	return line, n
}

// rrfPasswordCommands are RepRapFirmware's commands whose P parameter is a
// password: M551 (the machine's), M587 (a Wi-Fi network's), M589 (the
// access point's).
var rrfPasswordCommands = []string{"m551", "m587", "m589"}

// rrfPasswords finds the P value of such a command, quoted or not, in a
// config.g line or a console or host log that echoes it ("M587
// S\"home\" P\"secret\"", "Send: N5 M551 P\"secret\"*45").
func rrfPasswords(line string, out []span) []span {
	for _, cmd := range rrfPasswordCommands {
		i := indexFold(line, cmd)
		if i < 0 || i > 0 && line[i-1] != ' ' && line[i-1] != '\t' {
			continue
		}
		j := i + len(cmd)
		if j < len(line) && line[j] != ' ' && line[j] != '\t' {
			continue
		}
		for j < len(line) && line[j] != ';' && line[j] != '*' {
			if line[j] == '"' {
				// a quoted parameter value: skip it whole
				c := strings.IndexByte(line[j+1:], '"')
				if c < 0 {
					break
				}
				j += c + 2
				continue
			}
			if (line[j] == 'P' || line[j] == 'p') && (line[j-1] == ' ' || line[j-1] == '\t') {
				s := j + 1
				if s < len(line) && line[s] == '"' {
					if c := strings.IndexByte(line[s+1:], '"'); c >= 0 {
						out = append(out, span{s + 1, s + 1 + c})
					}
					break
				}
				e := s
				for e < len(line) && line[e] != ' ' && line[e] != '\t' && line[e] != ';' && line[e] != '*' {
					e++
				}
				out = append(out, span{s, e})
				break
			}
			j++
		}
	}
	return out
}

// span is a value to remove, line[s:e].
type span struct{ s, e int }

// replaceSpans replaces the replaceable spans (in order, not overlapping).
func replaceSpans(line string, spans []span, n *int) string {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp.s < last || sp.e <= sp.s || !replaceable(line[sp.s:sp.e]) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(line) + 16)
		}
		b.WriteString(line[last:sp.s])
		b.WriteString(Removed)
		last = sp.e
		*n++
	}
	if last == 0 {
		return line
	}
	b.WriteString(line[last:])
	return b.String()
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// urlPasswords: the password of scheme://user:password@host.
func urlPasswords(line string, out []span) []span {
	for i := 0; ; {
		j := strings.Index(line[i:], "://")
		if j < 0 {
			return out
		}
		i += j + 3
		if j == 0 || !isLetter(line[i-4]) && !isKeyChar(line[i-4]) {
			continue
		}
		end := i
		for end < len(line) && strings.IndexByte(" \t\r/?#\"'<>", line[end]) < 0 {
			end++
		}
		auth := line[i:end]
		at := strings.LastIndexByte(auth, '@')
		colon := strings.IndexByte(auth, ':')
		if at > 0 && colon >= 0 && colon < at {
			out = append(out, span{i + colon + 1, i + at})
		}
		i = end
	}
}

// queryValues: the values of secret ?name=value and &name=value parameters.
func queryValues(line string, out []span) []span {
	for i := 0; i < len(line); i++ {
		if line[i] != '?' && line[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(line) && j-i <= 64 && isKeyChar(line[j]) {
			j++
		}
		if j == i+1 || j >= len(line) || line[j] != '=' || !secretQuery(line[i+1:j]) {
			continue
		}
		e := j + 1
		for e < len(line) && strings.IndexByte("&#\"'<> \t\r", line[e]) < 0 {
			e++
		}
		out = append(out, span{j + 1, e})
		i = e - 1
	}
	return out
}

// bearerTokens: the token after "Bearer " (any case), from position i on.
func bearerTokens(line string, i int, out []span) []span {
	for i >= 0 {
		s := i + len("bearer")
		if (i == 0 || !isKeyChar(line[i-1])) && s < len(line) && (line[s] == ' ' || line[s] == '\t') {
			for s < len(line) && (line[s] == ' ' || line[s] == '\t') {
				s++
			}
			e := s
			for e < len(line) && (isKeyChar(line[e]) || strings.IndexByte("~+/", line[e]) >= 0) {
				e++
			}
			for e < len(line) && line[e] == '=' {
				e++
			}
			if e-s >= 8 {
				out = append(out, span{s, e})
			}
		}
		next := indexFold(line[s:], "bearer")
		if next < 0 {
			break
		}
		i = s + next
	}
	return out
}

// indexFold is strings.Index for an ASCII lower-case needle, ignoring case.
func indexFold(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if s[i]|0x20 == needle[0] && strings.EqualFold(s[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// replaceable: a value worth removing (not empty, not already removed, not a
// placeholder or a structure's opening).
func replaceable(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || strings.HasPrefix(v, Removed) || strings.Trim(v, "*") == "" {
		return false
	}
	if len(v) <= 5 {
		for _, w := range []string{"null", "none", "nil", "true", "false", "~", "{", "[", "{}", "[]", `""`, "''"} {
			if strings.EqualFold(v, w) {
				return false
			}
		}
	}
	return !strings.HasPrefix(v, "{secrets.") && !strings.HasPrefix(v, "${") && !strings.HasPrefix(v, "{{")
}

// quotedSpan is the value from s to e without its quotes, when quoted.
func quotedSpan(line string, s, e int) (int, int) {
	if e-s >= 2 && (line[s] == '"' || line[s] == '\'') {
		if c := closingQuote(line, s); c > 0 && c < e {
			return s + 1, c
		}
	}
	return s, e
}

// closingQuote is the index of the quote closing the one at open (escapes
// skipped), or -1.
func closingQuote(line string, open int) int {
	q := line[open]
	for i := open + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

// pairValues: the values of secret keys in `key: value` and `key = value`
// pairs, quoted or not, anywhere in the line. A key is one or two words
// before the separator, maybe quoted.
func pairValues(line, section string, out []span) []span {
	p := 0 // values before p are taken
	for i := 0; i < len(line); i++ {
		if line[i] != ':' && line[i] != '=' {
			continue
		}
		keyStart, keyEnd, quotedKey := keyBefore(line, i, p)
		if keyStart < 0 {
			continue
		}
		v := i + 1
		for v < len(line) && (line[v] == ' ' || line[v] == '\t') {
			v++
		}
		if v >= len(line) {
			break
		}
		key := line[keyStart:keyEnd]
		twoWords := strings.IndexByte(key, ' ') >= 0
		atStart := !twoWords && (strings.Trim(line[:keyStart], " \t\"'-;") == "" || strings.TrimSpace(line[:keyStart]) == "export")
		class := keyClass(key, section, atStart)
		if class == notSecret {
			continue
		}
		if strings.HasPrefix(line[v:], Removed) {
			p, i = v+len(Removed), v+len(Removed)-1
			continue
		}
		s, e := valueSpan(line, v, atStart && !quotedKey)
		if class == authHeader {
			s = afterScheme(line, s, e)
		}
		if class == bareKey && !keyLike(line[s:e]) {
			continue
		}
		out = append(out, span{s, e})
		p = e
		i = max(i, e-1)
	}
	return out
}

// keyBefore finds the key ending before the separator at sep: its span and
// whether it was quoted; -1 when there is none after p.
func keyBefore(line string, sep, p int) (int, int, bool) {
	j := sep
	for j > p && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	quoted := j > p && (line[j-1] == '"' || line[j-1] == '\'')
	if quoted {
		j--
	}
	end := j
	start := wordStart(line, end, p)
	if start < 0 {
		return -1, -1, false
	}
	// A second word before a single space: "access code", "API Key".
	if start-1 > p && line[start-1] == ' ' && isKeyChar(line[start-2]) {
		if s2 := wordStart(line, start-1, p); s2 >= 0 {
			start = s2
		}
	}
	return start, end, quoted
}

// wordStart is the start of the key word ending at end (a letter, at most
// 81 characters back, not before p), or -1.
func wordStart(line string, end, p int) int {
	s := end
	for s > p && end-s < 81 && isKeyChar(line[s-1]) {
		s--
	}
	for s < end && !isLetter(line[s]) {
		s++
	}
	if s == end {
		return -1
	}
	return s
}

// valueSpan is the value starting at v: a quoted string's inside, the rest
// of the line for a key at the line's start, else a run up to a delimiter.
func valueSpan(line string, v int, restOfLine bool) (int, int) {
	if line[v] == '"' || line[v] == '\'' {
		if c := closingQuote(line, v); c > 0 {
			return v + 1, c
		}
		return v + 1, len(strings.TrimRight(line, " \t\r"))
	}
	if restOfLine {
		return v, max(v, len(strings.TrimRight(line, " \t\r")))
	}
	e := v
	for e < len(line) && !strings.ContainsRune(" \t\r,;&}])\"'<>", rune(line[e])) {
		e++
	}
	return v, e
}

// afterScheme skips an Authorization value's scheme (Bearer, Basic, ...).
func afterScheme(line string, s, e int) int {
	if i := strings.IndexAny(line[s:e], " \t"); i > 0 && i <= 12 {
		switch strings.ToLower(line[s : s+i]) {
		case "bearer", "basic", "digest", "token", "bot", "apikey", "negotiate", "hoba":
			j := s + i
			for j < e && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			return j
		}
	}
	return s
}

// keyLike: a long run of key characters with letters and digits.
func keyLike(v string) bool {
	if len(v) < 16 {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case strings.IndexByte("+/=_-.", c) >= 0:
		default:
			return false
		}
	}
	return letter && digit
}

type class int

const (
	notSecret  class = iota
	secretKey        // the value is removed
	bareKey          // "key": removed when the value looks like a key
	authHeader       // Authorization: the scheme stays
)

var (
	// Last words that name a secret.
	secretWords = map[string]bool{
		"password": true, "passwd": true, "pass": true, "pwd": true, "psk": true, "passphrase": true,
		"secret": true, "secrets": true, "token": true, "credential": true, "credentials": true,
		"cookie": true, "salt": true, "apikey": true, "accesstoken": true, "authtoken": true,
		"accesscode": true, "secretkey": true, "privatekey": true, "clientsecret": true,
	}
	// Endings of run-together words (mqttpassword, octoprintapikey).
	secretEndings = []string{"password", "passwd", "passphrase", "apikey", "secret", "token"}
	// Words before "key" that make it a secret.
	keyOwners = map[string]bool{
		"api": true, "access": true, "secret": true, "private": true, "auth": true, "client": true,
		"app": true, "license": true, "master": true, "encryption": true, "signing": true, "session": true,
		"wep": true, "octoprint": true, "moonraker": true, "prusalink": true, "mqtt": true,
	}
)

// keyClass says whether a key names a secret. atStart: the key opens its
// line, where an [mqtt] section's user name is a credential too.
func keyClass(key, section string, atStart bool) class {
	words := keyWords(key)
	if len(words) == 0 {
		return notSecret
	}
	last, prev := words[len(words)-1], ""
	if len(words) > 1 {
		prev = words[len(words)-2]
	}
	switch {
	case last == "authorization":
		return authHeader
	case secretWords[last]:
		return secretKey
	case last == "key" && keyOwners[prev], last == "code" && (prev == "access" || prev == "auth"):
		return secretKey
	case last == "key":
		return bareKey
	case (last == "user" || last == "username") && atStart && strings.HasPrefix(section, "mqtt"):
		return secretKey
	}
	if len(last) > 6 {
		for _, end := range secretEndings {
			if strings.HasSuffix(last, end) {
				return secretKey
			}
		}
	}
	return notSecret
}

// secretQuery: a URL query parameter that carries a secret.
func secretQuery(name string) bool {
	if keyClass(name, "", false) != notSecret {
		return true
	}
	words := keyWords(name)
	switch words[len(words)-1] {
	case "sig", "signature", "auth", "credential":
		return true
	}
	return false
}

// keyWords splits a key into lower-case words at separators and camelCase
// humps, dropping trailing digits (wep_key0, psk2).
func keyWords(key string) []string {
	var words []string
	word := make([]byte, 0, len(key))
	flush := func() {
		w := word
		for len(w) > 0 && w[len(w)-1] >= '0' && w[len(w)-1] <= '9' {
			w = w[:len(w)-1]
		}
		if len(w) > 0 {
			words = append(words, string(w))
		}
		word = word[:0]
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		upper, lower := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z'
		if !upper && !lower && !(c >= '0' && c <= '9') {
			flush()
			continue
		}
		if upper && len(word) > 0 {
			p := key[i-1]
			nextLower := i+1 < len(key) && key[i+1] >= 'a' && key[i+1] <= 'z'
			if (p >= 'a' && p <= 'z') || (p >= '0' && p <= '9') || (p >= 'A' && p <= 'Z' && nextLower) {
				flush()
			}
		}
		if upper {
			c += 'a' - 'A'
		}
		word = append(word, c)
	}
	flush()
	if len(words) == 0 {
		return []string{""}
	}
	return words
}

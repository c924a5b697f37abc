// Package textcheck holds the rules for text people type into the app:
// which characters a field refuses and how a value is cleaned.
package textcheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Makers write "210°C, 20% infill", "PLA & PETG", "0.4mm × 0.2", "#3
// printer" and emoji: every letter, digit, punctuation mark and symbol is
// accepted. Only characters nobody means to type are refused, and the
// message names the one found: control characters (tab and line breaks are
// fine in a description), invisible formatting characters (zero-width
// spaces, direction overrides, soft hyphens; the zero-width joiner inside
// emoji is fine), line separators and non-characters. Output is escaped
// wherever it is shown.

// InvalidChar describes the first character of s that is refused, or ""
// when every character is fine.
func InvalidChar(s string, multiline bool) string {
	for i, r := range s {
		if r >= ' ' && r < 0x7f {
			continue // printable ASCII, most of any text
		}
		if why := judge(s, i, r, multiline); why != "" {
			return why
		}
	}
	return ""
}

// judge describes why r, at byte i of s, is refused, or "" when it is fine.
func judge(s string, i int, r rune, multiline bool) string {
	if r == utf8.RuneError {
		if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
			return "bytes that are not valid UTF-8 text"
		}
	}
	switch {
	case r == '\n' || r == '\r' || r == '\t':
		if !multiline {
			return describeChar(r, "a line break or tab")
		}
	case unicode.Is(unicode.Cc, r):
		return describeChar(r, "a control character")
	case r == '\u200d' || r == '\ufe0f':
		// Zero-width joiner and variation selector: parts of emoji.
	case unicode.Is(unicode.Cf, r):
		return describeChar(r, "an invisible formatting character")
	case r == '\u2028' || r == '\u2029':
		return describeChar(r, "a line separator")
	case (r&0xfffe) == 0xfffe || (r >= 0xfdd0 && r <= 0xfdef):
		return describeChar(r, "a non-character")
	}
	return ""
}

func describeChar(r rune, kind string) string {
	return fmt.Sprintf("%s (U+%04X)", kind, r)
}

// charsMessage is the field message for a refused character.
func charsMessage(label, found string) string {
	return fmt.Sprintf("%s contains invalid characters: %s. Remove it and try again.", label, found)
}

// maxMarks is how many combining marks may follow one letter: enough for
// any language (Vietnamese stacks two), not for "Zalgo" text that spills
// over the lines around it.
const maxMarks = 3

// stackedMarks reports whether s piles more than maxMarks combining marks
// on one character.
func stackedMarks(s string) bool {
	run := 0
	for _, r := range s {
		// No ASCII character is a mark.
		if r < utf8.RuneSelf || !unicode.Is(unicode.M, r) {
			run = 0
			continue
		}
		run++
		if run > maxMarks {
			return true
		}
	}
	return false
}

// Problem is the message for a name-like field's refused text, or "".
func Problem(label, s string, multiline bool) string {
	if bad := InvalidChar(s, multiline); bad != "" {
		return charsMessage(label, bad)
	}
	if stackedMarks(s) {
		return fmt.Sprintf("%s stacks too many accents on one character (at most %d).", label, maxMarks)
	}
	return ""
}

// controlChars are the control characters Clean removes; tab and line
// breaks stay.
var (
	controlChars = regexp.MustCompile(`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]`)
)

// Clean trims s, removes control characters and cuts it to max runes.
func Clean(s string, max int) string {
	s = strings.TrimSpace(controlChars.ReplaceAllString(strings.ToValidUTF8(s, ""), ""))
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max])
	}
	return s
}

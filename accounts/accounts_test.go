package accounts

import (
	"strings"
	"testing"
)

func TestPasswordRules(t *testing.T) {
	for pw, want := range map[string]string{
		"short":                     "at least 6",
		"password":                  "too common",
		"maker@example.com":         "email address",
		"MAKER@Example.com":         "email address",
		strings.Repeat("x", 1025):   "at most 1024",
		"spaghetti-monster":         "",
		"correct horse battery 42!": "",
	} {
		if got := WeakPassword(pw, "maker@example.com"); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("WeakPassword(%.20q) = %q, want %q", pw, got, want)
		}
	}
	phc := HashPassword("spaghetti-monster")
	if !strings.HasPrefix(phc, "$argon2id$v=19$m=19456,t=2,p=1$") || !CheckPassword("spaghetti-monster", phc) || CheckPassword("spaghetti-monsteR", phc) {
		t.Fatalf("hash %s does not check", phc)
	}
	if CheckPassword("x", "$argon2id$v=19$m=99999999,t=2,p=1$AAAA$AAAA") {
		t.Fatal("an oversized cost was accepted")
	}
}

func TestEmailAndName(t *testing.T) {
	for in, want := range map[string]string{" Maker@Example.COM ": "maker@example.com", "no-at": "", "a@b": "", "a@b.": "",
		strings.Repeat("a", 250) + "@x.io": ""} {
		if got := NormalizeEmail(in); got != want {
			t.Errorf("NormalizeEmail(%.20q) = %q, want %q", in, got, want)
		}
	}
	if name, problem := CheckDisplayName("  Ada\x00 "); name != "Ada" || problem != "" {
		t.Errorf("CheckDisplayName = %q %q", name, problem)
	}
	if _, problem := CheckDisplayName("a\u200bb"); !strings.Contains(problem, "invisible") {
		t.Errorf("a zero-width space passed: %q", problem)
	}
}

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README is what a newcomer reads first: it stays short and points into
// docs/ for the rest.
const readmeMaxLines = 200

func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move the details into docs/", n, readmeMaxLines)
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link in README.md and docs/*.md names a file that exists
// and, for a #fragment into a Markdown file, a heading of that file.
func TestDocLinksResolve(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"README.md"}, files...)
	checked := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
			}
			checked++
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s links %q: %v", f, target, err)
				continue
			}
			if frag != "" && strings.HasSuffix(dest, ".md") && !hasAnchor(t, dest, frag) {
				t.Errorf("%s links %q: %s has no heading with that anchor", f, target, dest)
			}
		}
	}
	if checked == 0 {
		t.Error("no relative links found: the link pattern is broken")
	}
}

// hasAnchor reports whether a heading of the Markdown file has the anchor
// GitHub gives it: lower case, spaces as hyphens, other punctuation dropped.
func hasAnchor(t *testing.T, path, frag string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inCode := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		if headingAnchor(strings.TrimLeft(line, "# ")) == frag {
			return true
		}
	}
	return false
}

func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestHeadingAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"Pages on a phone":                    "pages-on-a-phone",
		"Linking a printer's host":            "linking-a-printers-host",
		"Writes at disk speed (group commit)": "writes-at-disk-speed-group-commit",
	} {
		if got := headingAnchor(h); got != want {
			t.Errorf("headingAnchor(%q) = %q, want %q", h, got, want)
		}
	}
}

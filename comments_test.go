package main

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A comment states its rule in a few words: a section number of the product
// spec or an issue number does not travel with the code.
var citation = regexp.MustCompile(`SPEC sections?\b|\bspec §|§ ?[0-9]|\bthe tracker\b|\b[Ii]ssue #?[0-9]+\b`)

// Test names and other strings must not cite the spec either.
var specInString = regexp.MustCompile(`SPEC sections?\b|\bspec §|§ ?[0-9]`)

// lineComment finds where a // comment starts on a line of JavaScript or
// TypeScript: at the start or after a space or bracket, so URLs do not count.
var lineComment = regexp.MustCompile(`(^|[\s;{(])//`)

func TestNoCommentCitesSpecOrIssue(t *testing.T) {
	var found []string
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", ".tools", "dist", "bin", "data", "test-results":
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		switch ext {
		case ".go", ".ts", ".tsx", ".mjs", ".js", ".py", ".sh":
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		if ext == ".go" {
			found = append(found, goCitations(path, src)...)
		} else {
			found = append(found, scriptCitations(path, ext, src)...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d source files checked: the walk is broken", checked)
	}
	for _, f := range found {
		t.Errorf("cites the spec or an issue instead of stating the rule: %s", f)
	}
}

// goCitations reads a Go file's comments with the Go scanner, so string
// literals (test data that numbers issues) never count.
func goCitations(path string, src []byte) []string {
	var out []string
	fset := token.NewFileSet()
	file := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT && citation.MatchString(lit) {
			out = append(out, fset.Position(pos).String()+": "+lineWith(citation.FindString(lit), lit))
		}
	}
}

// scriptCitations checks the comments of a JavaScript, TypeScript, Python or
// shell file line by line, and every line for a spec citation in a string.
func scriptCitations(path, ext string, src []byte) []string {
	var out []string
	inBlock := false
	hashComments := ext == ".py" || ext == ".sh"
	for i, line := range strings.Split(string(src), "\n") {
		comment := ""
		trimmed := strings.TrimSpace(line)
		open := strings.Index(line, "/*")
		switch {
		case inBlock:
			comment = line
		case hashComments && strings.HasPrefix(trimmed, "#"):
			comment = line
		case open >= 0:
			comment = line[open:]
		default:
			if loc := lineComment.FindStringIndex(line); loc != nil {
				comment = line[loc[0]:]
			} else if j := strings.Index(line, " #"); hashComments && j >= 0 {
				comment = line[j:]
			}
		}
		if open >= 0 && !strings.Contains(line[open:], "*/") {
			inBlock = true
		} else if inBlock && strings.Contains(line, "*/") {
			inBlock = false
		}
		if citation.MatchString(comment) || specInString.MatchString(line) {
			out = append(out, path+":"+strconv.Itoa(i+1)+": "+trimmed)
		}
	}
	return out
}

func lineWith(match, text string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, match) {
			return strings.TrimSpace(l)
		}
	}
	return match
}

package ai

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("CASE")
	for _, c := range loadCases(t) {
		if only != "" && !strings.Contains(c.ID, only) {
			continue
		}
		r := c.request()
		a := e.prepare(&r)
		res, _ := e.Analyze(context.Background(), r)
		rank := 0
		for i, s := range res.Steps {
			for _, p := range c.Expect {
				if regexp.MustCompile("(?i)"+p).MatchString(s.Title) && rank == 0 {
					rank = i + 1
				}
			}
		}
		if rank == 1 && only == "" {
			continue
		}
		fmt.Printf("== %s [%s] rank %d\n   fix: %s\n   expect %q\n", c.ID, c.Category, rank, c.Fix, c.Expect)
		if only != "" {
			fmt.Println("   DESC:", c.Description)
		}
		for _, s := range a.ranked[:4] {
			fmt.Printf("   %-36s tot %.2f text %.2f weak %.2f ev %q\n", e.kb.modes[s.mode].ID, s.total, s.text, s.weak, s.evidence)
		}
		for _, s := range res.Steps[:3] {
			fmt.Printf("     - %s\n", s.Title)
		}
	}
}

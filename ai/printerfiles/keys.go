package printerfiles

import (
	_ "embed"
	"strings"
	"sync"
)

// factsDoc is FACTS.md: its tables are the list of fact keys (a test keeps
// them equal to the keys the readers produce).
//
//go:embed FACTS.md
var factsDoc string

var (
	keysOnce sync.Once
	keySet   map[string]bool
)

// KnownKey reports whether key is a fact key documented in FACTS.md, so
// that rules written against the facts can be checked when they load.
func KnownKey(key string) bool {
	keysOnce.Do(func() {
		keySet = map[string]bool{}
		for _, line := range strings.Split(factsDoc, "\n") {
			rest, ok := strings.CutPrefix(line, "| `")
			if !ok {
				continue
			}
			if k, _, ok := strings.Cut(rest, "`"); ok {
				keySet[k] = true
			}
		}
	})
	return keySet[key]
}

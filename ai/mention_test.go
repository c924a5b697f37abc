package ai

import (
	"slices"
	"testing"
)

func TestPrinterMention(t *testing.T) {
	cases := []struct {
		brand, model string
		name         string // the knowledge base's name, "" for none
		alias        string // one of the other names returned
		maker        bool
	}{
		{"Creality", "Ender-3 V2", "Creality Ender 3 V2", "ender3v2", true},
		{"Prusa MK4", "Workshop Beast", "Original Prusa MK4", "mk4", false},
		{"Bambu Lab", "Bambu P1S", "Bambu Lab P1S", "p1s", true},
		{"Creality", "My big one", "Creality printer", "", true}, // a whole brand: no model names
		{"Homebrew", "Frankenprinter", "", "", false},
	}
	for _, c := range cases {
		names, maker := PrinterMention(c.brand, c.model)
		if c.name == "" {
			if len(names) != 0 {
				t.Errorf("%s %s: names %v, want none", c.brand, c.model, names)
			}
		} else if len(names) == 0 || names[0] != c.name {
			t.Errorf("%s %s: names %v, want %q first", c.brand, c.model, names, c.name)
		}
		if c.alias != "" && !slices.Contains(names, c.alias) {
			t.Errorf("%s %s: names %v lack %q", c.brand, c.model, names, c.alias)
		}
		if c.alias == "" && len(names) > 1 {
			t.Errorf("%s %s: names %v, want only the brand's name", c.brand, c.model, names)
		}
		if maker != c.maker {
			t.Errorf("%s %s: brand is a manufacturer = %v", c.brand, c.model, maker)
		}
	}
}

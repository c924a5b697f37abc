package printerfiles

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Configs as the firmware projects and vendors ship them
// (testdata/stock/README.md) are read as what they are: a Klipper config
// whose comments name Prusa's PINDA probe is no Prusa log, and an older
// config.g without quoted pin names is no Marlin M503 report.
func TestStockFilesRecognised(t *testing.T) {
	want := map[string]Kind{"klipper": KindKlipperConfig, "marlin": KindMarlinConfig, "rrf": KindRRFConfig}
	n := 0
	err := filepath.WalkDir("testdata/stock", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "README.md" || strings.HasSuffix(d.Name(), ".go") {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir, _, _ := strings.Cut(strings.TrimPrefix(filepath.ToSlash(path), "testdata/stock/"), "/")
		n++
		if got := Read([]File{{Name: d.Name(), Text: string(text)}}).Files[0].Kind; got != want[dir] {
			t.Errorf("%s read as %s, want %s", path, got, want[dir])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 250 {
		t.Fatalf("only %d stock files", n)
	}
}

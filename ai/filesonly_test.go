package ai

import (
	"encoding/json"
	"io/fs"
	pathpkg "path"
	"slices"
	"testing"
	"testing/fstest"
)

// withoutFilesOnlyModes is the embedded knowledge base with every
// files-only mode removed.
func withoutFilesOnlyModes(t *testing.T) (fs.FS, int) {
	t.Helper()
	sub := mustSub(t, kbFiles, "kb")
	out := fstest.MapFS{}
	removed := 0
	err := fs.WalkDir(sub, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, path)
		if err != nil {
			return err
		}
		if matched, _ := pathpkg.Match("modes/*.json", path); matched {
			var modes []map[string]any
			if err := json.Unmarshal(data, &modes); err != nil {
				return err
			}
			kept := slices.DeleteFunc(modes, func(m map[string]any) bool { return m["filesOnly"] == true })
			removed += len(modes) - len(kept)
			if data, err = json.Marshal(kept); err != nil {
				return err
			}
		}
		out[path] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, removed
}

// A mode only a file can reveal changes nothing for a maker who attached
// nothing: the same steps, in the same order, as without the mode, for
// every case of the embedded case base and the evaluation sets' words.
func TestFilesOnlyModesLeaveWordsAlone(t *testing.T) {
	withModes, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	fsys, removed := withoutFilesOnlyModes(t)
	if removed == 0 {
		t.Fatal("the knowledge base has no files-only mode to check")
	}
	cases, err := fs.Sub(caseFiles, "testdata/casebase")
	if err != nil {
		t.Fatal(err)
	}
	without, err := newEngineFS(fsys, cases)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []Request
	for _, file := range []string{"testdata/attach/train.json", "testdata/attach/dev.json", "testdata/attach/train2.json"} {
		for _, c := range withoutAttachments(loadEvalCases(t, file)) {
			reqs = append(reqs, c.Request())
		}
	}
	if len(reqs) < 100 {
		t.Fatalf("only %d requests", len(reqs))
	}
	for _, req := range reqs {
		a, errA := withModes.Analyze(t.Context(), req)
		b, errB := without.Analyze(t.Context(), req)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !slices.Equal(titles(a), titles(b)) {
			t.Errorf("%.60q: steps differ with the files-only modes:\n%v\n%v", req.Description, titles(a), titles(b))
		}
	}
}

package cases

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFiles checks how folders and files name case files, and that a file
// loads with its cases' ids and suites.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "cases")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"b.jsonl", "a.jsonl", "notes.md"} {
		if err := os.WriteFile(filepath.Join(sub, n), []byte(`{"id": "x", "program": [], "expect": {}}`+"\n\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{dir, sub} {
		fs, err := Files(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != 2 || filepath.Base(fs[0]) != "a.jsonl" || filepath.Base(fs[1]) != "b.jsonl" {
			t.Errorf("Files(%s) = %v, want a.jsonl and b.jsonl", p, fs)
		}
	}
	cs, err := Load(filepath.Join(sub, "b.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Suite != "b" || cs[0].Line != 1 {
		t.Errorf("Load: %+v", cs)
	}
}

// A panic that is not a *tensor.Error fails the case with where it happened.

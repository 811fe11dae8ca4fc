// Package cases reads conformance cases: the JSON-lines files of
// testdata/conformance (FORMAT.md), one case per line, with the values the
// runner decodes itself (TENSORs, ARGs, RESULTs) kept raw. It is shared by
// the conformance runner (internal/conform) and by the tests that run a
// suite on one layer alone (package shape runs the views suite on layouts).
package cases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one conformance case: one line of a cases/<suite>.jsonl file.
// JSON values that are decoded only when the case runs (TENSORs, ARGs,
// RESULTs) are kept raw.
type Case struct {
	ID    string // the case's id, or suite:line when it has none
	Suite string // the base name of its file, without .jsonl
	File  string
	Line  int

	Inputs    []Field // the named input TENSORs, in file order
	Program   []Step
	Expect    []Field // the expected RESULTs, in file order
	HasExpect bool
	Error     *ErrorSpec // nil unless the program must fail
	Grad      json.RawMessage
	Rtol      *float64 // with Atol, overrides the default tolerances
	Atol      *float64
}

// Field is a named JSON value of an object, kept in file order.
type Field struct {
	Name string
	JSON json.RawMessage
}

// Step is one STEP of a program.
type Step struct {
	Op     string
	Out    []string // the names its results are bound to
	Multi  bool     // out is a list: the op returns several tensors
	Args   []json.RawMessage
	Kwargs []Field
}

// ErrorSpec is a case's error section.
type ErrorSpec struct {
	Kind      string   `json:"kind"`
	Step      int      `json:"step"`
	Message   string   `json:"message"`
	Exact     bool     `json:"exact"`
	Unchanged []string `json:"unchanged"`
}

// Ops returns the names of the ops the case's program uses.
func (c *Case) Ops() []string {
	var ops []string
	for _, s := range c.Program {
		ops = append(ops, s.Op)
	}
	return ops
}

// Files lists the case files under paths as torch_runner.py does: a folder
// holding cases/ stands for the .jsonl files in cases/, a folder for its
// .jsonl files (sorted), and any other path for itself.
func Files(paths ...string) ([]string, error) {
	var files []string
	for _, p := range paths {
		if st, err := os.Stat(filepath.Join(p, "cases")); err == nil && st.IsDir() {
			p = filepath.Join(p, "cases")
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	return files, nil
}

// Load reads every case of the case files under paths (see [Files]).
func Load(paths ...string) ([]*Case, error) {
	files, err := Files(paths...)
	if err != nil {
		return nil, err
	}
	var cases []*Case
	for _, f := range files {
		cs, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		cases = append(cases, cs...)
	}
	return cases, nil
}

// ReadFile reads the cases of one .jsonl file, one per non-blank line. The
// suite of its cases is the file's base name without its extension.
func ReadFile(path string) ([]*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	suite := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var cases []*Case
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		c, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		c.Suite, c.File, c.Line = suite, path, i+1
		if c.ID == "" {
			c.ID = fmt.Sprintf("%s:%d", suite, i+1)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

type caseJSON struct {
	ID      string          `json:"id"`
	Inputs  json.RawMessage `json:"inputs"`
	Program []stepJSON      `json:"program"`
	Expect  json.RawMessage `json:"expect"`
	Error   *ErrorSpec      `json:"error"`
	Grad    json.RawMessage `json:"grad"`
	Rtol    *float64        `json:"rtol"`
	Atol    *float64        `json:"atol"`
}

type stepJSON struct {
	Out    json.RawMessage   `json:"out"`
	Op     string            `json:"op"`
	Args   []json.RawMessage `json:"args"`
	Kwargs json.RawMessage   `json:"kwargs"`
}

// Parse decodes one line of a case file.
func Parse(line []byte) (*Case, error) {
	var cj caseJSON
	if err := json.Unmarshal(line, &cj); err != nil {
		return nil, err
	}
	c := &Case{ID: cj.ID, Error: cj.Error, Rtol: cj.Rtol, Atol: cj.Atol}
	var err error
	if c.Inputs, err = Fields(cj.Inputs); err != nil {
		return nil, fmt.Errorf("inputs: %v", err)
	}
	if c.Expect, err = Fields(cj.Expect); err != nil {
		return nil, fmt.Errorf("expect: %v", err)
	}
	c.HasExpect = !IsNull(cj.Expect)
	if !IsNull(cj.Grad) {
		c.Grad = cj.Grad
	}
	for i, sj := range cj.Program {
		s := Step{Op: sj.Op, Args: sj.Args}
		if s.Kwargs, err = Fields(sj.Kwargs); err != nil {
			return nil, fmt.Errorf("step %d kwargs: %v", i, err)
		}
		var one string
		if err := json.Unmarshal(sj.Out, &one); err == nil {
			s.Out = []string{one}
		} else if err := json.Unmarshal(sj.Out, &s.Out); err == nil {
			s.Multi = true
		} else {
			return nil, fmt.Errorf("step %d: out must be a name or a list of names", i)
		}
		c.Program = append(c.Program, s)
	}
	return c, nil
}

// IsNull reports whether a JSON value is absent or null.
func IsNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// Fields decodes a JSON object keeping its fields in order (nil for null or absent).
func Fields(raw json.RawMessage) ([]Field, error) {
	if IsNull(raw) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("want an object")
	}
	var out []Field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, Field{Name: tok.(string), JSON: v})
	}
	return out, nil
}

//go:build amd64 && !purego

package vec

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAVX512Confined checks that AVX-512 code stays where Note [Kernel
// levels] (package cpufeat) puts it: the assembly files named for it
// (zz_*512_amd64.s) define only functions named ...AVX512 (other files
// may define some too; TestNoAVX512 keeps EVEX registers inside those),
// and the Go code calls them only under useAVX512 (in an if or a switch
// case whose condition names it).
func TestAVX512Confined(t *testing.T) {
	files, err := filepath.Glob("zz_*_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		is512 := strings.HasSuffix(f, "512_amd64.s")
		for _, fn := range strings.Split(string(b), "\nTEXT ")[1:] {
			name, _, _ := strings.Cut(fn, "(SB)")
			if is512 && !strings.HasSuffix(name, "AVX512") {
				t.Errorf("%s defines %s", f, name)
			}
			if strings.HasSuffix(name, "AVX512") {
				seen++
			}
		}
	}
	if seen == 0 {
		t.Error("no AVX-512 kernel found")
	}

	fset := token.NewFileSet()
	gofiles, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, f := range gofiles {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// the bodies guarded by useAVX512
		type span struct{ from, to token.Pos }
		var guarded []span
		names := func(e ast.Node) bool {
			found := false
			ast.Inspect(e, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == "useAVX512" {
					found = true
				}
				return true
			})
			return found
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.IfStmt:
				if names(s.Cond) {
					guarded = append(guarded, span{s.Body.Pos(), s.Body.End()})
				}
			case *ast.CaseClause:
				for _, e := range s.List {
					if names(e) {
						guarded = append(guarded, span{s.Colon, s.End()})
					}
				}
			}
			return true
		})
		ast.Inspect(file, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := c.Fun.(*ast.Ident)
			if !ok || !strings.HasSuffix(id.Name, "AVX512") {
				return true
			}
			calls++
			for _, g := range guarded {
				if c.Pos() >= g.from && c.End() <= g.to {
					return true
				}
			}
			t.Errorf("%s: %s called outside a useAVX512 branch", fset.Position(c.Pos()), id.Name)
			return true
		})
	}
	if calls != seen {
		t.Errorf("%d calls of AVX-512 kernels for %d kernels: each should have one dispatch", calls, seen)
	}
}

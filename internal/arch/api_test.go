package arch

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAPICovered checks that every exported function and method of the
// user API (package tensor) runs in some test: the package's own tests
// (the generated TestGeneratedAPI runs every generated one) and the
// conformance suite, measured with the coverage tool.
func TestAPICovered(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the tensor and conformance tests under the coverage tool")
	}
	profile := filepath.Join(t.TempDir(), "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-coverpkg="+module+"tensor", "-coverprofile="+profile,
		module+"tensor", module+"internal/conform")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -cover: %v\n%s", err, out)
	}
	covered := readProfile(t, profile)
	dir := packageDir(t, module+"tensor")
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || !fn.Name.IsExported() || fn.Body == nil || !exportedRecv(fn) {
					continue
				}
				n++
				start, end := fset.Position(fn.Body.Lbrace).Line, fset.Position(fn.Body.Rbrace).Line
				if !covered.any(filepath.Base(name), start, end) {
					t.Errorf("%s (%s:%d) runs in no test", funcName(fn), filepath.Base(name), start)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("found only %d exported functions", n)
	}
}

// exportedRecv reports whether fn is a function or a method of an exported type.
func exportedRecv(fn *ast.FuncDecl) bool {
	if fn.Recv == nil {
		return true
	}
	typ := fn.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	return typ.(*ast.Ident).Name + "." + fn.Name.Name
}

func packageDir(t *testing.T, pkg string) string {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// blocks holds the executed blocks of a coverage profile, by file name.
type blocks map[string][][2]int

func (b blocks) any(file string, start, end int) bool {
	for _, r := range b[file] {
		if r[0] <= end && r[1] >= start {
			return true
		}
	}
	return false
}

// readProfile reads the blocks that ran from a cover profile: lines
// "path/file.go:l0.c0,l1.c1 statements count".
func readProfile(t *testing.T, path string) blocks {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := blocks{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		pos, rest, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "mode:") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] == "0" {
			continue
		}
		file, span, _ := strings.Cut(pos, ":")
		from, to, _ := strings.Cut(span, ",")
		l0, _ := strconv.Atoi(strings.Split(from, ".")[0])
		l1, _ := strconv.Atoi(strings.Split(to, ".")[0])
		name := filepath.Base(file)
		b[name] = append(b[name], [2]int{l0, l1})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return b
}

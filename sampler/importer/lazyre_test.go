package importer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLazyPatternsCompile compiles every pattern given to lazy in the
// package's source, as regexp.MustCompile did at initialisation: a bad
// pattern fails here, not on the first paste that reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pkgs {
		ast.Inspect(p, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "lazy" || len(call.Args) != 1 {
				return true
			}
			src, ok := literal(call.Args[0])
			if !ok {
				t.Errorf("%s: lazy of a pattern that is not literal text", fset.Position(call.Pos()))
				return true
			}
			if _, err := regexp.Compile(src); err != nil {
				t.Errorf("%s: %v", fset.Position(call.Pos()), err)
			}
			n++
			return true
		})
	}
	if n < 80 {
		t.Fatalf("found %d patterns given to lazy, want the readers' ~90", n)
	}
}

// literal is the text of a string literal or a sum of them.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return s, err == nil && e.Kind == token.STRING
	case *ast.BinaryExpr:
		x, okx := literal(e.X)
		y, oky := literal(e.Y)
		return x + y, okx && oky && e.Op == token.ADD
	}
	return "", false
}

func TestLazyPatternIsTheCompiledOne(t *testing.T) {
	l := lazy(`GPU (\d+)`)
	if !l.MatchString("GPU 3") || l.MatchString("CPU 3") {
		t.Fatal("MatchString differs from the pattern's")
	}
	if m := l.FindStringSubmatch("x GPU 12 y"); len(m) != 2 || m[1] != "12" {
		t.Fatalf("FindStringSubmatch = %q", m)
	}
	if l.get() != l.get() {
		t.Fatal("compiled more than once")
	}
}

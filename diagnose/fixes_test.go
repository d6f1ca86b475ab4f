package diagnose

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryFirstFixIsListed: a fix missing from firstFixes has no
// Chinese held by ui/i18n's tests and cannot be found by FirstFix, so
// every fix{id, …} in this package's source must be listed, each id once.
func TestEveryFirstFixIsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, f := range firstFixes() {
		if f.id == "" || f.en == "" || listed[f.id] {
			t.Errorf("fix %q: empty or listed twice", f.id)
		}
		listed[f.id] = true
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) != 2 {
				return true
			}
			if typ, ok := lit.Type.(*ast.Ident); !ok || typ.Name != "fix" {
				return true
			}
			seen++
			if id, ok := literal(lit.Elts[0]); !ok || !listed[id] {
				t.Errorf("%s: fix %q is not in firstFixes", fset.Position(lit.Pos()), id)
			}
			return true
		})
	}
	if seen < len(listed) {
		t.Errorf("found %d fixes, fewer than the %d listed: the scan is broken", seen, len(listed))
	}
}

// A finding carries its fix's id beside the English, and the English of
// an old recording's finding still finds the id.
func TestFixIDBesideItsEnglish(t *testing.T) {
	if FirstFix("sync") != hintSync.en || FixIDOf(hintSync.en) != "sync" || FixIDOf("a log's own advice") != "" {
		t.Error("the id and the English of a fix do not find each other")
	}
}

// literal is the value of a string literal or a + of them.
func literal(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		v, err := strconv.Unquote(x.Value)
		return v, err == nil && x.Kind == token.STRING
	case *ast.BinaryExpr:
		a, okA := literal(x.X)
		b, okB := literal(x.Y)
		return a + b, okA && okB && x.Op == token.ADD
	case *ast.ParenExpr:
		return literal(x.X)
	}
	return "", false
}

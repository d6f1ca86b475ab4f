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

// TestEveryFirstFixHasAKey: a first fix without a key is shown in English
// whatever the reader's language (ui/i18n looks translations up by key), so
// every hint constant in this package's source must be in hintKeys.
func TestEveryFirstFixHasAKey(t *testing.T) {
	keyed := map[string]bool{}
	for _, k := range hintKeys() {
		keyed[k[0]] = true
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
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !strings.HasPrefix(id.Name, "hint") || len(id.Name) < 5 || id.Name[4] < 'A' || id.Name[4] > 'Z' {
						continue
					}
					seen++
					v, ok := "", i < len(vs.Values)
					if ok {
						v, ok = literal(vs.Values[i])
					}
					if !ok {
						t.Errorf("%s (%s): not a string literal this test can read", id.Name, fset.Position(id.Pos()))
					} else if !keyed[v] {
						t.Errorf("%s (%s) has no key in hintKeys", id.Name, fset.Position(id.Pos()))
					}
				}
			}
		}
	}
	if seen < len(hintKeys()) {
		t.Errorf("found %d hint constants, fewer than the %d keys: the scan is broken", seen, len(hintKeys()))
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

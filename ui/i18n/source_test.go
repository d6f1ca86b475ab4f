package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The catalogue tests read the English where it is written, in Go source:
// diagnose's say calls, sampler/doctor's, ui/cli's usagef.

// sourceCall is one call found in source: the function's name (a
// selector's last part: diagnose.Say is "Say"), its arguments, where it is.
type sourceCall struct {
	name string
	args []ast.Expr
	at   string
}

// sourceCalls parses the non-test Go files matching each glob (each must
// match some) and returns their calls to any of names, except those that
// spread a slice (say(id, en, kv...) inside the message helpers).
func sourceCalls(t *testing.T, globs []string, names ...string) []sourceCall {
	t.Helper()
	var out []sourceCall
	fset := token.NewFileSet()
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("sources %s: %v", g, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || call.Ellipsis.IsValid() {
					return true
				}
				var fn *ast.Ident
				switch f := call.Fun.(type) {
				case *ast.Ident:
					fn = f
				case *ast.SelectorExpr:
					fn = f.Sel
				}
				if fn != nil && slices.Contains(names, fn.Name) {
					out = append(out, sourceCall{fn.Name, call.Args, fset.Position(call.Pos()).String()})
				}
				return true
			})
		}
	}
	return out
}

// message reads a say-style call, say(id, English, name, value, …): its
// id, English template and sorted argument names; false (reported) when
// the id or the English is not a literal.
func (c sourceCall) message(t *testing.T) (id, en string, names []string, ok bool) {
	t.Helper()
	if len(c.args) < 2 {
		return "", "", nil, false
	}
	id, ok1 := literal(c.args[0])
	en, ok2 := literal(c.args[1])
	if !ok1 || !ok2 {
		t.Errorf("%s: %s's id and English must be string literals", c.at, c.name)
		return "", "", nil, false
	}
	for i := 2; i < len(c.args); i += 2 {
		name, ok := literal(c.args[i])
		if !ok {
			t.Errorf("%s: argument names must be string literals", c.at)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return id, en, names, true
}

// literal is a string literal, or a sum of them.
func literal(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, ok1 := literal(x.X)
		b, ok2 := literal(x.Y)
		return a + b, ok1 && ok2 && x.Op == token.ADD
	}
	return "", false
}

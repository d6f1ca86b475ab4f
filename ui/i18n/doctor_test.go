package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDoctorMessages: every say call of sampler/doctor (where a check's
// English is written) has its English in cli.en.toml, word for word, and
// Chinese with the same fields; the call passes exactly the fields its
// template uses; no doctor message is left over in the catalogue.
func TestDoctorMessages(t *testing.T) {
	files, err := filepath.Glob("../../sampler/doctor/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("doctor sources: %v", err)
	}
	en, zh := load(t, "cli.en.toml"), load(t, "cli.zh.toml")
	seen := map[string]bool{}
	fset := token.NewFileSet()
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
			if !ok {
				return true
			}
			if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "say" || len(call.Args) < 2 {
				return true
			}
			at := fset.Position(call.Pos()).String()
			id, ok1 := literal(call.Args[0])
			text, ok2 := literal(call.Args[1])
			if !ok1 || !ok2 {
				t.Errorf("%s: say's id and English must be string literals", at)
				return true
			}
			var names []string
			for i := 2; i < len(call.Args); i += 2 {
				name, _ := literal(call.Args[i])
				names = append(names, name)
			}
			slices.Sort(names)
			if got := fieldsOf(text); !slices.Equal(got, names) {
				t.Errorf("%s: %q uses fields %v but the call passes %v", at, id, got, names)
			}
			seen["doctor."+id] = true
			if e := en["doctor."+id]; e != text {
				t.Errorf("%s: cli.en.toml doctor.%s = %q, the source says %q", at, id, e, text)
			}
			if z, ok := zh["doctor."+id]; !ok || !slices.Equal(fieldsOf(z), fieldsOf(text)) {
				t.Errorf("%s: doctor.%s: Chinese %q missing or with other fields", at, id, z)
			}
			return true
		})
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d say calls in sampler/doctor", len(seen))
	}
	for id := range en {
		if (strings.HasPrefix(id, "doctor.seen.") || strings.HasPrefix(id, "doctor.fix.")) && !seen[id] {
			t.Errorf("%s: no such message in sampler/doctor (left over)", id)
		}
	}
}

package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestUsageErrorsTranslated: every usagef call of ui/cli (a usage error's
// format) has an id in cli.en.toml whose English is that format, word for
// word, and Chinese with the same verbs in the same order (fmt fills them
// by position); no usage.* message is left over.
func TestUsageErrorsTranslated(t *testing.T) {
	files, err := filepath.Glob("../cli/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("ui/cli sources: %v", err)
	}
	en, zh := load(t, "cli.en.toml"), load(t, "cli.zh.toml")
	byEnglish := map[string]string{}
	for id, s := range en {
		if strings.HasPrefix(id, "usage.") && id != "usage.line" {
			if prev, dup := byEnglish[s]; dup {
				t.Errorf("%s and %s have the same English %q", id, prev, s)
			}
			byEnglish[s] = id
		}
	}
	verbs := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
	used := map[string]bool{}
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
			if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "usagef" || len(call.Args) == 0 {
				return true
			}
			at := fset.Position(call.Pos()).String()
			format, ok := literal(call.Args[0])
			if !ok {
				t.Errorf("%s: usagef's format must be a string literal", at)
				return true
			}
			id, ok := byEnglish[format]
			if !ok {
				t.Errorf("%s: usage error %q has no id in cli.en.toml (usage.* = the format, word for word)", at, format)
				return true
			}
			used[id] = true
			if ve, vz := verbs.FindAllString(format, -1), verbs.FindAllString(zh[id], -1); !slices.Equal(ve, vz) {
				t.Errorf("%s: verbs %v in English, %v in Chinese (same order: fmt fills them by position)", id, ve, vz)
			}
			return true
		})
	}
	if len(used) < 20 {
		t.Fatalf("found only %d usagef calls in ui/cli", len(used))
	}
	for _, id := range byEnglish {
		if !used[id] {
			t.Errorf("%s: no usagef call has this format (left over)", id)
		}
	}
}

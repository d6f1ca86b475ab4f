package i18n

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// errTemplate is a message whose {{…}} is not a {{.Field}}.
var errTemplate = errors.New("i18n: a template action other than {{.Field}}")

// fill is src with each {{.Field}} replaced by data's Field, printed as
// text/template prints it (go-i18n's templates, which the messages are
// written for): a missing field is "<no value>", a pointer is followed.
// Any other action ({{if}}, a pipeline, spaces, trim markers) is an
// error, as text/template's would be for an undefined function; the
// catalogue has none (TestLookupAsGoI18n), and FuzzFill holds what fill
// writes equal to text/template's. Not text/template itself: its
// reflective method calls keep every exported method of every type in the
// binary (docs/benchmarks.md, "The binary's size: text/template's methods").
func fill(src string, data map[string]any) (string, error) {
	i := strings.Index(src, "{{")
	if i < 0 {
		return src, nil
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(src[:i])
		src = src[i+2:]
		j := strings.Index(src, "}}")
		if j < 0 || !isField(src[:j]) {
			return "", errTemplate
		}
		s, err := printed(data, src[1:j])
		if err != nil {
			return "", err
		}
		b.WriteString(s)
		src = src[j+2:]
		i = strings.Index(src, "{{")
	}
	b.WriteString(src)
	return b.String(), nil
}

// isField is ".Name": a dot and text/template's identifier (a letter or
// underscore, then letters, digits, underscores).
func isField(s string) bool {
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	for i, r := range s[1:] {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// printed is data's name as text/template prints a map's value
// (text/template's printableValue): absent or nil is "<no value>", a
// pointer is followed to its value unless it is nil or the pointer is
// the Stringer or error, a func or channel cannot be printed.
func printed(data map[string]any, name string) (string, error) {
	x := data[name]
	if x == nil {
		return "<no value>", nil
	}
	v := reflect.ValueOf(x)
	if v.Kind() == reflect.Pointer {
		for (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Pointer && !printable(v.Type()) && v.CanAddr() && printable(reflect.PointerTo(v.Type())) {
			v = v.Addr()
		}
		x = v.Interface()
	}
	if k := v.Kind(); (k == reflect.Chan || k == reflect.Func) && !printable(v.Type()) {
		return "", fmt.Errorf("i18n: can't print %s of type %s", name, v.Type())
	}
	return fmt.Sprint(x), nil
}

var (
	errorType    = reflect.TypeFor[error]()
	stringerType = reflect.TypeFor[fmt.Stringer]()
)

// printable is a type fmt prints by a method of its own.
func printable(t reflect.Type) bool {
	return t.Implements(errorType) || t.Implements(stringerType)
}

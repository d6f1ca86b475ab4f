package procsock

import (
	"strings"
	"testing"
)

func TestParseRequest(t *testing.T) {
	for _, ok := range []string{`{"version":1}`, "{\"version\":1}\n", ` { "version" : 1 } `} {
		if _, err := ParseRequest([]byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{``, `{}`, `{"version":2}`, `{"version":1,"pid":1}`, `{"version":1}{"version":1}`,
		`[1]`, `{"version":"1"}`, `{"version":1` + strings.Repeat(" ", MaxRequest) + `}`} {
		if _, err := ParseRequest([]byte(bad)); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestReadRequestIsBounded(t *testing.T) {
	if _, err := ReadRequest(strings.NewReader("{\"version\":1}\nmore")); err != nil {
		t.Errorf("one line: %v", err)
	}
	if _, err := ReadRequest(strings.NewReader(`{"version":1}`)); err != nil {
		t.Errorf("without a newline before EOF: %v", err)
	}
	_, err := ReadRequest(strings.NewReader(strings.Repeat("x", 10*MaxRequest)))
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("a long line: %v", err)
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{`{"version":1}`, "{\"version\":1}\n", `{"version":1e400}`, `{"version":-1}`, `{"version":1,"version":1}`, "\xff", `{"version":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := ParseRequest(b)
		if err == nil && q.Version != Version {
			t.Fatalf("%q accepted as version %d", b, q.Version)
		}
		q2, err2 := ReadRequest(strings.NewReader(string(b)))
		if err2 == nil && q2.Version != Version {
			t.Fatalf("%q read as version %d", b, q2.Version)
		}
	})
}

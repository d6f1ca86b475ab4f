package trace

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// parseEvent reads every event of the corpus as json.Unmarshal into
// rawEvent (the reflective decoder, with number's lenient UnmarshalJSONFrom)
// reads it.
func TestDecodeEventAsUnmarshal(t *testing.T) {
	files, _ := os.ReadDir("testdata")
	n := 0
	names := interner{}
	for _, f := range files {
		if !bytes.HasSuffix([]byte(f.Name()), []byte(".gz")) {
			continue
		}
		dec := jsontext.NewDecoder(bytes.NewReader(plain(t, f.Name())))
		for dec.PeekKind() != 0 {
			tok, err := dec.ReadToken()
			if err != nil {
				break
			}
			if tok.Kind() != '"' || tok.String() != "traceEvents" || dec.StackDepth() != 1 {
				continue
			}
			dec.ReadToken() // [
			for dec.PeekKind() == '{' {
				raw, err := dec.ReadValue()
				if err != nil {
					t.Fatal(err)
				}
				var want, got rawEvent
				if err := jsonv2.Unmarshal(raw, &want); err != nil {
					t.Fatalf("%s: %v", f.Name(), err)
				}
				if end, err := parseEvent(raw, 0, &got, names); err != nil || end != len(raw) {
					t.Fatalf("%s: %v at %d of %d", f.Name(), err, end, len(raw))
				}
				if got != want {
					t.Fatalf("%s: %s\ngot  %+v\nwant %+v", f.Name(), raw, got, want)
				}
				n++
			}
			break
		}
	}
	if n < 100000 {
		t.Errorf("only %d events compared", n)
	}
}

func TestParseNumberAsStrconv(t *testing.T) {
	for _, s := range []string{"0", "7", "-3", "1623142623460111", "1000.000", "12.5", "0.001", "-0.25", "1e3", "1.5E-2",
		"01", "-", ".5", "5.", "1.652", "123456789012345678901", "3.14159265358979", "1695835535123456.789", ""} {
		got, ok := parseNumber([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if ok != (err == nil) || (ok && got != want) {
			t.Errorf("parseNumber(%q) = %v %v, want %v (%v)", s, got, ok, want, err)
		}
	}
}

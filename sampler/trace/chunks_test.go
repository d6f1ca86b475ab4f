package trace

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

type readOut struct {
	events []Event
	meta   Meta
	err    string
}

func readBlocks(in []byte, workers, size int) readOut {
	var o readOut
	m, err := read(bytes.NewReader(in), func(e Event) error { o.events = append(o.events, e); return nil }, workers, size)
	o.meta = m
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// oracle reads a whole trace with the reflective decoder, one event at a
// time: what the reader must yield, whatever its blocks.
func oracle(t *testing.T, in []byte) []Event {
	t.Helper()
	var whole struct {
		TraceEvents []jsontext.Value `json:"traceEvents"`
	}
	if err := jsonv2.Unmarshal(in, &whole, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
		t.Fatal(err)
	}
	var out []Event
	for _, raw := range whole.TraceEvents {
		var ev rawEvent
		if err := jsonv2.Unmarshal(raw, &ev, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
			t.Fatal(err)
		}
		if ev.Ph == "X" {
			out = append(out, convert(&ev))
		}
	}
	return out
}

// sameInAnyBlocks reads in with blocks of many sizes and one or three
// workers, and wants the events, metadata and error of one block.
func sameInAnyBlocks(t *testing.T, name string, in []byte, sizes ...int) readOut {
	t.Helper()
	want := readBlocks(in, 1, len(in)+1)
	for _, size := range sizes {
		for _, workers := range []int{1, 3} {
			got := readBlocks(in, workers, size)
			if got.err != want.err || !reflect.DeepEqual(got.meta, want.meta) || !reflect.DeepEqual(got.events, want.events) {
				t.Fatalf("%s in blocks of %d, %d workers: %d events, %+v, %q\nwant %d events, %+v, %q",
					name, size, workers, len(got.events), got.meta, got.err, len(want.events), want.meta, want.err)
			}
		}
	}
	return want
}

// The real traces read alike in blocks of any size, cut anywhere, and as
// the reflective decoder reads them.
func TestBlocksReadRealTracesAlike(t *testing.T) {
	files, _ := os.ReadDir("testdata")
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".gz") {
			continue
		}
		in := plain(t, f.Name())
		got := sameInAnyBlocks(t, f.Name(), in, 1000, 65536, blockSize)
		if want := oracle(t, in); !reflect.DeepEqual(got.events, want) {
			t.Errorf("%s: %d events, the reflective decoder %d", f.Name(), len(got.events), len(want))
		}
	}
}

// Inputs that look like an event boundary where there is none, and the
// ways a trace is cut short or broken, in blocks as small as a byte.
func TestBlocksReadOddInputsAlike(t *testing.T) {
	ev := func(name, args string) string {
		return fmt.Sprintf(`{"ph": "X", "cat": "kernel", "name": %s, "ts": 1.5, "dur": 2, "args": %s}`, name, args)
	}
	valid := map[string]string{
		"a cut in a string":   `{"traceEvents": [` + ev(`"a}, {b"`, `{}`) + `, ` + ev(`"}, {\"ph\": \"X\"}, {"`, `{"stream": 7}`) + "]}",
		"escaped quotes":      `{"traceEvents":[` + ev(`"q\"}, {\"x"`, `{"note": "\\\"}, {"}`) + `,` + ev(`"\\"`, `{"correlation": 3}`) + `]}`,
		"nested args":         `{"traceEvents": [` + ev(`"n"`, `{"list": [{"a": 1}, {"b": [2, {"c": "}, {"}]}], "stream": 2, "o": {"p": {}}}`) + ",\n  " + ev(`"m"`, `{"m": [1, {"x": 2}]}`) + `]}`,
		"args not an object":  `{"traceEvents":[` + ev(`"m"`, `[1, {"x": 2}]`) + `,` + ev(`"n"`, `"s"`) + `]}`,
		"metadata around":     `{"deviceProperties": [{"id": 0, "name": "NVIDIA H100"}, {"id": 1}], "traceEvents": [` + ev(`"k"`, `{"device": 0}`) + `, {"ph": "M", "args": {}}], "distributedInfo": {"rank": 3, "world_size": 8}, "baseTimeNanoseconds": 1700000000000000000}`,
		"empty array":         `{"traceEvents": [], "traceName": "x"}`,
		"white space":         "{ \"traceEvents\" :\n[\n\n" + ev(`"w"`, `{}`) + " \n ,\t\r\n " + ev(`"v"`, `{}`) + "\n]\n}\n",
		"numbers as strings":  `{"traceEvents":[{"ph":"X","cat":"kernel","name":"s","pid":"12","tid":"7","ts":"3.25","dur":1e2,"args":{"stream":"9","bytes":-0.5e1}}]}`,
		"duplicate events":    `{"traceEvents":[` + ev(`"a"`, `{}`) + `],"traceEvents":[` + ev(`"b"`, `{}`) + `]}`,
		"an escaped key":      `{"trace\u0045vents":[` + ev(`"e"`, `{}`) + `]}`,
		"unicode":             `{"traceEvents":[` + ev(`"\u00e9t\u00e9 ✓"`, `{}`) + `]}`,
		"non-X events":        `{"traceEvents":[{"ph":"i"},{},{"ph":"X"},{"name":"no ph"}]}`,
		"literals in an args": `{"traceEvents":[` + ev(`"l"`, `{"a": true, "b": false, "c": null, "stream": null}`) + `]}`,
	}
	for name, in := range valid {
		got := sameInAnyBlocks(t, name, []byte(in), 1, 2, 3, 7, 16, 33, 100)
		if got.err != "" && !strings.Contains(got.err, "no GPU") {
			t.Errorf("%s: %s", name, got.err)
		}
		if name == "args not an object" || name == "duplicate events" { // json.Unmarshal refuses the args, keeps the last array
			if len(got.events) != 2 || got.events[1].Name != "n" && got.events[1].Name != "b" {
				t.Errorf("%s: %+v", name, got.events)
			}
			continue
		}
		if want := oracle(t, []byte(in)); !reflect.DeepEqual(got.events, want) {
			t.Errorf("%s: %+v\nthe reflective decoder %+v", name, got.events, want)
		}
	}
	whole := valid["nested args"]
	for name, c := range map[string]struct{ in, want string }{
		"truncated":            {whole[:len(whole)-20], "truncated"},
		"cut after a comma":    {whole[:strings.Index(whole, ",\n")+1], "truncated"},
		"cut in a string":      {whole[:strings.Index(whole, `"}, {"`)+2], "truncated"},
		"trailing comma":       {`{"traceEvents":[` + ev(`"a"`, `{}`) + `,]}`, "not valid JSON at byte 91"},
		"no comma":             {`{"traceEvents":[` + ev(`"a"`, `{}`) + ev(`"b"`, `{}`) + `]}`, "not valid JSON at byte 90"},
		"a number in events":   {`{"traceEvents":[` + ev(`"a"`, `{}`) + `, 5]}`, "not a JSON object"},
		"bad escape":           {`{"traceEvents":[` + ev(`"a\x"`, `{}`) + `]}`, "not valid JSON at byte 56"},
		"control character":    {"{\"traceEvents\":[" + ev("\"a\tb\"", `{}`) + `]}`, "not valid JSON at byte 55"},
		"bad literal":          {`{"traceEvents":[` + ev(`"a"`, `{"x": nul}`) + `]}`, "not valid JSON"},
		"bad number":           {`{"traceEvents":[` + ev(`"a"`, `{"x": 01}`) + `]}`, "not valid JSON"},
		"deep":                 {`{"traceEvents":[` + ev(`"a"`, strings.Repeat("[", 20000)) + `]}`, "not valid JSON"},
		"garbage after events": {`{"traceEvents":[` + ev(`"a"`, `{}`) + `] x}`, "not valid JSON"},
	} {
		got := sameInAnyBlocks(t, name, []byte(c.in), 1, 5, 16, 64)
		if !strings.Contains(got.err, c.want) || strings.Contains(got.err, "\n") {
			t.Errorf("%s: %q, want one line with %q", name, got.err, c.want)
		}
	}
}

// A cut is looked for before an event's '{' after "}," and white space.
func TestCutAt(t *testing.T) {
	for in, want := range map[string]int{
		`{"a":1}, {"b":2}`:    9,
		"{\"a\":1} ,\n\t{\"b": 11,
		`{"a":1}{"b":2}`:      14, // no comma: no cut
		`{"a":[{}, {}]`:       10, // a guess, checked by the reading
		`{"a":1`:              6,
	} {
		if got := cutAt([]byte(in)); got != want {
			t.Errorf("cutAt(%q) = %d, want %d", in, got, want)
		}
	}
}

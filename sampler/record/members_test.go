package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// readOutcome is all a Reader tells of a file: the header or the error
// opening it, the entries, the error that ended them, the warnings.
type readOutcome struct {
	openErr  string
	header   Header
	entries  []Entry
	err      string
	warnings []string
}

func readOutcomeOf(data []byte, o Options) readOutcome {
	var out readOutcome
	r, err := NewReader(bytes.NewReader(data), "f", o)
	if err != nil {
		out.openErr = err.Error()
		return out
	}
	defer r.Close()
	out.header = r.Header()
	for range 1 << 20 {
		e, err := r.Next()
		if err != nil {
			if err != io.EOF {
				out.err = err.Error()
			}
			break
		}
		out.entries = append(out.entries, e)
	}
	out.warnings = r.Warnings()
	return out
}

// sameOutcome says how b differs from a, or "".
func sameOutcome(a, b readOutcome) string {
	switch {
	case a.openErr != b.openErr:
		return fmt.Sprintf("open error %q, want %q", b.openErr, a.openErr)
	case a.err != b.err:
		return fmt.Sprintf("error %q, want %q", b.err, a.err)
	case !reflect.DeepEqual(a.warnings, b.warnings):
		return fmt.Sprintf("warnings %q, want %q", b.warnings, a.warnings)
	case len(a.entries) != len(b.entries):
		return fmt.Sprintf("%d entries, want %d", len(b.entries), len(a.entries))
	case !reflect.DeepEqual(a.header, b.header):
		return "the header differs"
	}
	for i := range a.entries {
		if !reflect.DeepEqual(a.entries[i], b.entries[i]) {
			return fmt.Sprintf("entry %d differs", i)
		}
	}
	return ""
}

// checkAsSerial reads data serially and on several cores, with the
// members reader's limits as they are and lowered to a few KB (its
// fallback), with a large and a small line buffer, and wants the same.
func checkAsSerial(t *testing.T, name string, data []byte) readOutcome {
	t.Helper()
	want := readOutcomeOf(data, Options{serialInflate: true})
	for _, o := range []Options{{}, {segmentMax: 3000}, {segmentMax: 40 << 10, bufBytes: 4096}} {
		if o.bufBytes > 0 {
			want := readOutcomeOf(data, Options{serialInflate: true, bufBytes: o.bufBytes})
			if d := sameOutcome(want, readOutcomeOf(data, o)); d != "" {
				t.Errorf("%s, %+v: %s", name, o, d)
			}
			continue
		}
		if d := sameOutcome(want, readOutcomeOf(data, o)); d != "" {
			t.Errorf("%s, %+v: %s", name, o, d)
		}
	}
	return want
}

// gzipMembers gzips text as one member per every lines, as the Writer
// does per linesPerMember.
func gzipMembers(text []byte, every int, name string) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	var out bytes.Buffer
	for i := 0; i < len(lines); i += every {
		zw := gzip.NewWriter(&out)
		zw.Name = name
		for _, l := range lines[i:min(i+every, len(lines))] {
			_, _ = zw.Write(l)
		}
		_ = zw.Close()
	}
	return out.Bytes()
}

// recordingText is the text of a recording of n realistic lines.
func recordingText(t testing.TB, n int) []byte {
	t.Helper()
	text, err := os.ReadFile(writeRealistic(t, "r.jsonl", n))
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// withLine replaces line i (0 the header) of text.
func withLine(text []byte, i int, line string) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	lines[i] = []byte(line + "\n")
	return bytes.Join(lines, nil)
}

// The Writer's own gzip recording, members of 600 lines, reads the same on
// several cores as serially.
func TestMembersReadWriterFileAsSerial(t *testing.T) {
	const n = 2*linesPerMember + 10
	path := writeRealistic(t, "r.jsonl.gz", n)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := checkAsSerial(t, "writer", data); len(got.entries) != n || got.err != "" || len(got.warnings) != 0 {
		t.Fatalf("serial read: %d entries, %q, %q", len(got.entries), got.err, got.warnings)
	}
	// Damaged in its second member: the first and third read, as serially.
	sig := data[:10]
	second := bytes.Index(data[10:], sig) + 10
	flipped := bytes.Clone(data)
	flipped[second+5000] ^= 0x55
	if got := checkAsSerial(t, "writer, damaged", flipped); len(got.warnings) == 0 {
		t.Errorf("the damaged member went unnoticed: %d entries", len(got.entries))
	}
}

// Odd and broken inputs read the same, with the same errors and warnings
// at the same line numbers, on several cores as serially.
func TestMembersReadOddInputsAsSerial(t *testing.T) {
	text := recordingText(t, 40)
	lines := bytes.Count(text, []byte("\n"))
	by7 := gzipMembers(text, 7, "")
	sig := by7[:10]
	var cuts []int // where each member after the first starts
	for i := 1; ; {
		j := bytes.Index(by7[i:], sig)
		if j < 0 {
			break
		}
		cuts = append(cuts, i+j)
		i += j + 1
	}
	if len(cuts) < 4 {
		t.Fatalf("%d members", len(cuts)+1)
	}
	flip := func(data []byte, at int) []byte {
		d := bytes.Clone(data)
		d[at] ^= 0xa5
		return d
	}
	named := append(append(gzipMembers(text[:bytes.Index(text, []byte("\n"))+1], 1, ""),
		gzipMembers(text[bytes.Index(text, []byte("\n"))+1:], 5, "x")...), gzipMembers([]byte("\n"), 1, "")...)
	cases := map[string][]byte{
		"a member a line":          gzipMembers(text, 1, ""),
		"members of 7 lines":       by7,
		"one member":               gzipMembers(text, lines+1, ""),
		"header only":              gzipMembers(text[:bytes.Index(text, []byte("\n"))+1], 1, ""),
		"header without newline":   gzipMembers(text[:bytes.Index(text, []byte("\n"))], 1, ""),
		"empty gzip":               gzipMembers(nil, 1, ""),
		"empty":                    nil,
		"a gzip header only":       bytes.Clone(sig),
		"named members":            named,
		"all named":                gzipMembers(text, 3, "x"),
		"bad JSON line":            gzipMembers(withLine(text, 9, `{"seq":`), 4, ""),
		"another format's line":    gzipMembers(withLine(text, 15, `timestamp, name, pci.bus_id, driver_version`), 4, ""),
		"a second header":          gzipMembers(withLine(text, 20, string(text[:bytes.Index(text, []byte("\n"))])), 4, ""),
		"torn last line":           gzipMembers(text[:len(text)-100], 6, ""),
		"damaged in a member":      flip(by7, cuts[1]+200),
		"damaged member header":    flip(by7, cuts[2]+1),
		"damaged trailer":          flip(by7, cuts[0]-3),
		"cut in a member":          by7[:cuts[2]+300],
		"cut at a member's end":    by7[:cuts[3]],
		"cut in a member's header": by7[:cuts[3]+4],
		"cut in the trailer":       by7[:len(by7)-2],
		"trailing garbage":         append(bytes.Clone(by7), "garbage\n"...),
		"a header's bytes after":   append(bytes.Clone(by7), sig...),
		"first line damaged":       flip(by7, 40),
	}
	for name, data := range cases {
		checkAsSerial(t, name, data)
	}
}

// GPUSCOPE_BENCH_RECORDING (a day of the mixed demo) reads the same on
// several cores as serially, entry by entry.
func TestMembersReadDayAsSerial(t *testing.T) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		t.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	open := func(o Options) *Reader {
		r, err := OpenOptions(path, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := open(Options{serialInflate: true}), open(Options{})
	defer a.Close()
	defer b.Close()
	for n := 0; ; n++ {
		ea, erra := a.Next()
		eb, errb := b.Next()
		if erra != errb || !reflect.DeepEqual(ea, eb) {
			t.Fatalf("entry %d differs (%v, %v)", n, erra, errb)
		}
		if erra != nil {
			t.Logf("%d entries alike", n)
			break
		}
	}
	if !reflect.DeepEqual(a.Warnings(), b.Warnings()) {
		t.Errorf("warnings %q, want %q", b.Warnings(), a.Warnings())
	}
}

// FuzzMembers gzips any text in members of 1 to 16 lines, damages a byte
// or cuts the file where the input says, and wants the same read on
// several cores as serially.
// Seeds are small (a GPU or two a line): the fuzzer minimizes every new
// input, and a recording's 8-GPU lines held it for minutes (FuzzReader).
func FuzzMembers(f *testing.F) {
	text := []byte(`{"gpuscope_recording":3,"host":"h","gpus":[{"index":0}],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}` + "\n" +
		`{"time":"2026-05-01T12:00:01Z","seq":1,"node":{"hostname":"h"},"gpus":[{"index":0,"util":7,"power":158.5}]}` + "\n" +
		`{"time":"2026-05-01T12:00:02Z","seq":2,"node":{"hostname":"h"},"gpus":[{"index":0,"util":9}],"same_gpus":[0]}` + "\n" +
		`{"time":"2026-05-01T12:00:03Z","seq":3,"node":{"hostname":"h"},"gpus":[{"index":0},{"index":1,"temp":40}]}` + "\n")
	f.Add(text, uint8(2), uint16(0), uint16(0))
	f.Add(text, uint8(0), uint16(150), uint16(0))
	f.Add(text, uint8(3), uint16(0), uint16(200))
	f.Add([]byte("{\"gpuscope_recording\":3}\n{\n\n{}"), uint8(1), uint16(31), uint16(0))
	f.Fuzz(func(t *testing.T, text []byte, every uint8, flip, cut uint16) {
		data := gzipMembers(text, int(every%16)+1, "")
		if flip > 0 && int(flip) < len(data) {
			data[flip] ^= 0x5a
		}
		if cut > 0 && int(cut) < len(data) {
			data = data[:cut]
		}
		want := readOutcomeOf(data, Options{serialInflate: true, bufBytes: 512})
		for _, o := range []Options{{bufBytes: 512}, {bufBytes: 512, segmentMax: 200}} {
			if d := sameOutcome(want, readOutcomeOf(data, o)); d != "" {
				t.Fatalf("%+v: %s", o, d)
			}
		}
	})
}

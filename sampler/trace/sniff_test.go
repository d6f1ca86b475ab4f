package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func TestSniffTellsTracesFromOtherJSON(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write([]byte(s))
		_ = zw.Close()
		return b.Bytes()
	}
	for in, want := range map[string]bool{
		"{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": []": true,
		`{"traceEvents": [`:                    true,
		string(gz(`{"traceEvents": []}`)):      true,
		`{"gpuscope_recording": 2}`:            false,
		`[{"name": "aten::mm", "ph": "X"}]`:    false,
		"timestamp, name, utilization.gpu [%]": false,
		"":                                     false,
		string(gz(`{"lr": 0.1}`)):              false,
	} {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%.30q) = %v, want %v", in, got, want)
		}
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"a.pt.trace.json": `{"traceEvents": []}`, "notes.json": `{"lr": 1}`, "b.txt": `{"traceEvents": []}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := InDir(dir)
	if err != nil || len(got) != 1 || filepath.Base(got[0]) != "a.pt.trace.json" {
		t.Errorf("InDir: %v %v", got, err)
	}
	ok, err := IsTraceFile(filepath.Join("testdata", "tb_resnet50_workers0.pt.trace.json.gz"))
	if !ok || err != nil {
		t.Errorf("the corpus trace not recognised: %v", err)
	}
}

func FuzzSniff(f *testing.F) {
	f.Add([]byte(`{"traceEvents": [`))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) { Sniff(b) })
}

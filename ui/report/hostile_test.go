package report

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// TestHostileRecordingIsEscaped: a recording someone sends you, whose host,
// GPU and process strings hold escape sequences, prints them escaped in the
// text and markdown report and comparison.
func TestHostileRecordingIsEscaped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostile\x1b[2J.jsonl")
	t0 := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	snap := func(i int) sampler.Snapshot {
		p := &sampler.Proc{PID: 9, User: "mal\x1b]0;TITLE\a", Cmdline: "python \x1b]0;PWNED\a \x1b[2J"}
		return sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i + 1),
			Node: sampler.Node{Hostname: "node\x1b]0;TITLE\a", Driver: "550\x1b[2J", CUDA: "12.4"},
			GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200\x1b[2J", UUID: "GPU-\a", Util: sampler.Some(0),
				MemUsed: sampler.Some(60 << 30), MemTotal: sampler.Some(140 << 30),
				Procs: []sampler.GPUProc{{PID: 9, Type: "C", MemUsed: sampler.Some(60 << 30), Host: p}}}},
			Host: &sampler.Host{Procs: map[int]*sampler.Proc{9: p}},
		}
	}
	w, err := record.Create(path, record.HeaderFor(snap(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if err := w.Write(record.Entry{Snapshot: snap(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := importer.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := summary.BuildFrom(f, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := summary.Compare(r, r)
	for name, render := range map[string]func(*strings.Builder) error{
		"text":             func(b *strings.Builder) error { return Text(b, r) },
		"markdown":         func(b *strings.Builder) error { return Markdown(b, r) },
		"compare text":     func(b *strings.Builder) error { return CompareText(b, c) },
		"compare markdown": func(b *strings.Builder) error { return CompareMarkdown(b, c) },
	} {
		var b strings.Builder
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\a") {
			t.Errorf("%s: control characters reach the terminal:\n%q", name, b.String())
		}
		if !strings.Contains(b.String(), "^[") {
			t.Errorf("%s: hostile strings not shown escaped:\n%s", name, b.String())
		}
	}
}

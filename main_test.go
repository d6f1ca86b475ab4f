package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/record/spool"
)

// Each user mistake gets exactly one line on stderr and exit status 2.
func TestBadInputOneLineExit2(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--bogus"}, "unknown flag: --bogus"},
		{"bad theme", []string{"--demo", "--theme", "neon"}, "neon"},
		{"bad scenario", []string{"--demo=nosuch", "--once"}, "nosuch"},
		{"interval too small", []string{"--demo", "--interval", "10ms"}, "out of range"},
		{"interval too large", []string{"--demo", "--interval", "2m"}, "out of range"},
		{"interval not a duration", []string{"--interval", "fast"}, "invalid argument"},
		{"json without once", []string{"--demo", "--json"}, "--json needs --once"},
		{"unknown rule", []string{"explain", "nosuch"}, "unknown rule"},
		{"stray argument", []string{"extra"}, "unknown command"},
		{"subcommand unknown flag", []string{"report", "--bogus", "x.jsonl"}, "unknown flag: --bogus"},
		{"subcommand missing argument", []string{"report"}, "report needs FILE"},
		{"compare with one file", []string{"compare", "a.jsonl"}, "wrong number of arguments (1); usage: gpuscope compare BASE AFTER"},
		{"mistyped command", []string{"reprot", "x.jsonl"}, `did you mean "report"?`},
		{"explain with two rules", []string{"explain", "a", "b"}, "wrong number of arguments (2); usage: gpuscope explain [RULE]"},
		{"record flag without value", []string{"record", "-o"}, "flag needs an argument"},
		{"compare stdin twice", []string{"compare", "-", "-"}, "standard input can be read once"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(c.args, &out, &errb)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, errb.String())
			}
			msg := errb.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") {
				t.Fatalf("want exactly one line on stderr, got %q", msg)
			}
			if !strings.Contains(msg, c.want) {
				t.Fatalf("stderr %q does not mention %q", msg, c.want)
			}
		})
	}
}

func TestOnceDemoText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--demo", "--once"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	for i := 0; i < 8; i++ {
		if !strings.Contains(text, "["+string(rune('0'+i))+"] H200") {
			t.Errorf("GPU %d missing from --once output:\n%s", i, text)
		}
	}
	if !strings.Contains(text, "demo:mixed") {
		t.Errorf("source badge missing:\n%s", text)
	}
}

func TestOnceDemoJSONIsASnapshot(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--demo=healthy", "--once", "--json", "--seed", "7"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var snap sampler.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatalf("--once --json is not a snapshot: %v", err)
	}
	if len(snap.GPUs) != 8 || !snap.GPUs[0].Util.OK || snap.Host == nil {
		t.Fatalf("snapshot incomplete: %d GPUs, util %+v, host %v", len(snap.GPUs), snap.GPUs[0].Util, snap.Host != nil)
	}
}

func TestDemoListAndExplain(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--demo=list"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "input_starved") {
		t.Fatalf("--demo=list: exit %d, out %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"explain", "input_starved"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "input_starved") {
		t.Fatalf("explain: exit %d, out %q", code, out.String())
	}
}

// The rule ids are a public interface held in two places (diagnose.Rules for
// the engine, docs for the playbook): they must agree, and explain must print
// every page.
func TestExplainEveryRule(t *testing.T) {
	var want []string
	for _, ri := range diagnose.Rules {
		want = append(want, ri.ID)
	}
	if ids := docs.Rules(); !slices.Equal(ids, slices.Sorted(slices.Values(want))) {
		t.Fatalf("docs has pages %v, diagnose the rules %v", ids, want)
	}
	for _, ri := range diagnose.Rules {
		var out, errb bytes.Buffer
		if code := run([]string{"explain", ri.ID}, &out, &errb); code != 0 {
			t.Errorf("explain %s: exit %d: %s", ri.ID, code, errb.String())
		}
		if !strings.HasPrefix(out.String(), "# "+ri.ID+" ") || !strings.Contains(out.String(), "## Confirm it") {
			t.Errorf("explain %s: page does not look right:\n%.200s", ri.ID, out.String())
		}
	}
}

func TestRecordDemoFastAndReadBack(t *testing.T) {
	path := t.TempDir() + "/r.jsonl.gz"
	var out, errb bytes.Buffer
	if code := run([]string{"record", "-o", path, "--demo=input_starved", "--duration", "3m"}, &out, &errb); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errb.String())
	}
	r, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, starved := 0, false
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		n++
		var fs []diagnose.Finding
		if err := json.Unmarshal(e.Findings, &fs); err != nil {
			t.Fatalf("line %d findings: %v", n, err)
		}
		for _, f := range fs {
			starved = starved || (f.Rule == "input_starved" && f.GPU == 0)
		}
	}
	if n != 180 || !starved {
		t.Fatalf("read %d snapshots (want 180); input_starved recorded: %v", n, starved)
	}
}

// replay: a missing file is one line and exit 1; a file without snapshots
// says so; a speed not on the list is a usage error.
func TestReplayBadFiles(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	w, err := record.Create(empty, record.Header{Host: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nosuch.jsonl")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay", missing}, 1, missing + ": no such file or directory: check the path"},
		{[]string{"replay", empty}, 1, empty + ": no snapshots"},
		{[]string{"replay", empty, "--speed", "3"}, 2, "--speed 3: use 0.5, 1, 2, 5, 10, 60"},
		{[]string{"replay"}, 2, "wrong number of arguments (0); usage: gpuscope replay FILE|TRACE"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		msg := errb.String()
		if code != c.code || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, msg, c.code, c.want)
		}
	}
}

// replay loads a whole recording (gzip detected from the content) in order.
func TestReplayLoadsARecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl.gz")
	var out, errb bytes.Buffer
	if code := run([]string{"record", "-o", path, "--demo=input_starved", "--duration", "30s"}, &out, &errb); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errb.String())
	}
	tl, warnings, err := spool.Load(path)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("load: %v, warnings %v", err, warnings)
	}
	if len(tl) != 30 || !tl[29].Time.After(tl[0].Time) || len(tl[0].GPUs) != 8 {
		t.Fatalf("%d snapshots, %d GPUs, from %s to %s", len(tl), len(tl[0].GPUs), tl[0].Time, tl[len(tl)-1].Time)
	}
}

// --once --lang zh prints its words in Chinese; --json keeps its English
// keys whatever the language (scripts parse them).
func TestOnceChinese(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--demo", "--once", "--lang", "zh"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"驱动", "8 张 GPU", "[0] H200", "利用率", "显存", "主机"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in --once --lang zh:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run([]string{"--demo=healthy", "--once", "--json", "--lang", "zh"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"gpus"`) || strings.ContainsFunc(out.String(), func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
		t.Errorf("--once --json --lang zh is not the English-keyed snapshot:\n%.400s", out.String())
	}
}

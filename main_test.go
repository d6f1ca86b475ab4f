package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
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

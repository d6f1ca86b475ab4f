package main

import (
	"bytes"
	"strings"
	"testing"
)

// --gpus shows only the GPUs chosen, on every command that samples; a bad
// list is one line and exit 2; a list that matches nothing says so.
func TestGPUsFlagSelects(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--demo", "--once", "--gpus", "2,5"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	if !strings.Contains(s, " 2 GPUs ") || !strings.Contains(s, "\n[2] ") || !strings.Contains(s, "\n[5] ") || strings.Contains(s, "\n[0] ") {
		t.Errorf("--gpus 2,5:\n%s", s)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"--demo", "--once", "--gpus", "9"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "--gpus 9: no GPU of this node matches (it has 8") {
		t.Errorf("--gpus 9: exit %d\n%s%s", code, out.String(), errb.String())
	}
	for _, args := range [][]string{
		{"--demo", "--once", "--gpus", "0,x"},
		{"check", "--demo", "--gpus", "-1"},
		{"record", "--demo", "-o", t.TempDir() + "/r.jsonl", "--gpus", ""},
	} {
		errb.Reset()
		code := run(args, &out, &errb)
		if args[len(args)-1] == "" { // empty: every GPU, not an error
			if code != 0 {
				t.Errorf("%v: exit %d: %s", args, code, errb.String())
			}
			continue
		}
		want := 2
		if args[0] == "check" {
			want = 3 // check keeps 1 and 2 for findings (docs/exit-status.md)
		}
		if code != want || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "--gpus") {
			t.Errorf("%v: exit %d, %q; want one line naming --gpus and exit %d", args, code, errb.String(), want)
		}
	}
	// check judges the GPUs chosen: the demo's input_starved is on GPU 0.
	out.Reset()
	code := run([]string{"check", "--demo=input_starved", "--gpus", "3"}, &out, &errb)
	if !strings.Contains(out.String(), "no findings") || !strings.Contains(out.String(), " 1 GPU ") || code != 0 {
		t.Errorf("check --gpus 3 on input_starved (GPU 0): exit %d\n%s", code, out.String())
	}
}

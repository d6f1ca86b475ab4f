package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A pasted nvidia-smi table cut inside its column header (the header box's
// lines, no GPU row), as a thread's excerpt or a scrollback stops: every
// face refuses it saying nothing about the GPUs was judged, rather than
// "FINDINGS: none" or "no findings" over zero GPUs; a reader of another
// part of the same paste still judges what it read
// (sampler/importer/smitable_cut.go noGPURow).
const cutInHeader = "Thu Nov 17 18:21:27 2022\n" +
	"+-----------------------------------------------------------------------------+\n" +
	"| NVIDIA-SMI 520.56.06    Driver Version: 520.56.06    CUDA Version: 11.8     |\n" +
	"|-------------------------------+----------------------+----------------------+\n" +
	"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
	"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n"

func TestPasteWithoutGPURowNotJudged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cut.txt")
	if err := os.WriteFile(path, []byte(cutInHeader), 0o644); err != nil {
		t.Fatal(err)
	}
	const why = "the table is cut before its first GPU row (driver 520.56.06): nothing about the GPUs was judged"
	for _, args := range [][]string{
		{"report", path},
		{"report", "--format", "json", path},
		{"report", "--format", "markdown", path},
		{"check", "--from", path},
		{"check", "--from", path, "--json"},
	} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code == 0 || code == 4 || !strings.Contains(errb.String(), why) {
			t.Errorf("%v: exit %d, want an error saying %q\nstderr: %s", args, code, why, errb.String())
		}
		for _, clean := range []string{"none", "None.", "no findings", `"findings": []`, "[ok"} {
			if strings.Contains(out.String(), clean) {
				t.Errorf("%v: stdout claims a verdict (%q):\n%s", args, clean, out.String())
			}
		}
	}

	// The same cut table beside a kernel log's Xid line: the Xid is read
	// and judged, the table is named as skipped with its reason.
	mixed := filepath.Join(dir, "mixed.txt")
	xid := "[ 1234.567890] NVRM: Xid (PCI:0000:17:00): 79, pid=0, GPU has fallen off the bus.\n"
	if err := os.WriteFile(mixed, []byte(cutInHeader+"\n"+xid), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"report", mixed}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	for _, want := range []string{"skipped: " + why, "Xid 79"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

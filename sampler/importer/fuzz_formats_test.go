package importer

import (
	"strings"
	"testing"
)

// FuzzDiag feeds arbitrary lines to the dcgmi diag reader directly (seeds:
// the corpus's diag tables of DCGM 2.x-4.x and the tests' own): no panic,
// no more checks or messages than lines, no GPU index beyond a node's,
// and a claimed run never longer than the input.
func FuzzDiag(f *testing.F) {
	pasteSeeds(f) // the corpus: its diag tables, and boxes of other tools the reader must not take
	f.Add([]byte(diagHeader + diagHW + diagRow("memory", "Fail") + diagRow("", "GPU1: Fail") + diagMsg("Warning: GPU1", busyMsg)))
	f.Add([]byte(diagInteg + diagRow("PCIe", "Pass - GPUs: 0, 1") + diagRow("", "Skip - GPU: 2") + diagMsg("Info", busyMsg)))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := fuzzLines(t, data, diagRun)
		p := parseDiag(&section{kind: kindDiag, first: 1, lines: lines})
		if p.skipped != "" {
			return
		}
		snap := p.snaps[0]
		if len(snap.GPUs) > maxPictureGPUs || len(snap.Node.Diag) > len(lines) {
			t.Fatalf("%d GPUs, %d checks from %d lines", len(snap.GPUs), len(snap.Node.Diag), len(lines))
		}
		msgs := 0
		for _, c := range snap.Node.Diag {
			msgs += len(c.Messages)
			for _, m := range c.Messages {
				if m.GPU >= maxPictureGPUs {
					t.Fatalf("message GPU %d", m.GPU)
				}
			}
		}
		if msgs > len(lines) {
			t.Fatalf("%d messages from %d lines", msgs, len(lines))
		}
	})
}

// FuzzMIG feeds arbitrary lines to the mig -lgi/-lci/-lgip reader: no
// panic, every GPU MIG-enabled and within a node's count, no more
// instances than lines.
func FuzzMIG(f *testing.F) {
	pasteSeeds(f)
	f.Add([]byte(migLGI + migLCI))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := fuzzLines(t, data, migRun)
		p := parseMIG(&section{kind: kindMIG, first: 1, lines: lines})
		if p.skipped != "" {
			return
		}
		devs := 0
		for _, g := range p.snaps[0].GPUs {
			if !g.MIG || g.Index >= maxPictureGPUs {
				t.Fatalf("GPU %d MIG %v", g.Index, g.MIG)
			}
			devs += len(g.MIGDevices)
		}
		if devs > len(lines) {
			t.Fatalf("%d instances from %d lines", devs, len(lines))
		}
	})
}

// fuzzLines splits data into lines and holds the recogniser to claiming
// no more lines than there are.
func fuzzLines(t *testing.T, data []byte, run func([]string, int) int) []string {
	lines := strings.Split(string(data), "\n")
	if n := run(lines, 0); n > len(lines) {
		t.Fatalf("run claims %d of %d lines", n, len(lines))
	}
	return lines
}

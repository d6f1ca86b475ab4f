package importer

import "testing"

// Every provisional index is negative (never a GPU a table numbers) and
// distinct, and two GPUs a kernel log knows only by address stay two GPUs,
// placed after the table's own.
func TestProvisionalIndex(t *testing.T) {
	seen := map[int]bool{}
	for n := 0; n < 64; n++ {
		i := provisionalIndex(n)
		if i >= 0 || seen[i] {
			t.Fatalf("provisionalIndex(%d) = %d: not negative or not distinct", n, i)
		}
		seen[i] = true
	}
	in := "[  5.1] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n" +
		"[  6.2] NVRM: Xid (PCI:0000:d8:00): 79, pid=0, GPU has fallen off the bus.\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[int]string{}
	for _, s := range snaps {
		for _, g := range s.GPUs {
			if g.Index < 0 {
				t.Errorf("GPU %s left with provisional index %d after merge", g.BusID, g.Index)
			}
			if b, ok := idx[g.Index]; ok && b != g.BusID {
				t.Errorf("GPUs %s and %s share index %d", b, g.BusID, g.Index)
			}
			idx[g.Index] = g.BusID
		}
	}
	if len(idx) != 2 {
		t.Errorf("want 2 GPUs, got %v", idx)
	}
}

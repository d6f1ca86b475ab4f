package importer

import "testing"

// nvidia-smi's infoROM warning lands on the GPU of the table it names by
// bus id (a 4-digit domain against the table's 8), not on a GPU of its own.
func TestInfoROMWarningOnItsGPU(t *testing.T) {
	in := table418 + "WARNING: infoROM is corrupted at gpu 0000:00:1E.0\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 {
		t.Fatalf("snaps %+v, err %v", snaps, err)
	}
	n := 0
	for _, g := range snaps[0].GPUs {
		if g.InfoROMCorrupt {
			n++
			if g.Index < 0 || g.Lost {
				t.Errorf("infoROM warning on GPU %d (lost %v)", g.Index, g.Lost)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d GPUs with a corrupted infoROM of %d, want 1", n, len(snaps[0].GPUs))
	}
}

package importer

import "testing"

// A paste that begins inside the table's MIG devices box, below its
// "MIG devices:" header ("GPU GI CI MIG | Memory-Usage | SM Unc ECC |
// CE ENC DEC OFA JPG"), reads its rows as MIG devices of the GPU in their
// first column: not as GPUs named by their instance ids, and an instance
// nearly full is not a GPU nearly full.
func TestMIGRowsWithoutTheirHeader(t *testing.T) {
	const in = "|  0    1   0   0  |   9900MiB /  9984MiB | 14      0 |  1   0    0    0    0 |\n" +
		"|                  |      0MiB / 16383MiB |           |                       |\n" +
		"+------------------+----------------------+-----------+-----------------------+\n" +
		"|  0    2   0   1  |     13MiB /  9984MiB | 14      0 |  1   0    0    0    0 |\n" +
		"|                  |      0MiB / 16383MiB |           |                       |\n" +
		"+------------------+----------------------+-----------+-----------------------+\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("snaps %+v, err %v; want one GPU", snaps, err)
	}
	g := snaps[0].GPUs[0]
	if g.Index != 0 || g.Name != "" || !g.MIG || len(g.MIGDevices) != 2 || g.MemTotal.OK {
		t.Errorf("GPU %+v: want GPU 0, unnamed, MIG with two devices, no memory of its own", g)
	}
	if d := g.MIGDevices[0]; d.GPUInstance != 1 || d.MemUsed.V != 9900<<20 {
		t.Errorf("first MIG device %+v: want GI 1 holding 9900 MiB", d)
	}
}

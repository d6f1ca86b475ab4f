package importer

import (
	"testing"
)

// lspci prints a function's revision from its config space; an NVIDIA
// display or 3D controller at "(rev ff)" answered all ones, so it is not
// responding: read as a GPU lost at that address, in lspci's plain and
// -nn forms, with or without the domain. Its audio or USB functions, a
// GPU at a real revision and other vendors' devices are not GPUs lost.
func TestLspciRevFFIsLostGPU(t *testing.T) {
	in := "3b:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 40GB] (rev a1)\n" +
		"5e:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 40GB] (rev ff)\n" +
		"0000:b1:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] [10de:2684] (rev ff)\n" +
		"0000:b1:00.1 Audio device [0403]: NVIDIA Corporation AD102 High Definition Audio Controller [10de:22ba] (rev ff)\n" +
		"d8:00.0 Ethernet controller: Mellanox Technologies MT28908 Family [ConnectX-6] (rev ff)\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) == 0 {
		t.Fatalf("not read: %v", err)
	}
	lost := map[string]bool{}
	for _, g := range snaps[len(snaps)-1].GPUs {
		if g.Lost {
			lost[normBus(g.BusID)] = true
		}
	}
	if len(lost) != 2 || !lost["5e:00"] || !lost["b1:00"] {
		t.Errorf("lost GPUs at %v, want 5e:00 and b1:00", lost)
	}
	if _, _, err := readString("3b:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 40GB] (rev a1)\n"); err == nil {
		t.Errorf("lspci of a GPU at its revision read as something")
	}
}

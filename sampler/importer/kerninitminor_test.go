package importer

import "testing"

// An old driver's init failure names the GPU by its minor number only: the
// GPU is read lost, its address unknown; a newer driver's line with the
// address keeps the address, and the frontend's open failure alone names
// no failed GPU.
func TestInitFailureByMinorNumber(t *testing.T) {
	in := "[   12.401220] NVRM: RmInitAdapter failed! (0x25:0x65:1203)\n" +
		"[   12.401301] NVRM: rm_init_adapter failed for device bearing minor number 2\n" +
		"[   12.401388] NVRM: nvidia_frontend_open: minor 2, module->open() failed, error -5\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	gs := snaps[len(snaps)-1].GPUs
	if len(gs) != 1 || !gs[0].Lost || gs[0].BusID != "" {
		t.Fatalf("want one lost GPU with no address, got %+v", gs)
	}
	snaps, _, err = readString("[ 885.242457] NVRM: GPU 0000:3b:00.0: rm_init_adapter failed, device minor number 1\n")
	if err != nil || len(snaps[len(snaps)-1].GPUs) != 1 || snaps[len(snaps)-1].GPUs[0].BusID == "" {
		t.Fatalf("a newer driver's line with its address: %v %+v", err, snaps)
	}
	if snaps, _, err := readString("[ 31.005847] NVRM: nvidia_frontend_open: minor 0, module->open() failed, error -5\n"); err == nil {
		for _, g := range snaps[len(snaps)-1].GPUs {
			if g.Lost {
				t.Errorf("the frontend's open failure alone read as a lost GPU: %+v", g)
			}
		}
	}
}

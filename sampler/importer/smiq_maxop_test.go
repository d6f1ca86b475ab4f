package importer

import "testing"

// -q's maximum operating temperature is read (the corpus' MX330 limited
// to 57 C, smi-q-d-temperature-mx330-*), and Memory Max Operating Temp is
// not taken for the GPU's.
func TestSMIQMaxOperatingTemp(t *testing.T) {
	in := "==============NVSMI LOG==============\n\nDriver Version                            : 465.27\n\nAttached GPUs                             : 1\n" +
		"GPU 00000000:2D:00.0\n    Temperature\n        GPU Current Temp                  : 56 C\n        GPU Shutdown Temp                 : 102 C\n" +
		"        GPU Slowdown Temp                 : 97 C\n        Memory Max Operating Temp         : 85 C\n        GPU Max Operating Temp            : 57 C\n" +
		"        GPU Target Temperature            : 83 C\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	g := snaps[len(snaps)-1].GPUs[0]
	if !g.TempMaxOp.OK || g.TempMaxOp.V != 57 || g.TempSlowdown.V != 97 || g.TempShutdown.V != 102 || g.TempTarget.V != 83 {
		t.Errorf("max op %+v slowdown %+v shutdown %+v target %+v; want 57, 97, 102, 83", g.TempMaxOp, g.TempSlowdown, g.TempShutdown, g.TempTarget)
	}
}

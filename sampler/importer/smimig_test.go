package importer

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

const (
	migLGI = "+-------------------------------------------------------+\n" +
		"| GPU instances:                                        |\n" +
		"| GPU   Name             Profile  Instance   Placement  |\n" +
		"|                          ID       ID       Start:Size |\n" +
		"|=======================================================|\n" +
		"|   0  MIG 3g.40gb          9        2          4:4     |\n" +
		"+-------------------------------------------------------+\n" +
		"|   0  MIG 2g.20gb         14        3          0:2     |\n" +
		"+-------------------------------------------------------+\n" +
		"|   1  MIG 7g.80gb          0        0          0:8     |\n" +
		"+-------------------------------------------------------+\n"
	migLCI = "$ nvidia-smi mig -lci\n" +
		"+--------------------------------------------------------------------+\n" +
		"| Compute instances:                                                 |\n" +
		"| GPU     GPU       Name             Profile   Instance   Placement  |\n" +
		"|       Instance                       ID        ID       Start:Size |\n" +
		"|         ID                                                         |\n" +
		"|====================================================================|\n" +
		"|   0      2       MIG 3g.40gb          2         0          0:3     |\n" +
		"+--------------------------------------------------------------------+\n" +
		"|   0      3       MIG 2g.20gb          1         0          0:2     |\n" +
		"+--------------------------------------------------------------------+\n"
	migLGIP = "+-----------------------------------------------------------------------------+\n" +
		"| GPU instance profiles:                                                      |\n" +
		"| GPU   Name             ID    Instances   Memory     P2P    SM    DEC   ENC  |\n" +
		"|                              Free/Total   GiB              CE    JPEG  OFA  |\n" +
		"|=============================================================================|\n" +
		"|   0  MIG 1g.10gb       19     0/7        9.50       No     14     0     0   |\n" +
		"|                                                             1     0     0   |\n" +
		"+-----------------------------------------------------------------------------+\n" +
		"|   0  MIG 3g.40gb        9     1/2        39.25      No     42     2     0   |\n" +
		"|                                                             3     0     0   |\n" +
		"+-----------------------------------------------------------------------------+\n"
)

// -lgi alone: GPU instances as MIG devices, compute instance unknown (-1).
func TestMIGListGPUInstances(t *testing.T) {
	snaps, ev := readPaste(t, migLGI)
	gs := snaps[0].GPUs
	if len(gs) != 2 || !gs[0].MIG || !gs[1].MIG {
		t.Fatalf("GPUs %+v, want 2 MIG-enabled", gs)
	}
	want := []sampler.MIGDevice{
		{Index: 0, GPUInstance: 2, ComputeInstance: -1, Profile: "3g.40gb", SMSlices: 3},
		{Index: 1, GPUInstance: 3, ComputeInstance: -1, Profile: "2g.20gb", SMSlices: 2},
	}
	if !reflect.DeepEqual(gs[0].MIGDevices, want) {
		t.Errorf("GPU 0 devices %+v, want %+v", gs[0].MIGDevices, want)
	}
	if s := strings.Join(ev.Sections(), "\n"); !strings.Contains(s, "MIG layout: 2 GPUs MIG-enabled, 3 instances listed") {
		t.Errorf("sections:\n%s", s)
	}
}

// -lci gives the MIG devices (GPU instance + compute instance); -lgip
// its profiles' free/total as a note; a row cut after the profile still
// names its GPU.
func TestMIGComputeInstancesAndProfiles(t *testing.T) {
	snaps, _ := readPaste(t, migLCI)
	d := snaps[0].GPUs[0].MIGDevices
	if len(d) != 2 || d[0].GPUInstance != 2 || d[0].ComputeInstance != 0 || d[1].Profile != "2g.20gb" {
		t.Errorf("devices %+v", d)
	}
	_, ev := readPaste(t, migLGIP)
	if s := strings.Join(ev.Sections(), "\n"); !strings.Contains(s, "GPU 0 instance profiles (free/total): 1g.10gb 0/7, 3g.40gb 1/2") {
		t.Errorf("sections:\n%s", s)
	}
	// -lcip names the GPU instance each profile can be made in, the
	// default one starred (an A100 on ESXi: INDEX.md, batch 8).
	lcip := "+--------------------------------------------------------------------------------------+\n" +
		"| Compute instance profiles:                                                           |\n" +
		"| GPU     GPU       Name             Profile  Instances   Exclusive       Shared       |\n" +
		"|       Instance                       ID     Free/Total     SM       DEC   ENC   OFA  |\n" +
		"|         ID                                                          CE    JPEG       |\n" +
		"|======================================================================================|\n" +
		"|   0      9       MIG 1g.5gb           0*     0/1           14        0     0     0   |\n" +
		"|                                                                      1     0         |\n" +
		"+--------------------------------------------------------------------------------------+\n" +
		"|   0      3       MIG 1c.2g.10gb       0      0/2           14        1     0     0   |\n"
	snaps, ev = readPaste(t, lcip)
	if s := strings.Join(ev.Sections(), "\n"); len(snaps[0].GPUs) != 1 || !snaps[0].GPUs[0].MIG ||
		!strings.Contains(s, "GPU 0 instance profiles (free/total): GI 9 1g.5gb 0/1, GI 3 1c.2g.10gb 0/2") {
		t.Errorf("-lcip: GPUs %+v, sections:\n%s", snaps[0].GPUs, s)
	}
	cut := strings.Replace(migLGI, "|   1  MIG 7g.80gb          0        0          0:8     |", "|   1  MIG 7g.80gb", 1)
	snaps, _ = readPaste(t, cut)
	if len(snaps[0].GPUs) != 2 || len(snaps[0].GPUs[1].MIGDevices) != 0 {
		t.Errorf("cut row: GPUs %+v, want GPU 1 MIG-enabled with no instance", snaps[0].GPUs)
	}
	_, _, err := NewStream(strings.NewReader(strings.Join(strings.Split(migLGI, "\n")[:5], "\n")), "paste", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "a MIG listing with no instance or profile row") {
		t.Errorf("header only: %v", err)
	}
}

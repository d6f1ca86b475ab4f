package importer

import (
	"testing"
)

// A vGPU host's nvidia-smi, nvidia-smi vgpu and vgpu -q (akb486/vgpu's
// README): one physical GPU with one VM's vGPU under it, not two or three
// GPUs, and the vGPU's PCI slot and frame buffer stay off the board.
func TestVGPUHostListsVGPUsUnderTheirGPU(t *testing.T) {
	snaps, _ := readPaste(t, readFile(t, "real/vgpu-host-table-vgpu-q-rtx4080-525-akb486-readme.txt"))
	g := snaps[len(snaps)-1].GPUs
	if len(g) != 1 {
		t.Fatalf("%d GPUs, want the one physical GPU: %+v", len(g), g)
	}
	if g[0].BusID != "00000000:01:00.0" {
		t.Errorf("bus id %q: the vGPU's virtual slot replaced the board's", g[0].BusID)
	}
	wantMetric(t, "board memory", g[0].MemTotal, 8188*(1<<20))
	if len(g[0].VGPUs) != 1 {
		t.Fatalf("vGPUs %+v, want one", g[0].VGPUs)
	}
	v := g[0].VGPUs[0]
	if v.ID != "3251634190" || v.Name != "NVIDIA RTXA6000-2Q" || v.VM != "win10test,debug-threads=on" {
		t.Errorf("vGPU %+v: want the -q's whole names over the table's cut ones", v)
	}
	wantMetric(t, "vGPU frame buffer", v.MemTotal, 2048*(1<<20))
	if !g[0].VGPUHost() || g[0].VGPUGuest() {
		t.Errorf("host %v guest %v, want a host", g[0].VGPUHost(), g[0].VGPUGuest())
	}
}

// Two vGPUs under each of two GPUs in nvidia-smi vgpu (the layout of
// 525-550 hosts); the physical GPU's own utilisation is a bare "%".
func TestVGPUTableTwoGPUs(t *testing.T) {
	in := `+-----------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.14              Driver Version: 550.54.14                 |
|---------------------------------+------------------------------+------------+
| GPU  Name                       | Bus-Id                       | GPU-Util   |
|      vGPU ID     Name           | VM ID     VM Name            | vGPU-Util  |
|=================================+==============================+============|
|   0  NVIDIA A40                 | 00000000:41:00.0             |  37%       |
|      3251634216  NVIDIA A40-8Q  | c269...  vm-one              |     20%    |
|      3251634217  NVIDIA A40-8Q  | d270...  vm-two              |     17%    |
+---------------------------------+------------------------------+------------+
|   1  NVIDIA A40                 | 00000000:61:00.0             |   0%       |
|      3251634218  NVIDIA A40-8Q  | e271...  vm-three            |      0%    |
+---------------------------------+------------------------------+------------+
`
	snaps, _ := readPaste(t, in)
	g := snaps[0].GPUs
	if len(g) != 2 || len(g[0].VGPUs) != 2 || len(g[1].VGPUs) != 1 {
		t.Fatalf("GPUs %+v, want 2 with 2 and 1 vGPUs", g)
	}
	wantMetric(t, "GPU 0 util", g[0].Util, 37)
	wantMetric(t, "vm-two util", g[0].VGPUs[1].Util, 17)
	if g[1].VGPUs[0].VM != "vm-three" {
		t.Errorf("VM %q", g[1].VGPUs[0].VM)
	}
}

// A guest's -q: the virtualisation mode and the licence (both spellings of
// the licence block's heading) are read onto the GPU.
func TestVGPUGuestQuery(t *testing.T) {
	for _, head := range []string{"vGPU Software Licensed Product", "GRID Licensed Product"} {
		in := `GPU 00000000:02:00.0
    Product Name                          : GRID A100-40C
    GPU Virtualization Mode
        Virtualization Mode               : VGPU
        Host VGPU Mode                    : N/A
    ` + head + `
        Product Name                      : NVIDIA Virtual Compute Server
        License Status                    : Unlicensed (Restricted)
`
		snaps, _ := readPaste(t, in)
		g := snaps[0].GPUs[0]
		if g.Virtualization != "VGPU" || g.License != "Unlicensed (Restricted)" || !g.VGPUGuest() || g.VGPUHost() {
			t.Errorf("%s: %+v", head, g)
		}
	}
}

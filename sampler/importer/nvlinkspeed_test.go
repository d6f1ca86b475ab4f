package importer

import (
	"strings"
	"testing"
)

// nvidia-smi nvlink -s names a link down only where the listing proves it
// should run: a GPU with links inactive that a GPU of the same model runs,
// or every link inactive on GPU 1 or above of a part whose links all train
// in a multi-GPU node. Listings written from the format (a -L line, then
// "Link N: <speed> GB/s" or "<inactive>", or NVML's all-inactive line).
func TestNVLinkSpeedsLinkDown(t *testing.T) {
	link := func(n int, v string) string { return "         Link " + string(rune('0'+n)) + ": " + v + "\n" }
	six := func(off ...int) string {
		s := ""
		for i := 0; i < 6; i++ {
			v := "25.781 GB/s"
			for _, o := range off {
				if o == i {
					v = "<inactive>"
				}
			}
			s += link(i, v)
		}
		return s
	}
	allOff := "NVML: Unable to retrieve NVLink information as all links are inActive\n"
	for _, c := range []struct {
		in   string
		gpu  int
		want string
	}{
		{"GPU 0: Tesla V100-SXM2-16GB (UUID: GPU-a)\n" + six() + "GPU 1: Tesla V100-SXM2-16GB (UUID: GPU-b)\n" + six(2, 4),
			1, "GPU 1: NVLink links 2, 4 inactive while GPU 0 (same model) runs 6 of 6"},
		{"GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-a)\n" + six() + "GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-b)\n" + allOff,
			1, "GPU 1: NVLink links all inactive while GPU 0 (same model) runs 6 of 6"},
		{"GPU 3: NVIDIA H100 80GB HBM3 (UUID: GPU-c)\n" + allOff,
			3, "GPU 3 (NVIDIA H100 80GB HBM3): all NVLink links inactive on a part whose links all train in a multi-GPU node"},
	} {
		snaps, _, err := readString(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		d := snaps[len(snaps)-1].Node.Diag
		if len(d) != 1 || d[0].Category != "NVLink" || d[0].Test != "link speeds" || d[0].GPUs[0] != c.gpu || d[0].Messages[0].Text != c.want {
			t.Errorf("%q: got %+v", c.in, d)
		}
	}
	// As built, not proven down: the same links off on every GPU of a model
	// (a bridge's or a slice's wiring), GPU 0 alone (a one-GPU slice), and
	// boards that run without NVLink partners (NVL, PCIe, superchips).
	for _, in := range []string{
		"GPU 0: Tesla V100-SXM2-16GB (UUID: GPU-a)\n" + six(3, 5) + "GPU 1: Tesla V100-SXM2-16GB (UUID: GPU-b)\n" + six(3, 5),
		"GPU 2: Tesla V100-SXM2-32GB (UUID: GPU-a)\n" + six(3, 5),
		"GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-a)\n" + allOff,
		"GPU 1: NVIDIA H200 NVL (UUID: GPU-a)\n" + allOff,
		"GPU 1: NVIDIA H800 PCIe (UUID: GPU-a)\n" + allOff,
		"GPU 1: NVIDIA GH200 480GB (UUID: GPU-a)\n" + allOff,
		"GPU 0: NVIDIA A100-PCIE-40GB (UUID: GPU-a)\n" + allOff + "GPU 1: NVIDIA A100-PCIE-40GB (UUID: GPU-b)\n" + allOff,
		"GPU 0: Tesla V100-SXM2-16GB (UUID: GPU-a)\n" + six() + "GPU 1: Tesla V100-PCIE-16GB (UUID: GPU-b)\n" + six(2, 4),
	} {
		_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi nvlink -s (link speeds read, no link shown down: ") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}

// FuzzNVLinkSpeed feeds arbitrary lines to the nvlink -s reader directly
// (seeds: the corpus and the test's listings): no panic, at most one failed
// check per GPU line, each on a GPU of the picture within a node's count.
func FuzzNVLinkSpeed(f *testing.F) {
	pasteSeeds(f)
	f.Add([]byte("GPU 0: Tesla V100-SXM2-16GB (UUID: GPU-a)\n  Link 0: 25.781 GB/s\n  Link 1: 25.781 GB/s\nGPU 1: Tesla V100-SXM2-16GB (UUID: GPU-b)\n  Link 0: <inactive>\n  Link 1: 25.781 GB/s\n"))
	f.Add([]byte("GPU 7: NVIDIA B200 (UUID: GPU-c)\nNVML: Unable to retrieve NVLink information as all links are inActive\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := fuzzLines(t, data, nvlSpeedRun)
		p := parseNVLinkSpeed(&section{kind: kindNVLinkSpeed, first: 1, lines: lines})
		if p.skipped != "" {
			return
		}
		snap := p.snaps[0]
		if len(snap.Node.Diag) > len(lines) || len(snap.GPUs) > maxPictureGPUs {
			t.Fatalf("%d checks, %d GPUs from %d lines", len(snap.Node.Diag), len(snap.GPUs), len(lines))
		}
		for _, c := range snap.Node.Diag {
			if g := c.Messages[0].GPU; g >= maxPictureGPUs || indexOf(snap.GPUs, g) < 0 {
				t.Fatalf("check on GPU %d, GPUs %+v", g, snap.GPUs)
			}
		}
	})
}

// The same GPU pasted twice (before and after a reset) is no peer of
// itself: its links down in one copy prove nothing against the other.
func TestNVLinkSpeedsSameGPUTwice(t *testing.T) {
	in := "GPU 1: Tesla V100-SXM2-16GB (UUID: GPU-a)\n         Link 0: 25.781 GB/s\n         Link 1: 25.781 GB/s\n" +
		"GPU 1: Tesla V100-SXM2-16GB (UUID: GPU-a)\n         Link 0: <inactive>\n         Link 1: 25.781 GB/s\n"
	if _, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart}); err == nil {
		t.Errorf("%q read; want it refused", in)
	}
}

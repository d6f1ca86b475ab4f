package importer

import "testing"

// nv-hostengine's health line is a check of the node's DCGM results on the
// GPU its message names; a FAILURE is a failed check.
func TestDCGMHealthLines(t *testing.T) {
	in := "ERROR [1514002:1514004] [[Health]] Detected a WARNING in health system Thermal: 'Detected clocks event due to thermal violation in GPU 2. Verify that the cooling on this machine is functional.\n" +
		"ERROR [1514002:1514004] [[Health]] Detected a FAILURE in health system PCIe: 'Detected XID 79 for GPU 5'\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	d := snaps[len(snaps)-1].Node.Diag
	if len(d) != 2 || d[0].Category != "Health" || d[0].Test != "Thermal" || d[0].Result != "warn" || d[0].Messages[0].GPU != 2 ||
		d[1].Result != "fail" || d[1].Messages[0].GPU != 5 || d[1].Messages[0].Text != "Detected XID 79 for GPU 5" {
		t.Errorf("got %+v", d)
	}
}

// dcgmi nvlink --link-status: a GPU with links Down is a failed NVLink
// check; one whose links are up or not supported is only named.
func TestNVLinkStatusDown(t *testing.T) {
	in := "+----------------------+\n|  NvLink Link Status  |\n+----------------------+\nGPUs:\n    gpuId 0:\n        U U D U\n" +
		"    gpuId 1:\n        U U U U\n    gpuId 2:\n        _ _ _ _\nNvSwitches:\n    No NvSwitches found.\n\nKey: Up=U, Down=D, Disabled=X, Not Supported=_\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	s := snaps[len(snaps)-1]
	if len(s.GPUs) != 3 || len(s.Node.Diag) != 1 || s.Node.Diag[0].Category != "NVLink" || s.Node.Diag[0].GPUs[0] != 0 ||
		s.Node.Diag[0].Messages[0].Text != "GPU 0: 1 of 4 NvLink links Down" {
		t.Errorf("got %d GPUs, %+v", len(s.GPUs), s.Node.Diag)
	}
}

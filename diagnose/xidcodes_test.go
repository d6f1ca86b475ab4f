package diagnose

import (
	"strings"
	"testing"
)

func allXids() []XidInfo { return append(append([]XidInfo(nil), xidLow...), xidHigh...) }

// TestXidCatalogueShape: codes unique, sorted (LookupXid searches by
// halves), each table holding its range, every entry named with an action,
// and NVIDIA's catalogue (Xid 1 to 172, [nvidia-xid]) covered without a gap.
func TestXidCatalogueShape(t *testing.T) {
	for _, x := range xidLow {
		if x.Code >= 100 {
			t.Errorf("Xid %d is in the table of codes below 100", x.Code)
		}
	}
	for _, x := range xidHigh {
		if x.Code < 100 {
			t.Errorf("Xid %d is in the table of codes from 100", x.Code)
		}
	}
	all := allXids()
	for i, x := range all {
		if i > 0 && x.Code <= all[i-1].Code {
			t.Errorf("Xid %d follows Xid %d: codes must be unique and ascending", x.Code, all[i-1].Code)
		}
		if strings.TrimSpace(x.Name) == "" || strings.TrimSpace(x.Action) == "" {
			t.Errorf("Xid %d: empty name or action: %+v", x.Code, x)
		}
	}
	for c := uint64(1); c <= 172; c++ {
		if x, ok := LookupXid(c); !ok || x.Code != c {
			t.Errorf("Xid %d of NVIDIA's catalogue: LookupXid = %+v, %v", c, x, ok)
		}
	}
}

// TestXidCatalogueAgainstNVIDIA spot-checks entries against NVIDIA's
// catalogue ([nvidia-xid]): its immediate action (restart the application,
// reset the GPU, reboot) and the causes it lists.
func TestXidCatalogueAgainstNVIDIA(t *testing.T) {
	cases := []struct {
		code     uint64
		name     string // a word of NVIDIA's description
		hardware bool
		action   string // a word of the action
	}{
		{79, "fallen off the bus", true, "reboot"},    // RESTART_BM
		{13, "Graphics engine", false, "application"}, // RESTART_APP, the application's fault
		{31, "page fault", false, "application"},
		{48, "Double-bit ECC", true, "reset"},
		{45, "Preemptive cleanup", false, "fabricmanager"}, // alone: RESTART_FM
		{54, "Auxiliary power", true, "power"},             // CHECK_MECHANICALS
		{63, "row remapping", true, "reset"},
		{95, "Uncontained", true, "reset"}, // RESET_GPU
		{119, "GSP RPC timeout", true, "reset"},
		{140, "Unrecovered ECC", true, "reset"},
		{143, "initialisation", true, "reset"},
		{149, "NETIR", true, "reset"},
		{14, "Test error", false, "nothing to do"}, // IGNORE
		{39, "Copy engine 0", false, "restart the application"},
		{78, "vGPU", false, "guest driver"},             // UPDATE_SWFW
		{151, "Key rotation", false, "virtual machine"}, // RESTART_VM
	}
	for _, c := range cases {
		x, ok := LookupXid(c.code)
		if !ok {
			t.Errorf("Xid %d missing", c.code)
			continue
		}
		if !strings.Contains(strings.ToLower(x.Name), strings.ToLower(c.name)) || x.Hardware != c.hardware || !strings.Contains(x.Action, c.action) {
			t.Errorf("Xid %d = %+v, want a name with %q, hardware %v, an action with %q", c.code, x, c.name, c.hardware, c.action)
		}
	}
}

// TestUnknownXidSaysWhereToLook: a code past the catalogue still gets one
// line naming NVIDIA's page, as its description and as the fix.
func TestUnknownXidSaysWhereToLook(t *testing.T) {
	for _, c := range []uint64{0, 250, 1 << 40} {
		if _, ok := LookupXid(c); ok {
			t.Errorf("Xid %d found", c)
		}
		d := describeXid(c)
		if !strings.Contains(d, "not in gpuscope's catalogue") || !strings.Contains(d, XidURL) || strings.Contains(d, "\n") {
			t.Errorf("describeXid(%d) = %q", c, d)
		}
		if h := xidHint(c, []uint64{c}).en; !strings.Contains(h, XidURL) || !strings.Contains(h, "nvidia-bug-report.sh") {
			t.Errorf("xidHint(%d) = %q", c, h)
		}
	}
	if d := describeXid(155); !strings.Contains(d, "Xid 155 (NVLink software-defined error)") {
		t.Errorf("a code new to the catalogue: %q", d)
	}
}

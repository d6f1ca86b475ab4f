package cli

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// hardware are the packages that load NVML or read the host's /proc: only
// main may link them, injecting them through Deps ("ui never calls NVML or
// gopsutil", docs/ARCHITECTURE.md).
var hardware = []string{
	"github.com/NVIDIA/go-nvml",
	"github.com/shirou/gopsutil",
	"github.com/gpuscope/gpuscope/sampler/nvmlsource",
	"github.com/gpuscope/gpuscope/sampler/fakenvml",
	"github.com/gpuscope/gpuscope/sampler/node",
	"github.com/gpuscope/gpuscope/sampler/host",
	"github.com/gpuscope/gpuscope/sampler/doctor",
	"github.com/gpuscope/gpuscope/sampler/procsock",
}

// TestUINeverLinksNVML holds the layering: no package under ui/ (this one
// included) depends on NVML, the fake driver or the host readers, directly
// or through another package; main injects them.
func TestUINeverLinksNVML(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}`, "github.com/gpuscope/gpuscope/ui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !slices.Contains(deps, "github.com/gpuscope/gpuscope/ui/cli") {
		t.Fatalf("go list returned %d packages, without ui/cli: not the module's ui tree", len(deps))
	}
	for _, dep := range deps {
		for _, bad := range hardware {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("a ui package depends on %s (go list -deps ./ui/... | grep it, then `go mod why -m`)", dep)
			}
		}
	}
}

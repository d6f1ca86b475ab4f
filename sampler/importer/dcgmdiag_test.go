package importer

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// diagRow is one row of DCGM's stencil (dcgmi/Diag.cpp DIAG_DATA): a
// 25-character name and a 46-character value.
func diagRow(name, val string) string { return fmt.Sprintf("| %-25s | %-46s |\n", name, val) }

// diagMsg wraps a message every 45 characters as DisplayVerboseInfo does.
func diagMsg(name, msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); i += diagWrap {
		b.WriteString(diagRow(name, msg[i:min(i+diagWrap, len(msg))]))
		name = ""
	}
	return b.String()
}

const (
	diagTop    = "+---------------------------+------------------------------------------------+\n"
	diagHeader = diagTop + "| Diagnostic                | Result                                         |\n" +
		"+===========================+================================================+\n"
	diagDeploy = "|-----  Deployment  --------+------------------------------------------------|\n"
	diagInteg  = "+-----  Integration  -------+------------------------------------------------+\n"
	diagHW     = "+-----  Hardware  ----------+------------------------------------------------+\n"
	diagStress = "+-----  Stress  ------------+------------------------------------------------+\n"
)

// busyMsg is cut by the wrap inside words and between two words (the
// space that ends a chunk must survive the join).
const busyMsg = "GPU 0 Error using CUDA API cuCtxCreate Check DCGM and system logs for errors. " +
	"Reset GPU. Restart DCGM. Rerun diagnostics. Unable to create CUDA context: " +
	"'CUDA-capable device(s) is/are busy or unavailable'."

func diagOf(t *testing.T, in string) []sampler.DiagCheck {
	t.Helper()
	snaps, _ := readPaste(t, in)
	return snaps[len(snaps)-1].Node.Diag
}

// The 3.x layout: Pass/Fail per GPU list, a Warning spanning four rows,
// a skipped stress test.
func TestDiag3xFailWithWrappedMessage(t *testing.T) {
	in := "$ dcgmi diag -r 3\nSuccessfully ran diagnostic for group.\n" + diagHeader +
		"|-----  Metadata  ----------+------------------------------------------------|\n" +
		diagRow("DCGM Version", "3.3.1") + diagRow("Driver Version Detected", "535.129.03") +
		diagRow("GPU Device IDs Detected", "1eb8,1eb8") +
		diagDeploy + diagRow("Denylist", "Pass") + diagRow("Persistence Mode", "Pass") +
		diagInteg + diagRow("PCIe", "Pass - All") +
		diagHW + diagRow("GPU Memory", "Pass - GPU: 1") + diagRow("", "Fail - GPU: 0") + diagMsg("Warning", busyMsg) +
		diagMsg("Info", "GPU 1 Allocated 15 bytes (50.0%)") +
		diagStress + diagRow("Targeted Stress", "Skip - All") + diagTop
	got := diagOf(t, in)
	want := []sampler.DiagCheck{
		{Category: "Deployment", Test: "Denylist", Result: "pass"},
		{Category: "Deployment", Test: "Persistence Mode", Result: "pass"},
		{Category: "Integration", Test: "PCIe", Result: "pass"},
		{Category: "Hardware", Test: "GPU Memory", Result: "pass", GPUs: []int{1},
			Messages: []sampler.DiagMessage{{Kind: "info", GPU: 1, Text: "GPU 1 Allocated 15 bytes (50.0%)"}}},
		{Category: "Hardware", Test: "GPU Memory", Result: "fail", GPUs: []int{0},
			Messages: []sampler.DiagMessage{{Kind: "warning", GPU: 0, Text: busyMsg}}},
		{Category: "Stress", Test: "Targeted Stress", Result: "skip"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n got %+v\nwant %+v", got, want)
	}
	snaps, ev := readPaste(t, in)
	last := snaps[len(snaps)-1]
	if len(last.GPUs) != 2 || last.Node.Driver != "535.129.03" {
		t.Errorf("GPUs %d driver %q, want 2 GPUs (named by the results) and 535.129.03", len(last.GPUs), last.Node.Driver)
	}
	sec := strings.Join(ev.Sections(), "\n")
	for _, w := range []string{"failed: GPU Memory on GPU 0 (GPU 0 Error using CUDA API", "skipped, not judged: Targeted Stress on all GPUs",
		"passed: Denylist"} {
		if !strings.Contains(sec, w) {
			t.Errorf("sections lack %q:\n%s", w, sec)
		}
	}
	if w := ev.Where(0, "diag"); !strings.Contains(w, "dcgmi diag") {
		t.Errorf("Where(0, diag) = %q, want the diag section's line", w)
	}
}

// The 4.x layout: lower-case test names, the overall result then one row
// per GPU, "Warning: GPU1" naming the entity; CPU entities are no GPU.
func TestDiag4xPerEntityRows(t *testing.T) {
	in := diagHeader + diagDeploy + diagRow("software", "Pass") + diagRow("", "GPU0: Pass") + diagRow("", "GPU1: Pass") +
		diagHW + diagRow("memory", "Fail") + diagRow("", "GPU0: Pass") + diagRow("", "GPU1: Fail") +
		diagMsg("Warning: GPU1", "GPU 1 had uncorrectable memory errors and row remapping failed.") +
		diagRow("cpu_eud", "Pass") + diagRow("", "CPU0: Pass") + diagTop
	got := diagOf(t, in)
	want := []sampler.DiagCheck{
		{Category: "Deployment", Test: "software", Result: "pass", GPUs: []int{0, 1}},
		{Category: "Hardware", Test: "memory", Result: "pass", GPUs: []int{0}},
		{Category: "Hardware", Test: "memory", Result: "fail", GPUs: []int{1},
			Messages: []sampler.DiagMessage{{Kind: "warning", GPU: 1, Text: "GPU 1 had uncorrectable memory errors and row remapping failed."}}},
		{Category: "Hardware", Test: "cpu_eud", Result: "pass"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n got %+v\nwant %+v", got, want)
	}
}

// The 2.x "Fail - All" with the message naming the GPU, and an Error row
// straight under a category (the test's name cut from the paste).
func TestDiagFailAllAndCutName(t *testing.T) {
	in := diagInteg + diagRow("PCIe", "Fail - All") +
		diagMsg("Warning", "GPU 0GPU 0's NvLink link 0 is currently down Run a field diagnostic on the GPU.") +
		"\n" + diagDeploy + diagMsg("Error", "GPU 3 has uncorrectable memory errors and row remappings are pending")
	got := diagOf(t, in)
	if len(got) != 2 || got[0].Result != "fail" || got[0].GPUs != nil || got[0].Messages[0].GPU != 0 ||
		got[1].Test != "" || got[1].Result != "fail" || got[1].Messages[0].GPU != 3 {
		t.Fatalf("checks %+v", got)
	}
	snaps, _ := readPaste(t, in)
	var idx []int
	for _, g := range snaps[0].GPUs {
		idx = append(idx, g.Index)
	}
	if !reflect.DeepEqual(idx, []int{0, 3}) {
		t.Errorf("GPUs %v, want [0 3]: the GPUs the failures name", idx)
	}
}

// Boxes with no result, category or message are not claimed as a diag
// run; a diag table whose rows carry no result says so in one line.
func TestDiagNotClaimedWithoutItsMarks(t *testing.T) {
	if n := diagRun(strings.Split(strings.TrimSuffix(diagTop+diagRow("something", "else")+diagTop, "\n"), "\n"), 0); n != 0 {
		t.Errorf("a bare box claimed as dcgmi diag (%d lines)", n)
	}
	_, _, err := NewStream(strings.NewReader(diagHeader+diagTop), "paste", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "dcgmi diag (a dcgmi diag table with no test result in it)") {
		t.Errorf("header only: err %v, want one line saying the table holds no result", err)
	}
}

// A table cut before its closing border says where it stops: the passes
// above the cut are no verdict on the tests below it (a complete table
// says nothing of the kind).
func TestDiagCutTableSaysWhere(t *testing.T) {
	cut := diagHeader + diagDeploy + diagRow("Denylist", "Pass") + "| Permissions and OS Blocks | Pass"
	for in, want := range map[string]bool{cut: true, diagHeader + diagDeploy + diagRow("Denylist", "Pass") + diagTop: false} {
		_, ev := readPaste(t, in)
		sec := strings.Join(ev.Sections(), "\n")
		if got := strings.Contains(sec, "the table stops inside its Deployment section: the tests after it were not seen, not judged"); got != want {
			t.Errorf("cut note %v, want %v:\n%s", got, want, sec)
		}
	}
}

// Every corpus diag file is read as a diag section (none refused).
func TestDiagCorpusFilesRead(t *testing.T) {
	for _, f := range []string{"dcgmi-diag-r2-gpumem-fail-busy-331-go-dcgm-issue-52.txt", "dcgmi-diag-r2-gpumem-fail-thermal-ml-engineering.txt",
		"dcgmi-diag-r2-pass-1gpu-442-dcgm-issue-124.txt", "dcgmi-diag-r2-pass-8xa100-333-awsome-efa-cheatsheet.txt",
		"dcgmi-diag-r2-pcie-fail-nvlink-down-246-dcgm-issue-49.txt", "dcgmi-diag-r3-deploy-error-rowremap-ml-engineering.txt",
		"dcgmi-diag-r3-skipped-304-dcgm-issue-55.txt"} {
		b, err := os.ReadFile("testdata/real/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if got := diagOf(t, string(b)); len(got) == 0 {
			t.Errorf("%s: no diag checks read", f)
		}
	}
}

// A cut before any category line names no section (an empty name read
// "inside its  section").
func TestDiagCutBeforeFirstSection(t *testing.T) {
	if got := diagCut([]string{"| Deployment ...", "| Denylist | Pass"}, ""); !strings.Contains(got, "stops before its first section") {
		t.Errorf("cut before any section: %q", got)
	}
	if got := diagCut([]string{"| Denylist | Pass"}, "Deployment"); !strings.Contains(got, "inside its Deployment section") {
		t.Errorf("cut inside Deployment: %q", got)
	}
}

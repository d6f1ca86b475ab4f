package importer

import (
	"strings"
	"testing"
)

// dcgmi diag's own error (it could not run its plugins, or the host
// engine refused) is no table of results: refused with what it is and that
// no test was judged, not as a broken CSV or dmon log.
func TestDiagErrorRefusedAsNotRun(t *testing.T) {
	for _, in := range []string{
		"Error: Unable to complete diagnostic for group 1. Return: (-30) : DCGM GPU Diagnostic returned an error\n",
		"# cmd: dcgmi diag -r 2 (1 GPU on node7)\nError: Unable to complete diagnostic for group 2. Return: (-30) : DCGM GPU Diagnostic returned an error\n" +
			"Error: Cannot load plugins. Unable to change to the plugin dir '/usr/libexec/datacenter-gpu-manager-4/plugins/cuda12/': 'No such file or directory'\n",
		"# ran by hand on node7 (2 GPUs, driver 570)\nError: Unable to complete diagnostic for entities *, cpu:*. Return: (-33) : Host engine connection invalid/disconnected\n",
	} {
		_, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), "dcgmi diag did not run") {
			t.Errorf("%q: refusal %v does not say the diagnostic did not run", in, err)
		}
	}
}

// A "#" comment naming a command is no dmon header: the header is the
// "#" line after it, and the rows read under it (a guard for the comment
// rule the test above needs).
func TestHashCommentBeforeDmonHeader(t *testing.T) {
	in := "# cmd: nvidia-smi dmon -c 1 (1 GPU, captured by hand)\n" +
		"# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk\n" +
		"# Idx      W      C      C      %      %      %      %    MHz    MHz\n" +
		"    0     61     45      -     12      3      0      0   6250   1755\n"
	if f := Detect([]byte(in)); f != SMIDmon {
		t.Fatalf("detected as %v, want nvidia-smi dmon", f)
	}
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || snaps[0].GPUs[0].Power.V != 61 {
		t.Errorf("rows not read under the header: snaps %+v, err %v", snaps, err)
	}
}

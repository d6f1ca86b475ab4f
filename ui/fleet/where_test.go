package fleet

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// A node-wide finding (GPU -1 in the data) is the node's on screen, in both
// languages; it used to read "straggler(GPU -1)".
func TestNodeWideFindingsNameTheNode(t *testing.T) {
	n := fleetsnap.Node{Findings: []fleetsnap.Finding{{Rule: "straggler", GPU: -1}, {Rule: "xid_error", GPU: 3}}}
	for _, lang := range []string{"en", "zh"} {
		cell := findingsCell(newWords(lang), n)
		if strings.Contains(cell, "-1") || !strings.Contains(cell, "xid_error(GPU 3)") || !strings.Contains(cell, "straggler(") {
			t.Errorf("%s: %q", lang, cell)
		}
	}
}

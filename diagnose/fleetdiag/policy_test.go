package fleetdiag

import (
	"fmt"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

func TestPlanCapsTheNodesReadFromSeries(t *testing.T) {
	var f fleetsnap.Fleet
	for i := range 10 {
		n := fleetsnap.Node{Key: fleetsnap.NodeKey{Instance: fmt.Sprintf("n%d:9400", i)}, Up: i != 3, Gpuscope: i == 0}
		f.Nodes = append(f.Nodes, n)
	}
	p := DefaultPolicy()
	p.MaxFromSeries = 4
	plan := p.Plan(f)
	var got []string
	for _, n := range plan.FromSeries {
		got = append(got, n.Key.Instance)
	}
	// n0 brings its own findings, n3 is down; n1, n2, n4, n5 come first in
	// the fleet's order (most waste first); 6-9 wait.
	if fmt.Sprint(got) != "[n1:9400 n2:9400 n4:9400 n5:9400]" || plan.Skipped != 4 {
		t.Errorf("from series %v, skipped %d", got, plan.Skipped)
	}
	hist := map[fleetsnap.NodeKey][]sampler.Snapshot{f.Nodes[1].Key: nil}
	res := p.Diagnose(f, hist)
	if len(res) != 2 || res[f.Nodes[0].Key].From != FromExporter || res[f.Nodes[1].Key].From != FromDCGM {
		t.Errorf("results %+v", res)
	}
}

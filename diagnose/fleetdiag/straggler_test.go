package fleetdiag

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// jobNodeOf is a node of 2 GPUs in pod pod (namespace ml) whose 5-minute
// means are util and sm.
func jobNodeOf(name, pod string, util, sm float64) fleetsnap.Node {
	g := func(i int) fleetsnap.GPU {
		return fleetsnap.GPU{Index: i, Namespace: "ml", Pod: pod, UtilMean: sampler.Some(util), SMActiveMean: sampler.Some(sm)}
	}
	return fleetsnap.Node{Key: fleetsnap.NodeKey{Job: "gpu", Instance: name + ":9400"}, Name: name, Up: true,
		GPUs: []fleetsnap.GPU{g(0), g(1)}}
}

func TestPodJob(t *testing.T) {
	for pod, want := range map[string]string{
		"llama-pretrain-worker-3": "llama-pretrain", "llama-pretrain-master-0": "llama-pretrain", "bert-0": "bert",
		"mpi-launcher": "mpi", "js-workers-0-1": "js", "vllm-6d8f9c7b5d-x2k4q": "vllm-6d8f9c7b5d-x2k4q", "7": "7",
	} {
		if got := podJob(pod); got != want {
			t.Errorf("%s: %s, want %s", pod, got, want)
		}
	}
}

func TestStragglers(t *testing.T) {
	waiting := func(name, pod string) fleetsnap.Node { return jobNodeOf(name, pod, 97, 18) }
	for _, tt := range []struct {
		name  string
		nodes []fleetsnap.Node
		want  string // the finding's node and a phrase of its title; "" none
	}{
		{"one node computes, three wait", []fleetsnap.Node{
			waiting("n1", "llm-worker-0"), waiting("n2", "llm-worker-1"), jobNodeOf("n3", "llm-worker-2", 99, 70), waiting("n4", "llm-master-0"),
		}, "n3 SM active at 70% vs 18%"},
		{"one node starves, three wait", []fleetsnap.Node{
			waiting("n1", "llm-worker-0"), jobNodeOf("n2", "llm-worker-1", 45, 30), waiting("n3", "llm-worker-2"), waiting("n4", "llm-worker-3"),
		}, "n2 GPU-Util at 45% vs 97%"},
		{"all busy and even: no straggler", []fleetsnap.Node{
			jobNodeOf("n1", "llm-worker-0", 98, 75), jobNodeOf("n2", "llm-worker-1", 97, 72), jobNodeOf("n3", "llm-worker-2", 99, 78),
		}, ""},
		{"one slow node but the others do not wait (SM busy)", []fleetsnap.Node{
			jobNodeOf("n1", "llm-worker-0", 98, 75), jobNodeOf("n2", "llm-worker-1", 40, 30), jobNodeOf("n3", "llm-worker-2", 99, 78),
		}, ""},
		{"different jobs are not compared", []fleetsnap.Node{
			waiting("n1", "a-worker-0"), waiting("n2", "b-worker-0"), jobNodeOf("n3", "c-worker-0", 99, 70),
		}, ""},
		{"two nodes: no others to compare with", []fleetsnap.Node{
			waiting("n1", "llm-worker-0"), jobNodeOf("n2", "llm-worker-1", 99, 70),
		}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Stragglers(fleetsnap.Fleet{Nodes: tt.nodes})
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("findings %+v", got)
				}
				return
			}
			node, phrase, _ := strings.Cut(tt.want, " ")
			if len(got) != 1 || got[0].Nodes[0] != node || !strings.Contains(got[0].Title, node+"'s "+phrase) ||
				!strings.Contains(got[0].Title, "job ml/llm") {
				t.Errorf("findings %+v, want %s", got, tt.want)
			}
		})
	}
}

// A missing SM activity (dcgm-exporter's default set has none) or a down
// node leaves the job unjudged, never guessed; --job-label groups instead of
// pods.
func TestStragglersNeedSMAndUseTheJobLabel(t *testing.T) {
	nodes := []fleetsnap.Node{
		jobNodeOf("n1", "", 97, 18), jobNodeOf("n2", "", 97, 18), jobNodeOf("n3", "", 99, 70), jobNodeOf("n4", "", 97, 18),
	}
	if got := Stragglers(fleetsnap.Fleet{Nodes: nodes}); len(got) != 0 {
		t.Errorf("no pod and no job label: %+v", got)
	}
	for i := range nodes {
		for g := range nodes[i].GPUs {
			nodes[i].GPUs[g].Job = "slurm-4242"
		}
	}
	if got := Stragglers(fleetsnap.Fleet{Nodes: nodes}); len(got) != 1 || got[0].Nodes[0] != "n3" || !strings.Contains(got[0].Title, "job slurm-4242") {
		t.Errorf("by job label: %+v", got)
	}
	if got := Fleet(fleetsnap.Fleet{Nodes: nodes}, 0); len(got) != 1 || !strings.Contains(got[0].Title, "straggler") {
		t.Errorf("Fleet lacks the straggler: %+v", got)
	}
	nodes[0].GPUs[1].SMActiveMean = sampler.NA
	if got := Stragglers(fleetsnap.Fleet{Nodes: nodes}); len(got) != 0 {
		t.Errorf("one GPU without SM activity: %+v", got)
	}
}

// A dcgm-only node (no host, no processes) is never given a finding of a
// rule that needs the host: the starved GPU's bursts must not read as
// input_starved with nothing to show for it; NeedsHost names the rule.
func TestDCGMOnlyNodeHasNoHostRuleFindings(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	n, err := sim.New("input_starved", 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	var history []sampler.Snapshot
	for i := range 180 {
		at := t0.Add(time.Duration(i) * time.Second)
		n.AdvanceTo(at)
		gpus := n.GPUs()
		for g := range gpus {
			gpus[g].Procs = nil // dcgm-exporter knows no processes
		}
		history = append(history, sampler.Snapshot{Time: at, GPUs: gpus})
	}
	r := Node(fleetsnap.Node{Name: "n", Up: true}, history)
	for _, f := range r.Findings {
		if slices.Contains(hostRules(), f.Rule) {
			t.Errorf("host rule %s on a dcgm-only node: %s", f.Rule, f.Title)
		}
	}
	if !slices.Contains(r.NeedsHost, "input_starved") {
		t.Errorf("NeedsHost %v", r.NeedsHost)
	}
}

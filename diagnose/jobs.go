package diagnose

import (
	"math"
	"slices"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// groupJobs groups GPU processes into jobs: processes sharing a parent that
// is not a shell (torchrun, deepspeed, mpirun ranks) form one job, the rule
// Jobs (the topology page's) uses too.
func (c *ctx) groupJobs() {
	for gi := range c.gpus {
		g := &c.gpus[gi]
		if g.main == nil || g.anonymous {
			continue
		}
		key := g.main.PID
		if ppid := JobParent(c.last.Host, g.mainHost); ppid > 0 && c.siblingsOnGPUs(ppid) >= 2 {
			key = ppid
		}
		ji := -1
		for j := range c.jobs {
			if c.jobs[j].key == key {
				ji = j
				break
			}
		}
		if ji < 0 { // a job the ctx before held here lends its slices
			ji = len(c.jobs)
			c.jobs = slices.Grow(c.jobs, 1)[:ji+1]
			c.jobs[ji] = job{key: key, gpus: c.jobs[ji].gpus[:0], pids: c.jobs[ji].pids[:0]}
		}
		c.jobs[ji].gpus = append(c.jobs[ji].gpus, gi)
		c.jobs[ji].pids = append(c.jobs[ji].pids, g.main.PID)
		g.job = ji
	}
}

// siblingsOnGPUs counts GPU main processes whose parent is ppid.
func (c *ctx) siblingsOnGPUs(ppid int) int {
	n := 0
	for gi := range c.gpus {
		if hp := c.gpus[gi].mainHost; hp != nil && hp.PPID == ppid {
			n++
		}
	}
	return n
}

// jobFrom is the latest window start among the job's GPUs.
func (c *ctx) jobFrom(j *job) int {
	from := 0
	for _, gi := range j.gpus {
		from = max(from, c.gpus[gi].from)
	}
	return from
}

// jobLinks says how the job's GPUs connect: "nvlink" if any pair is NVLink,
// else the PCIe path names seen (e.g. "PHB/SYS"), "" when unknown.
func (c *ctx) jobLinks(j *job) string {
	var topo *sampler.Topology
	for i := len(c.w) - 1; i >= 0 && topo == nil; i-- {
		topo = c.w[i].Topology
	}
	if topo == nil {
		return ""
	}
	var kinds []string
	for a := 0; a < len(j.gpus); a++ {
		for b := a + 1; b < len(j.gpus); b++ {
			ia, ib := c.gpus[j.gpus[a]].idx, c.gpus[j.gpus[b]].idx
			if ia >= len(topo.Links) || ib >= len(topo.Links[ia]) {
				return ""
			}
			l := topo.Links[ia][ib]
			if strings.HasPrefix(l, "NV") {
				return "nvlink"
			}
			if l != "" && !containsString(kinds, l) {
				kinds = append(kinds, l)
			}
		}
	}
	return strings.Join(kinds, "/")
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// jobCorrelation is the job's mean util and the mean pairwise Pearson
// correlation of its GPUs' util over samples where all of them report it.
func (c *ctx) jobCorrelation(j *job, from int) (meanUtil, corr float64) {
	for len(c.jobSeries) < len(j.gpus) {
		c.jobSeries = append(c.jobSeries, nil)
	}
	// Scratch kept across evaluations (orders.go); the appends below grow
	// c.jobSeries's own elements, which series shares.
	series := c.jobSeries[:len(j.gpus)]
	for k := range series {
		series[k] = series[k][:0]
	}
	for i := from; i < len(c.w); i++ {
		ok := true
		for _, gi := range j.gpus {
			if x := c.gpus[gi].col[i].x; x == nil || !x.Util.OK {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for k, gi := range j.gpus {
			v := c.gpus[gi].col[i].x.Util.V
			series[k] = append(series[k], v)
			meanUtil += v
		}
	}
	if len(series[0]) == 0 {
		return 0, math.NaN()
	}
	meanUtil /= float64(len(series[0]) * len(series))
	sum, n := 0.0, 0
	for a := range series {
		for b := a + 1; b < len(series); b++ {
			if r := pearson(series[a], series[b]); !math.IsNaN(r) {
				sum += r
				n++
			}
		}
	}
	if n == 0 {
		return meanUtil, math.NaN()
	}
	return meanUtil, sum / float64(n)
}

// Package slurm says which Slurm job holds each GPU of this node: from a
// GPU process's environment (SLURM_JOB_ID) or its cgroup path (job_N),
// and, for a GPU allocated with no process on it, from `scontrol show job
// -d` (the GRES indices of each running job on this node). Every input is
// outside text: the parsers are bounded and fuzzed (docs/jobs.md).
package slurm

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// Bounds on what the parsers accept from outside text.
const (
	maxIDLen   = 24   // digits of a job id
	maxGPUIdx  = 1023 // a GRES index above this is not a GPU of one node
	maxHosts   = 4096 // names one host list may expand to
	maxIdxList = 256  // indices one IDX list may expand to
)

// ParseEnviron reads /proc/PID/environ (NUL-separated): the job id
// (SLURM_JOB_ID, or the older SLURM_JOBID) and SLURM_JOB_USER; "" for
// what it does not hold.
func ParseEnviron(b []byte) (job, user string) {
	var old string
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		k, v, ok := bytes.Cut(kv, []byte{'='})
		if !ok {
			continue
		}
		switch string(k) {
		case "SLURM_JOB_ID":
			if id := string(v); validID(id) {
				job = id
			}
		case "SLURM_JOBID":
			if id := string(v); validID(id) {
				old = id
			}
		case "SLURM_JOB_USER":
			if validName(string(v)) {
				user = string(v)
			}
		}
	}
	if job == "" {
		job = old
	}
	return job, user
}

// ParseCgroup reads /proc/PID/cgroup and returns the Slurm job id in its
// path: cgroup v1 ".../slurm/uid_1000/job_12345/step_0/task_0" or v2
// ".../slurmstepd.scope/job_12345/step_0/user/task_0"; "" for a process
// outside a Slurm job.
func ParseCgroup(b []byte) string {
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		// hierarchy-ID:controllers:path; the path may hold colons.
		_, rest, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		_, path, ok := bytes.Cut(rest, []byte{':'})
		if !ok {
			continue
		}
		for seg := range strings.SplitSeq(string(path), "/") {
			if id, ok := strings.CutPrefix(seg, "job_"); ok && validID(id) {
				return id
			}
		}
	}
	return ""
}

func validID(s string) bool {
	if s == "" || len(s) > maxIDLen {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// validName: a user name as useradd allows (letters, digits, ._-, a
// trailing $), no longer than 64.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' ||
			c == '$' && i == len(s)-1
		if !ok {
			return false
		}
	}
	return true
}

// Job is one record of `scontrol show job -d`: what this package needs.
type Job struct {
	ID    string
	User  string // UserId's name, without the "(uid)"
	State string // "RUNNING", "PENDING", ...
	Start time.Time
	// GPUs are the GPU GRES indices given on each node: the detail lines'
	// "Nodes=n[1-2] ... GRES=gpu:h100:2(IDX:0-1)" (or GRES_IDX=, before
	// Slurm 19.05), one entry per detail line.
	GPUs []NodeGPUs
}

// NodeGPUs is one detail line: a host list and the GPU indices on each.
type NodeGPUs struct {
	Nodes string // a host list as Slurm writes it: "gpu[01-02,04]"
	Idx   []int
}

// On returns the GPU indices the job holds on host (its short name is
// matched, so "gpu-7" and "gpu-7.cluster" are the same node).
func (j *Job) On(host string) []int {
	var out []int
	for _, d := range j.GPUs {
		for _, h := range ExpandHosts(d.Nodes) {
			if sameHost(h, host) {
				out = append(out, d.Idx...)
				break
			}
		}
	}
	return out
}

func sameHost(a, b string) bool {
	a, _, _ = strings.Cut(a, ".")
	b, _, _ = strings.Cut(b, ".")
	return a != "" && a == b
}

// ParseJobs reads `scontrol show job -d`, in its multi-line form or one
// line per job (-o): whitespace-separated key=value tokens, a record
// starting at each JobId=.
func ParseJobs(b []byte) []Job {
	var jobs []Job
	var cur *Job
	nodes := ""
	for tok := range strings.FieldsSeq(string(b)) {
		k, v, ok := strings.Cut(tok, "=")
		if !ok {
			continue
		}
		if k == "JobId" {
			jobs = append(jobs, Job{})
			cur, nodes = &jobs[len(jobs)-1], ""
			if validID(v) {
				cur.ID = v
			}
			continue
		}
		if cur == nil {
			continue
		}
		switch k {
		case "UserId":
			if name, _, _ := strings.Cut(v, "("); validName(name) {
				cur.User = name
			}
		case "JobState":
			cur.State = v
		case "StartTime":
			if t, err := time.ParseInLocation("2006-01-02T15:04:05", v, time.Local); err == nil {
				cur.Start = t
			}
		case "Nodes":
			nodes = v
		case "GRES", "GRES_IDX":
			if idx := gpuIndices(v); nodes != "" && len(idx) > 0 {
				cur.GPUs = append(cur.GPUs, NodeGPUs{Nodes: nodes, Idx: idx})
			}
		}
	}
	out := jobs[:0]
	for _, j := range jobs {
		if j.ID != "" {
			out = append(out, j)
		}
	}
	return out
}

// gpuIndices reads a detail line's GRES: "gpu:h100:1(IDX:0),gpu:a100:2(IDX:1-2)",
// "gpu(IDX:0,2-3,5)", "gg:g0(CNT:1),gpu:1(IDX:3)"; only the gpu entries'
// indices, in order, without repeats.
func gpuIndices(v string) []int {
	var out []int
	for _, e := range splitTop(v, ',', '(', ')') {
		name, _, _ := strings.Cut(e, ":")
		name, _, _ = strings.Cut(name, "(")
		if name != "gpu" {
			continue
		}
		_, list, ok := strings.Cut(e, "(IDX:")
		if !ok {
			continue
		}
		list, _, _ = strings.Cut(list, ")")
		for _, i := range expandInts(list, maxIdxList) {
			if i <= maxGPUIdx && !containsInt(out, i) {
				out = append(out, i)
			}
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// splitTop splits s at sep outside open…close brackets.
func splitTop(s string, sep, open, close byte) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth = max(0, depth-1)
		case sep:
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// expandInts reads "0,2-3,5" as 0 2 3 5, at most limit numbers; "N/A"
// and anything malformed give none.
func expandInts(s string, limit int) []int {
	var out []int
	for part := range strings.SplitSeq(s, ",") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err := strconv.Atoi(a)
		if err != nil || lo < 0 {
			return nil
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil || hi < lo {
				return nil
			}
		}
		for i := lo; i <= hi; i++ {
			if len(out) == limit {
				return out
			}
			out = append(out, i)
		}
	}
	return out
}

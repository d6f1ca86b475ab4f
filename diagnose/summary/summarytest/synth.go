// Package summarytest generates deterministic snapshot streams for the
// tests of diagnose/summary and of its renderers (ui/report).
package summarytest

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// Start is the synthetic recording's first sample time.
var Start = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// Synth generates a deterministic node at 1 s, with a known pattern per GPU:
//
//   - GPU 0: util = i mod 100 (so over 300 samples: mean 49.5, p5 4, p50 49,
//     p95 94); memory 10 GiB + i MiB; an Xid 79 at sample 250.
//   - GPU 1: util 90, SM active 60, tensor 30, power 500 W of 700 W, and
//     sw_power_cap for samples 100-199 (100 s throttled).
//   - GPU 2: util alternates 0 / 100, no GPM, power 200 W.
//   - GPU 3 (if present): idle with 40 GiB held by a process.
//
// With recorded set, each snapshot carries findings like a recording's:
// input_starved on GPU 2 for samples 50-149 and 200-249 (two episodes,
// critical from sample 120), and nothing else.
type Synth struct {
	N, GPUs  int // snapshots, GPUs per snapshot
	Host     bool
	Recorded bool
	Names    []string // GPU names; default "NVIDIA H200"
	UtilAdd  float64  // added to every util reading (an "after" run)
	Quiet    bool     // recorded, but no finding at all
	i        int
}

func (s *Synth) Next() (sampler.Snapshot, json.RawMessage, error) {
	if s.i >= s.N {
		return sampler.Snapshot{}, nil, io.EOF
	}
	i := s.i
	s.i++
	t := Start.Add(time.Duration(i) * time.Second)
	snap := sampler.Snapshot{Time: t, Seq: uint64(i),
		Node: sampler.Node{Hostname: "node-a", Driver: "560.35.03", CUDA: "12.6", Source: "synthetic"}}
	for g := range s.GPUs {
		snap.GPUs = append(snap.GPUs, s.gpu(g, i, t))
	}
	if s.Host {
		snap.Host = &sampler.Host{CPU: sampler.Some(20), IOWait: sampler.Some(1)}
	}
	if !s.Recorded {
		return snap, nil, nil
	}
	if s.Quiet {
		return snap, json.RawMessage("null"), nil
	}
	return snap, RecordedFindings(i, t), nil
}

func (s *Synth) gpu(g, i int, t time.Time) sampler.GPU {
	name := "NVIDIA H200"
	if g < len(s.Names) {
		name = s.Names[g]
	}
	x := sampler.GPU{Index: g, Name: name, UUID: "GPU-" + string(rune('a'+g)),
		MemTotal: sampler.Some(141 << 30), PowerLimit: sampler.Some(700), Temp: sampler.Some(float64(40 + i%30)),
		SMClock: sampler.Some(1980), SMClockMax: sampler.Some(1980), ClockEvents: sampler.ClockEvents{OK: true}}
	util := 0.0
	switch g {
	case 0:
		util = float64(i % 100)
		x.MemUsed = sampler.Some(float64(10<<30 + i<<20))
		x.Power = sampler.Some(300)
		if i == 250 {
			x.Xids = []sampler.Xid{{Time: t, Code: 79}}
		}
	case 1:
		util = 90
		x.SMActive, x.TensorActive = sampler.Some(60), sampler.Some(30)
		x.Power = sampler.Some(500)
		x.MemUsed = sampler.Some(80 << 30)
		if i >= 100 && i < 200 {
			x.ClockEvents.Mask = sampler.ClockSwPowerCap
			x.SMClock = sampler.Some(1200)
		}
	case 2:
		util = float64(100 * (i % 2))
		x.Power = sampler.Some(200)
		x.MemUsed = sampler.Some(20 << 30)
	default:
		x.Power = sampler.Some(90)
		x.MemUsed = sampler.Some(40 << 30)
		x.ClockEvents.Mask = sampler.ClockGpuIdle // idle is not a slowdown
		x.Procs = []sampler.GPUProc{{PID: 4242, Type: "C", MemUsed: sampler.Some(40 << 30)}}
	}
	x.Util = sampler.Some(min(util+s.UtilAdd, 100))
	return x
}

// RecordedFindings is what a recording would carry at sample i.
func RecordedFindings(i int, t time.Time) json.RawMessage {
	var fs []diagnose.Finding
	if (i >= 50 && i < 150) || (i >= 200 && i < 250) {
		sev := diagnose.Warning
		if i >= 120 {
			sev = diagnose.Critical
		}
		fs = append(fs, diagnose.Finding{Rule: diagnose.RuleInputStarved, Severity: sev, GPU: 2, PID: 777,
			Title: "GPU 2 starved by the input pipeline", Evidence: fmt.Sprintf("util bursts; sample %d", i),
			Hint: "raise DataLoader num_workers", Since: t, LastSeen: t,
			I18n: &diagnose.FindingText{Title: diagnose.Msg{ID: "input_starved.title", Args: map[string]string{"GPU": "2"}},
				Evidence: diagnose.Text{{ID: "ev.util_spread", Args: map[string]string{"P5": "0%", "P95": "98%", "Mean": "41%", "Span": fmt.Sprint(i) + " s"}}}}})
	}
	raw, err := json.Marshal(fs) // "null" when none, as the recorder writes
	if err != nil {
		panic(err)
	}
	return raw
}

// ErrSource fails after n snapshots.
type ErrSource struct {
	Synth
	FailAt int
	Err    error
}

func (s *ErrSource) Next() (sampler.Snapshot, json.RawMessage, error) {
	if s.i == s.FailAt {
		return sampler.Snapshot{}, nil, s.Err
	}
	return s.Synth.Next()
}

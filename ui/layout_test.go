package ui

import "testing"

func TestComputeLayout(t *testing.T) {
	tests := []struct {
		name             string
		w, h, gpus       int
		tooSmall         bool
		gpuLines         int
		gpuH, findH      int
		side, procs, hst bool
	}{
		{name: "0x0", w: 0, h: 0, tooSmall: true},
		{name: "39x10", w: 39, h: 10, gpus: 8, tooSmall: true},
		{name: "40x9", w: 40, h: 9, gpus: 8, tooSmall: true},
		{name: "40x10 8 GPUs: GPUs scroll, findings keep 3", w: 40, h: 10, gpus: 8, gpuLines: 1, gpuH: 5, findH: 3},
		{name: "80x24 8 GPUs compact", w: 80, h: 24, gpus: 8, gpuLines: 1, gpuH: 9, findH: 5, procs: true, hst: true},
		{name: "120x40 8 GPUs", w: 120, h: 40, gpus: 8, gpuLines: 2, gpuH: 17, findH: 12, side: true, procs: true, hst: true},
		{name: "200x50 8 GPUs", w: 200, h: 50, gpus: 8, gpuLines: 2, gpuH: 17, findH: 14, side: true, procs: true, hst: true},
		{name: "200x50 1 GPU", w: 200, h: 50, gpus: 1, gpuLines: 2, gpuH: 3, findH: 21, side: true, procs: true, hst: true},
		{name: "no GPUs (no driver)", w: 80, h: 24, gpus: 0, gpuLines: 1, gpuH: 2, findH: 9, procs: true, hst: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ComputeLayout(tt.w, tt.h, tt.gpus)
			if l.TooSmall != tt.tooSmall {
				t.Fatalf("TooSmall = %v, want %v", l.TooSmall, tt.tooSmall)
			}
			if l.TooSmall {
				return
			}
			if l.GPULines != tt.gpuLines || l.GPUs.H != tt.gpuH || l.Findings.H != tt.findH {
				t.Errorf("GPULines %d GPUs.H %d Findings.H %d; want %d %d %d",
					l.GPULines, l.GPUs.H, l.Findings.H, tt.gpuLines, tt.gpuH, tt.findH)
			}
			if !l.Side.Empty() != tt.side || !l.Procs.Empty() != tt.procs || !l.Host.Empty() != tt.hst {
				t.Errorf("side %v procs %v host %v; want %v %v %v",
					!l.Side.Empty(), !l.Procs.Empty(), !l.Host.Empty(), tt.side, tt.procs, tt.hst)
			}
			// Panes tile the rows between header and footer exactly.
			sum := l.Header.H + l.GPUs.H + l.Findings.H + l.Procs.H + l.Host.H + l.Footer.H
			if sum != tt.h {
				t.Errorf("rows add up to %d, want %d: %+v", sum, tt.h, l)
			}
			for _, r := range []Rect{l.Header, l.GPUs, l.Findings, l.Procs, l.Host, l.Footer} {
				if r.Y < 0 || r.Y+r.H > tt.h || r.W > tt.w {
					t.Errorf("rect %+v outside %dx%d", r, tt.w, tt.h)
				}
			}
			if !l.Side.Empty() && l.Findings.W+1+l.Side.W != tt.w {
				t.Errorf("findings %d + side %d do not fill %d", l.Findings.W, l.Side.W, tt.w)
			}
		})
	}
}

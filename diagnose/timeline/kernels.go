package timeline

import (
	"cmp"
	"regexp"
	"sort"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// KernelStat is one kernel name's total on the rank.
type KernelStat struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"` // compute, communication, memory
	Count   int     `json:"count"`
	TotalUS float64 `json:"total_us"`
	Share   float64 `json:"share"` // of all GPU event time, percent
}

// Kernels is the kernel breakdown and duration distribution.
type Kernels struct {
	Top       []KernelStat       `json:"top"`
	TypeUS    map[string]float64 `json:"type_us"` // total time by kernel type
	Count     int                `json:"count"`   // kernels (not copies)
	Under10   float64            `json:"under_10us_share"`
	Under50   float64            `json:"under_50us_share"`
	MedianUS  float64            `json:"median_us"`
	LaunchCPU float64            `json:"launch_cpu_us"` // the launching calls' CPU time
	LaunchGPU float64            `json:"launch_gpu_us"` // the launched kernels' GPU time
	// LaunchDelayMedianUS is the median of kernel start − launch start
	// ([hta-docs] §Launch stats).
	LaunchDelayMedianUS float64 `json:"launch_delay_median_us"`
	// LaunchMedianUS is the median CPU time of one launch call.
	LaunchMedianUS float64 `json:"launch_median_us"`
	// ShortShare is the share of launched kernels that ran shorter than
	// their launch call took on the CPU, percent ([hta-docs] §Launch stats:
	// short GPU kernels).
	ShortShare float64 `json:"shorter_than_launch_share"`
	// MatmulUS is GEMM/convolution kernel time, TensorCoreUS the part of it in
	// tensor-core variants.
	MatmulUS     float64 `json:"matmul_us"`
	TensorCoreUS float64 `json:"tensor_core_us"`
}

// topN is how many kernels the breakdown names (HTA's default num_kernels).
const topN = 10

var (
	matmulName = regexp.MustCompile(`(?i)gemm|conv|matmul|implicit_convolve|cutlass|nvjet|xmma`)
	// tensorCoreName: the kernel names of NVIDIA's tensor-core GEMMs
	// (cuBLAS's hmma/884/1688/16816, xmma, CUTLASS tensorop, Hopper's
	// wgmma/nvjet); fp32 SIMT GEMMs are "sgemm" without these.
	tensorCoreName = regexp.MustCompile(`(?i)hmma|884|1688|16816|xmma|tensorop|wgmma|nvjet|bf16|f16|tf32|_s16|i8816`)
)

// kernelAcc is Kernels summed as the events come: a map keyed by name for
// the top kernels and bounded distributions for the medians (dist.go).
type kernelAcc struct {
	k                        Kernels
	byName                   map[int32]*KernelStat
	durs, delays, launchDurs dist
	all                      float64
	under10, under50, short  int
}

func (a *kernelAcc) add(b *Builder, g gpuEvent, cl class) {
	if a.byName == nil {
		a.byName, a.k.TypeUS = map[int32]*KernelStat{}, map[string]float64{}
	}
	k := &a.k
	d := g.end - g.ts
	a.all += d
	k.TypeUS[cl.typ] += d
	s := a.byName[g.name]
	if s == nil {
		s = &KernelStat{Name: b.names[g.name], Type: cl.typ}
		a.byName[g.name] = s
	}
	s.Count++
	s.TotalUS += d
	if g.kind != trace.Kernel {
		return
	}
	a.durs.add(d)
	if d < 10 {
		a.under10++
	}
	if d < 50 {
		a.under50++
	}
	if g.launched {
		k.LaunchCPU += g.ldur
		k.LaunchGPU += d
		a.delays.add(g.ts - g.lts)
		a.launchDurs.add(g.ldur)
		if d < g.ldur {
			a.short++
		}
	}
	if cl.matmul {
		k.MatmulUS += d
		if cl.tensorCore {
			k.TensorCoreUS += d
		}
	}
}

func (a *kernelAcc) kernels() Kernels {
	k := a.k
	if k.TypeUS == nil {
		k.TypeUS = map[string]float64{}
	}
	k.Count = a.durs.n
	if k.Count > 0 {
		k.Under10, k.Under50 = 100*float64(a.under10)/float64(k.Count), 100*float64(a.under50)/float64(k.Count)
		k.MedianUS = a.durs.percentile(50)
	}
	if a.delays.n > 0 {
		k.LaunchDelayMedianUS = a.delays.percentile(50)
		k.LaunchMedianUS = a.launchDurs.percentile(50)
		k.ShortShare = 100 * float64(a.short) / float64(a.launchDurs.n)
	}
	for _, s := range a.byName {
		if a.all > 0 {
			s.Share = 100 * s.TotalUS / a.all
		}
		k.Top = append(k.Top, *s)
	}
	order := func(a, b *KernelStat) int {
		if c := cmp.Compare(b.TotalUS, a.TotalUS); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	}
	sort.Slice(k.Top, func(i, j int) bool { return order(&k.Top[i], &k.Top[j]) < 0 })
	if len(k.Top) > topN {
		k.Top = k.Top[:topN]
	}
	return k
}

package timeline

import (
	"cmp"
	"regexp"
	"sort"

	"github.com/gpuscope/gpuscope/sampler/stat"
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

func (b *Builder) kernels(gpu []gpuEvent) Kernels {
	k := Kernels{TypeUS: map[string]float64{}}
	byName := map[int32]*KernelStat{}
	// Sized once: appending to millions grows each slice five times over
	// its final size in copies, which is what a large trace's peak RSS is.
	durs, delays, launchDurs := make([]float64, 0, len(gpu)), make([]float64, 0, len(gpu)), make([]float64, 0, len(gpu))
	all, short := 0.0, 0
	for _, g := range gpu {
		name, d := b.names[g.name], g.end-g.ts
		cl := b.classOf(g.name)
		typ := cl.typ
		all += d
		k.TypeUS[typ] += d
		s := byName[g.name]
		if s == nil {
			s = &KernelStat{Name: name, Type: typ}
			byName[g.name] = s
		}
		s.Count++
		s.TotalUS += d
		if g.kind != trace.Kernel {
			continue
		}
		durs = append(durs, d)
		if g.launched {
			k.LaunchCPU += g.ldur
			k.LaunchGPU += d
			delays = append(delays, g.ts-g.lts)
			launchDurs = append(launchDurs, g.ldur)
			if d < g.ldur {
				short++
			}
		}
		if cl.matmul {
			k.MatmulUS += d
			if cl.tensorCore {
				k.TensorCoreUS += d
			}
		}
	}
	k.Count = len(durs)
	for _, d := range durs {
		if d < 10 {
			k.Under10++
		}
		if d < 50 {
			k.Under50++
		}
	}
	if k.Count > 0 {
		k.Under10, k.Under50 = 100*k.Under10/float64(k.Count), 100*k.Under50/float64(k.Count)
		k.MedianUS = stat.Percentile(durs, 50)
	}
	if len(delays) > 0 {
		k.LaunchDelayMedianUS = stat.Percentile(delays, 50)
		k.LaunchMedianUS = stat.Percentile(launchDurs, 50)
		k.ShortShare = 100 * float64(short) / float64(len(launchDurs))
	}
	for _, s := range byName {
		if all > 0 {
			s.Share = 100 * s.TotalUS / all
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

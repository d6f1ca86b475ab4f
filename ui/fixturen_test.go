package ui

import (
	"fmt"

	"github.com/gpuscope/gpuscope/sampler"
)

// fixtureSnapshotN is tick i of the mixed node grown or cut to n GPUs (the
// 8-GPU pattern repeats; GPUs past 7 carry no process), with a DGX-like
// all-NV18 topology, NVLinks, CPU affinity and NUMA nodes (two sockets).
func fixtureSnapshotN(i, n int) sampler.Snapshot {
	s := fixtureSnapshot(i)
	base := s.GPUs
	s.GPUs = nil
	for g := 0; g < n; g++ {
		gpu := base[g%len(base)]
		gpu.Index = g
		gpu.UUID = fmt.Sprintf("GPU-%08x-1111-2222-3333-%012x", g, g)
		gpu.BusID = fmt.Sprintf("00000000:%02X:00.0", 0x18+g*0x10)
		if g >= len(base) {
			gpu.Procs = nil
		}
		if !gpu.Lost {
			numa := 0
			gpu.CPUAffinity = "0-55,112-167"
			if g >= (n+1)/2 {
				numa, gpu.CPUAffinity = 1, "56-111,168-223"
			}
			gpu.NUMANode = sampler.Some(float64(numa))
			gpu.PState, gpu.Persistence, gpu.ComputeMode = sampler.Some(0), "on", "default"
			gpu.ECCUncorrected, gpu.ECCCorrected, gpu.RemappedRows = sampler.Some(0), sampler.Some(0), sampler.Some(0)
			gpu.SMOccupancy = sampler.Some(gpu.SMActive.Or(0) * 0.6)
			gpu.MemUtil, gpu.MemClock, gpu.MemClockMax = sampler.Some(gpu.DRAMActive.Or(0)), sampler.Some(2619), sampler.Some(2619)
			gpu.NVLinkRx = sampler.Some(gpu.Util.Or(0) * 2e9)
			gpu.NVLinkTx = sampler.Some(gpu.Util.Or(0) * 1.5e9)
			for l := 0; l < 18; l++ {
				gpu.NVLinks = append(gpu.NVLinks, sampler.NVLink{Link: l, Active: true})
			}
		}
		s.GPUs = append(s.GPUs, gpu)
	}
	s.Topology = &sampler.Topology{Links: nvTopology(n)}
	return s
}

// nvTopology is a DGX H200-like matrix: NV18 between every pair.
func nvTopology(n int) [][]string {
	links := make([][]string, n)
	for a := range links {
		links[a] = make([]string, n)
		for b := range links[a] {
			links[a][b] = "NV18"
			if a == b {
				links[a][b] = "X"
			}
		}
	}
	return links
}

// pcieTopology is a PCIe-only box: pairs share a switch (PIX), a socket's
// four GPUs share a host bridge (PHB), the two sockets are SYS apart.
func pcieTopology(n int) [][]string {
	links := make([][]string, n)
	for a := range links {
		links[a] = make([]string, n)
		for b := range links[a] {
			switch {
			case a == b:
				links[a][b] = "X"
			case a/2 == b/2:
				links[a][b] = "PIX"
			case a/4 == b/4:
				links[a][b] = "PHB"
			default:
				links[a][b] = "SYS"
			}
		}
	}
	return links
}

// fixtureModelN is fixtureModel over n GPUs; edit may change each snapshot.
func fixtureModelN(ticks, n, w, h int, edit func(*sampler.Snapshot)) Model {
	return fixtureModelNWith(ticks, n, w, h, edit, nil)
}

// fixtureModelNWith is fixtureModelN with its options changed by opts first.
func fixtureModelNWith(ticks, n, w, h int, edit func(*sampler.Snapshot), opts func(*Options)) Model {
	m, _ := fixtureModelWith(0, w, h, opts)
	for i := 0; i < ticks; i++ {
		s := fixtureSnapshotN(i, n)
		if edit != nil {
			edit(&s)
		}
		m = push(m, s)
	}
	return m
}

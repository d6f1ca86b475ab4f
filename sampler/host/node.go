package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/load"
	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/net"

	"github.com/gpuscope/gpuscope/sampler"
)

// byteCounter is a cumulative in/out pair: disk read/write or net rx/tx bytes.
type byteCounter struct{ in, out uint64 }

// nodeMarks holds the cumulative counters of the previous tick; each group
// carries its own time because a group whose read failed keeps its old mark.
type nodeMarks struct {
	cpus   []cpu.TimesStat
	cpusAt time.Time
	disks  map[string]byteCounter
	diskAt time.Time
	nics   map[string]byteCounter
	nicAt  time.Time
}

// readNode fills the node-level fields of h. A read that fails leaves its
// fields n/a; rates are n/a on the first tick (nothing to diff against).
func (s *Source) readNode(ctx context.Context, now time.Time, h *sampler.Host) {
	if times, err := cpu.TimesWithContext(ctx, true); err == nil && len(times) > 0 {
		if len(s.marks.cpus) == len(times) && now.After(s.marks.cpusAt) {
			cpuRates(s.marks.cpus, times, h)
		}
		s.marks.cpus, s.marks.cpusAt = times, now
	}
	if avg, err := load.AvgWithContext(ctx); err == nil {
		h.Load1, h.Load5, h.Load15 = sampler.Some(avg.Load1), sampler.Some(avg.Load5), sampler.Some(avg.Load15)
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		h.MemTotal, h.MemUsed = sampler.Some(float64(vm.Total)), sampler.Some(float64(vm.Used))
	}
	if sw, err := mem.SwapMemoryWithContext(ctx); err == nil {
		h.SwapTotal, h.SwapUsed = sampler.Some(float64(sw.Total)), sampler.Some(float64(sw.Used))
	}
	if disks, err := s.wholeDiskCounters(ctx); err == nil {
		h.DiskRead, h.DiskWrite = rates(s.marks.disks, disks, now.Sub(s.marks.diskAt))
		s.marks.disks, s.marks.diskAt = disks, now
	}
	if nics, err := s.nicCounters(ctx); err == nil {
		h.NetRx, h.NetTx = rates(s.marks.nics, nics, now.Sub(s.marks.nicAt))
		s.marks.nics, s.marks.nicAt = nics, now
	}
}

// cpuRates sets per-core busy %, total busy % and iowait % from two readings
// of /proc/stat. Busy is everything but idle and iowait (what top and htop
// count); guest time is already inside user, so it is not added again.
func cpuRates(prev, cur []cpu.TimesStat, h *sampler.Host) {
	h.CPUs = make([]float64, len(cur))
	var busySum, ioSum, totalSum float64
	for i := range cur {
		total := cpuTotal(cur[i]) - cpuTotal(prev[i])
		idle := cur[i].Idle - prev[i].Idle
		iowait := cur[i].Iowait - prev[i].Iowait
		if total <= 0 {
			continue // no ticks on this core since last time (or a counter reset)
		}
		busy := clampPct(100 * (total - idle - iowait) / total)
		h.CPUs[i] = busy
		busySum += total - idle - iowait
		ioSum += iowait
		totalSum += total
	}
	if totalSum > 0 {
		h.CPU = sampler.Some(clampPct(100 * busySum / totalSum))
		h.IOWait = sampler.Some(clampPct(100 * ioSum / totalSum))
	}
}

func cpuTotal(t cpu.TimesStat) float64 {
	return t.User + t.Nice + t.System + t.Idle + t.Iowait + t.Irq + t.Softirq + t.Steal
}

func clampPct(v float64) float64 { return min(max(v, 0), 100) }

// rates sums per-device byte deltas over devices present in both readings,
// so a disk that appears or a NIC whose counters reset does not make a spike.
// n/a when there is no previous reading or no common device.
func rates(prev, cur map[string]byteCounter, dt time.Duration) (in, out sampler.Metric) {
	if prev == nil || dt <= 0 {
		return sampler.NA, sampler.NA
	}
	var din, dout uint64
	common := 0
	for name, c := range cur {
		p, ok := prev[name]
		if !ok || c.in < p.in || c.out < p.out {
			continue
		}
		common++
		din += c.in - p.in
		dout += c.out - p.out
	}
	if common == 0 {
		return sampler.NA, sampler.NA
	}
	sec := dt.Seconds()
	return sampler.Some(float64(din) / sec), sampler.Some(float64(dout) / sec)
}

// wholeDiskCounters reads /proc/diskstats for whole physical disks only.
// Partitions repeat their disk's bytes, and loop, ram, zram, device-mapper
// and md devices sit on top of real disks (or memory), so summing them would
// count the same I/O twice.
func (s *Source) wholeDiskCounters(ctx context.Context) (map[string]byteCounter, error) {
	stats, err := disk.IOCountersWithContext(ctx)
	if err != nil {
		return nil, err
	}
	// /sys/block lists whole disks and not partitions; if it cannot be read
	// (an unusual container), keep every non-virtual name.
	whole := map[string]bool{}
	if entries, err := os.ReadDir(filepath.Join(s.sysRoot, "block")); err == nil {
		for _, e := range entries {
			whole[e.Name()] = true
		}
	}
	out := make(map[string]byteCounter, len(stats))
	for name, st := range stats {
		if len(whole) > 0 && !whole[name] {
			continue
		}
		if isVirtualDisk(name) {
			continue
		}
		out[name] = byteCounter{in: st.ReadBytes, out: st.WriteBytes}
	}
	return out, nil
}

func isVirtualDisk(name string) bool {
	for _, prefix := range []string{"loop", "ram", "zram", "dm-", "md", "nbd", "sr"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// nicCounters reads per-interface byte counters, skipping loopback and
// virtual interfaces (bridges, veths, ifb mirrors, bonds over real NICs),
// which repeat traffic a physical NIC already counted. Inside a container
// every interface is virtual; then all but loopback are kept.
func (s *Source) nicCounters(ctx context.Context) (map[string]byteCounter, error) {
	stats, err := net.IOCountersWithContext(ctx, true)
	if err != nil {
		return nil, err
	}
	all := make(map[string]byteCounter, len(stats))
	physical := make(map[string]byteCounter, len(stats))
	for _, st := range stats {
		if st.Name == "lo" {
			continue
		}
		c := byteCounter{in: st.BytesRecv, out: st.BytesSent}
		all[st.Name] = c
		if _, err := os.Stat(filepath.Join(s.sysRoot, "devices/virtual/net", st.Name)); err != nil {
			physical[st.Name] = c
		}
	}
	if len(physical) > 0 {
		return physical, nil
	}
	return all, nil
}

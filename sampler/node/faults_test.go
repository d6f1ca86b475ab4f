package node

import (
	"strings"
	"testing"
	"time"
)

// TestDemoFaults: each --demo-fault shows through the production NVML
// reader as it would on a real node, and the lost GPU comes back.
func TestDemoFaults(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d, err := NewDemo("mixed", 1, start)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Inject([]string{"all"}); err != nil {
		t.Fatal(err)
	}
	s := d.Sampler("mixed")
	var problems []string
	sawHostile := false
	for sec := 0; sec <= 200; sec++ {
		snap := s.Tick(start.Add(time.Duration(sec) * time.Second))
		problems = append(problems, snap.Problems...)
		lost := snap.GPUs[lostGPU].Lost
		switch {
		case sec < 60 && lost, sec >= 61 && sec < 150 && !lost, sec >= 170 && lost:
			t.Fatalf("t=%ds: GPU %d lost = %v", sec, lostGPU, lost)
		}
		if g := snap.GPUs[2]; g.Power.OK || g.NA["power"] != "ERROR_TIMEOUT" {
			t.Fatalf("t=%ds: GPU 2 power %+v (%q), want n/a from the timeout", sec, g.Power, g.NA["power"])
		}
		if g := snap.GPUs[1]; len(g.Procs) != 0 || g.NA["procs"] != "no permission" {
			t.Fatalf("t=%ds: GPU 1 procs %d (%q), want refused", sec, len(g.Procs), g.NA["procs"])
		}
		for _, p := range snap.Host.Procs {
			sawHostile = sawHostile || p.Cmdline == hostileCmdline
		}
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"GPU 3 (", "fell off the bus", "answers again", "GPU 2: reading power failed (NVML ERROR_TIMEOUT)"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if !sawHostile {
		t.Error("no hostile command line in the host data")
	}
	if err := d.Inject([]string{"bogus"}); err == nil || !strings.Contains(err.Error(), "lost, timeout") {
		t.Errorf("unknown fault: %v", err)
	}
}

// TestDemoDriverFaults: the faults of real drivers (docs/driver-compatibility.md)
// show in the demo as the production reader shows them on a node.
func TestDemoDriverFaults(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d, err := NewDemo("mixed", 1, start)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Inject([]string{"old-driver", "no-events", "revoked", "foreign-pids"}); err != nil {
		t.Fatal(err)
	}
	s := d.Sampler("mixed")
	var problems []string
	for sec := 0; sec <= 100; sec++ {
		snap := s.Tick(start.Add(time.Duration(sec) * time.Second))
		problems = append(problems, snap.Problems...)
		if g := snap.GPUs[0]; g.SMActive.OK || g.NA["sm_active"] != "not in this driver version" || !g.ClockEvents.OK {
			t.Fatalf("t=%ds: GPU 0 on the old driver: GPM %+v (%q), clock events %+v", sec, g.SMActive, g.NA["sm_active"], g.ClockEvents)
		}
		if snap.Node.Driver != oldDriverVersion {
			t.Fatalf("driver %q", snap.Node.Driver)
		}
		if snap.Host == nil || len(snap.Host.Procs) > 0 || !snap.Host.ForeignPIDs {
			t.Fatalf("t=%ds: host %+v, want no processes and ForeignPIDs", sec, snap.Host)
		}
		if g := snap.GPUs[revokedGPU]; sec >= 91 && g.NA["util"] != "ERROR_UNKNOWN" {
			t.Fatalf("t=%ds: GPU %d util %+v (%q), want revoked", sec, revokedGPU, g.Util, g.NA["util"])
		}
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"driver " + oldDriverVersion + " has no NVML function for", "sm_active", "no Xid events", "restart the container"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

package importer

import (
	"strings"
	"testing"
)

// NVML's NVML_ERROR_GPU_IS_LOST as agents on NVML log it, written from
// nvml.h's return code and go-nvml's constant name (not from a corpus
// file): each GPU a line names is read lost, once; the code's name in
// prose, naming no GPU, is not claimed.
func TestNVMLLostLines(t *testing.T) {
	const uuid = "GPU-5b2c3d4e-1111-2222-3333-444455556666"
	for in, want := range map[string][]string{
		`time="2026-12-07T10:00:00Z" level=error msg="failed to get device temperature" uuid=` + uuid + ` error=ERROR_GPU_IS_LOST` + "\n": {uuid},
		"nvmlDeviceGetMemoryInfo(00000000:3B:00.0) returned NVML_ERROR_GPU_IS_LOST\n" +
			"nvmlDeviceGetPowerUsage(00000000:3B:00.0) returned NVML_ERROR_GPU_IS_LOST\n" +
			"nvmlDeviceGetMemoryInfo(00000000:86:00.0) returned NVML_ERROR_GPU_IS_LOST\n": {"00000000:3B:00.0", "00000000:86:00.0"},
	} {
		snaps, ev := readPaste(t, in)
		if len(snaps) != 1 || len(snaps[0].GPUs) != len(want) {
			t.Fatalf("snapshots %+v for\n%s", snaps, in)
		}
		for i, g := range snaps[0].GPUs {
			if !g.Lost || g.UUID+g.BusID != want[i] {
				t.Errorf("GPU %d: %+v, want %s lost", i, g, want[i])
			}
		}
		if sec := strings.Join(ev.Sections(), "\n"); !strings.Contains(sec, "NVML answered ERROR_GPU_IS_LOST for "+want[0]) {
			t.Errorf("sections:\n%s", sec)
		}
	}
	prose := "nvmlDeviceGetHandleByIndex returns NVML_ERROR_GPU_IS_LOST if the target GPU has fallen off the bus\n"
	if _, _, err := NewStream(strings.NewReader(prose), "paste", Options{Start: fixedStart}); err == nil {
		t.Errorf("prose naming no GPU was read")
	}
}

// The agent's line is long: wrapped by a chat at 80 columns (at its last
// space) or cut by a terminal at 120, it is joined back and read
// (unwrap.go, docs/corpus-copies.md).
func TestNVMLLostWrapped(t *testing.T) {
	line := `time="2026-12-07T10:00:00Z" level=error msg="failed to get device power usage" uuid=GPU-5b2c3d4e-1111-2222-3333-444455556666 error=ERROR_GPU_IS_LOST`
	k := strings.LastIndex(line[:80], " ")
	for _, in := range []string{line[:k] + "\n" + line[k+1:] + "\n", line[:120] + "\n" + line[120:] + "\n"} {
		snaps, _ := readPaste(t, in)
		if len(snaps) != 1 || len(snaps[0].GPUs) != 1 || !snaps[0].GPUs[0].Lost {
			t.Errorf("snapshots %+v for\n%s", snaps, in)
		}
	}
}

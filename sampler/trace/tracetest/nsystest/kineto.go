package nsystest

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// Kineto's words for copies ([kineto-activity]: memcpyKindString and
// memoryKindString), indexed by the numbers Ev carries.
var (
	kinetoCopy = map[int]string{1: "HtoD", 2: "DtoH", 8: "DtoD"}
	kinetoMem  = map[int]string{0: "Pageable", 1: "Pinned", 2: "Device"}
)

// Epoch is the wall-clock time of ts 0 in WriteKineto's traces.
var Epoch = time.Unix(0, 1700000000000000000)

// WriteKineto writes evs as a Kineto Chrome trace whose ts 0 is Epoch.
func WriteKineto(w io.Writer, evs []Ev) error { return WriteKinetoAt(w, evs, Epoch) }

// WriteKinetoAt writes evs as a Kineto Chrome trace whose ts 0 is base
// (its baseTimeNanoseconds), to set it beside a recording of that time.
func WriteKinetoAt(w io.Writer, evs []Ev, base time.Time) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": %q, "totalGlobalMem": %d, "computeMajor": %d, "computeMinor": %d, "numSms": %d}],
"baseTimeNanoseconds": %d, "traceEvents": [
`, Device.Name, Device.Mem, Device.Major, Device.Minor, Device.SMs, base.UnixNano())
	for i, e := range evs {
		if i > 0 {
			bw.WriteString(",\n")
		}
		cat, name, pid, tid, args := "", e.Name, int64(PID), e.TID, ""
		gpu := fmt.Sprintf(`"device": 0, "stream": %d, "correlation": %d`, e.Stream, e.Corr)
		switch e.Kind {
		case "kernel":
			cat, pid, tid, args = "kernel", 0, int64(e.Stream), gpu
		case "memcpy":
			cat, pid, tid = "gpu_memcpy", 0, int64(e.Stream)
			name = fmt.Sprintf("Memcpy %s (%s -> %s)", kinetoCopy[e.Copy], kinetoMem[e.Src], kinetoMem[e.Dst])
			args = fmt.Sprintf(`%s, "bytes": %d`, gpu, e.Bytes)
		case "memset":
			cat, pid, tid = "gpu_memset", 0, int64(e.Stream)
			name = "Memset (" + kinetoMem[e.Dst] + ")"
			args = fmt.Sprintf(`%s, "bytes": %d`, gpu, e.Bytes)
		case "runtime":
			cat, args = "cuda_runtime", fmt.Sprintf(`"correlation": %d`, e.Corr)
		case "range":
			cat = "user_annotation"
			if strings.HasPrefix(name, "aten::") {
				cat = "cpu_op"
			}
		}
		fmt.Fprintf(bw, `{"ph": "X", "cat": %q, "name": %q, "pid": %d, "tid": %d, "ts": %s, "dur": %s, "args": {%s}}`,
			cat, name, pid, tid, micros(e.Start), micros(e.Dur), args)
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// micros writes nanoseconds as Kineto writes microseconds: three decimals.
func micros(ns int64) string { return fmt.Sprintf("%d.%03d", ns/1000, ns%1000) }

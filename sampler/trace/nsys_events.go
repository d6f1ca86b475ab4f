package trace

import (
	"regexp"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/sqlite"
)

// runtimeVersion is the API version CUPTI appends to a runtime function's
// name (cudaLaunchKernel_v7000); Kineto's names have none.
var runtimeVersion = regexp.MustCompile(`_v[0-9]+$`)

// runtime reads the CUDA API calls (runtime and driver both land in this
// table). Exports whose table has a cbid column and no nameId name the
// calls the analysis needs from CUPTI's callback ids.
func (r *nsysReader) runtime() error {
	names := []string{"start", "end", "globalTid", "correlationId", "nameId", "cbid"}
	return r.scan("CUPTI_ACTIVITY_KIND_RUNTIME", names, func(c []int, row []sqlite.Value) error {
		name := r.apiName(at(row, c[4]), at(row, c[5]), c[4] < 0)
		kind := Runtime
		if !strings.HasPrefix(name, "cuda") && strings.HasPrefix(name, "cu") {
			kind = Driver
		}
		pid, tid := globalTid(at(row, c[2]).Int64())
		start := ns(at(row, c[0]))
		return r.emit(Event{Kind: kind, Name: name, PID: pid, TID: tid, TS: start, Dur: span(at(row, c[0]), at(row, c[1])),
			Stream: -1, Device: -1, Corr: at(row, c[3]).Int64(), Proc: pid})
	})
}

// apiName is a call's name as Kineto writes it, made once per name id.
func (r *nsysReader) apiName(nameID, cbid sqlite.Value, byCbid bool) string {
	key := nameID.Int64()
	if byCbid {
		key = -1 - cbid.Int64() // apart from the name ids, which are >= 0
	}
	if name, ok := r.apis[key]; ok {
		return name
	}
	name := r.str(nameID)
	if byCbid {
		name = runtimeCbids[cbid.Int64()]
	}
	name = runtimeVersion.ReplaceAllLiteralString(name, "")
	r.apis[key] = name
	return name
}

// runtimeCbids are CUPTI's runtime callback ids ([cupti-cbid]) of the calls
// the analysis tells apart: launches, synchronisations, copies.
var runtimeCbids = map[int64]string{
	13: "cudaLaunch", 211: "cudaLaunchKernel", 214: "cudaLaunchKernel_ptsz", 269: "cudaLaunchCooperativeKernel",
	131: "cudaStreamSynchronize", 239: "cudaStreamSynchronize_ptsz", 165: "cudaDeviceSynchronize", 137: "cudaEventSynchronize",
	126: "cudaThreadSynchronize", 31: "cudaMemcpy", 41: "cudaMemcpyAsync", 215: "cudaMemcpy_ptds", 225: "cudaMemcpyAsync_ptsz",
	49: "cudaMemset", 51: "cudaMemsetAsync", 147: "cudaStreamWaitEvent",
}

// nvtx reads NVTX ranges (push/pop and start/end; marks have no end) as
// CPU ranges, so ProfilerStep#N, the DataLoader's and torch's operator
// ranges count as they do in a Kineto trace.
func (r *nsysReader) nvtx() error {
	names := []string{"start", "end", "text", "textId", "globalTid"}
	return r.scan("NVTX_EVENTS", names, func(c []int, row []sqlite.Value) error {
		end := at(row, c[1])
		if end.Type == sqlite.Null {
			return nil
		}
		var name string
		if t := at(row, c[2]); t.Type == sqlite.Text {
			name = r.intern(t.Bytes)
		} else {
			name = r.str(at(row, c[3]))
		}
		name = nvtxOpName(name)
		if name == "" {
			return nil
		}
		kind := Annotation
		switch {
		case strings.HasPrefix(name, "ProfilerStep#"):
			kind = ProfilerStep
		case strings.HasPrefix(name, "aten::"):
			kind = CPUOp
		}
		pid, tid := globalTid(at(row, c[4]).Int64())
		start := ns(at(row, c[0]))
		return r.emit(Event{Kind: kind, Name: name, PID: pid, TID: tid, TS: start, Dur: span(at(row, c[0]), end), Stream: -1, Device: -1, Proc: pid})
	})
}

// nvtxOpName is the operator's name of a torch.autograd.profiler.emit_nvtx
// range, which appends ", seq = N", ", op_id = N" and ", sizes = [...]"
// ([torch-emit-nvtx]); other ranges are their text.
func nvtxOpName(s string) string {
	for _, sep := range []string{", seq = ", ", op_id = ", ", sizes = "} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

func (r *nsysReader) intern(b []byte) string {
	if s, ok := r.texts[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.texts) < 1<<16 {
		r.texts[s] = s
	}
	return s
}

// gpuColumns are the columns every GPU activity table has.
var gpuColumns = []string{"start", "end", "deviceId", "streamId", "correlationId", "globalPid"}

func (r *nsysReader) gpuEvent(kind Kind, name string, c []int, row []sqlite.Value) Event {
	start := ns(at(row, c[0]))
	dev, stream := at(row, c[2]).Int64(), at(row, c[3]).Int64()
	proc, _ := globalTid(at(row, c[5]).Int64()) // globalPid: the process in globalTid's bits
	return Event{Kind: kind, Name: name, PID: dev, TID: stream, TS: start, Dur: span(at(row, c[0]), at(row, c[1])),
		Stream: int(stream), Device: int(dev), Corr: at(row, c[4]).Int64(), Proc: proc}
}

// kernels: Kineto names a kernel by its demangled name.
func (r *nsysReader) kernels() error {
	names := append(gpuColumns[:len(gpuColumns):len(gpuColumns)], "demangledName", "shortName", "mangledName")
	return r.scan("CUPTI_ACTIVITY_KIND_KERNEL", names, func(c []int, row []sqlite.Value) error {
		name := r.str(at(row, c[6]))
		for i := 7; name == "" && i < len(c); i++ {
			name = r.str(at(row, c[i]))
		}
		return r.emit(r.gpuEvent(Kernel, name, c, row))
	})
}

func (r *nsysReader) memcpys() error {
	names := append(gpuColumns[:len(gpuColumns):len(gpuColumns)], "bytes", "copyKind", "srcKind", "dstKind")
	return r.scan("CUPTI_ACTIVITY_KIND_MEMCPY", names, func(c []int, row []sqlite.Value) error {
		e := r.gpuEvent(Memcpy, r.memcpyName(at(row, c[7]), at(row, c[8]), at(row, c[9])), c, row)
		e.Bytes = at(row, c[6]).Int64()
		return r.emit(e)
	})
}

func (r *nsysReader) memsets() error {
	names := append(gpuColumns[:len(gpuColumns):len(gpuColumns)], "bytes", "memKind|memoryKind")
	return r.scan("CUPTI_ACTIVITY_KIND_MEMSET", names, func(c []int, row []sqlite.Value) error {
		e := r.gpuEvent(Memset, r.memsetName(at(row, c[7])), c, row)
		e.Bytes = at(row, c[6]).Int64()
		return r.emit(e)
	})
}

// syncs are the GPU side of synchronisations, Kineto's cuda_sync events.
func (r *nsysReader) syncs() error {
	names := append(gpuColumns[:len(gpuColumns):len(gpuColumns)], "syncType")
	return r.scan("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", names, func(c []int, row []sqlite.Value) error {
		return r.emit(r.gpuEvent(Sync, syncName(at(row, c[6]).Int64()), c, row))
	})
}

// syncName is Kineto's name of CUpti_ActivitySynchronizationType
// (ENUM_CUPTI_SYNC_TYPE in the export).
func syncName(t int64) string {
	switch t {
	case 1:
		return "Event Sync"
	case 2:
		return "Stream Wait Event"
	case 3:
		return "Stream Sync"
	case 4:
		return "Context Sync"
	}
	return "Unknown Sync"
}

func (r *nsysReader) memsetName(kind sqlite.Value) string {
	key := [3]int64{-2, r.kindKey(kind), 0}
	if name, ok := r.copyNames[key]; ok {
		return name
	}
	name := "Memset (" + r.memoryKind(kind) + ")"
	r.copyNames[key] = name
	return name
}

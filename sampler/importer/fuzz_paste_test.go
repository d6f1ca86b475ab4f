package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// pasteSeeds are the corpus of real outputs plus this package's fixtures.
func pasteSeeds(f *testing.F) {
	for _, glob := range []string{"testdata/*", "testdata/real/*"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 16<<10 { // small seeds keep each run fast on a loaded machine
				f.Add(b)
			}
		}
	}
	f.Add([]byte(table418))
	// The table as copies change it (copied.go, unwrap.go): quoted twice,
	// with non-breaking spaces, and a CUDA message cut by a terminal.
	f.Add([]byte("> > " + strings.ReplaceAll(table418, "\n", "\n> > ")))
	f.Add([]byte(bom + strings.ReplaceAll(table418, " ", nbsp)))
	f.Add([]byte("THCudaCheck FAIL file=/pytorch/aten/src/THC/THCTensorRandom.cu line=25 error=46 : al\nl CUDA-capable devices are busy or unavailable\n\n"))
	// Host text refused by name (foreign.go): top, a bare traceback.
	f.Add([]byte("top - 14:02:11 up 12 days,  3:41,  2 users,  load average: 8.12\n    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM\n"))
	f.Add([]byte("Traceback (most recent call last):\n  File \"t.py\", line 1\nRuntimeError: CUDA error\n"))
	// A missing fabric manager beside an NVSwitch bridge (fmlog.go).
	f.Add([]byte("Unit nvidia-fabricmanager.service could not be found.\n84:00.0 Bridge: NVIDIA Corporation GA100 [A100 NVSwitch] (rev a1)\n"))
	// XLA's kernel module against libcuda version line (drvmismatch.go).
	f.Add([]byte("E cuda_diagnostics.cc:313] kernel version 515.48.7 does not match DSO version 510.73.5 -- cannot find working devices in this configuration\n"))
	f.Add([]byte("nvmlDeviceGetTemperature(00000000:3B:00.0) returned NVML_ERROR_GPU_IS_LOST\nerror=ERROR_GPU_IS_LOST uuid=GPU-5b2c3d4e-1111-2222-3333-444455556666\n"))
	// -q joined into one line by a forum's quote (smiq_joined.go), and
	// ggml's allocation failure (cudaoom.go).
	f.Add([]byte("> ==============NVSMI LOG============== Timestamp : Mon Mar 4 11:02:51 2024 Attached GPUs : 1 GPU 00000000:2B:00.0 Clocks Graphics : 1785 MHz SM : 1785 MHz\n"))
	f.Add([]byte("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 2048.00 MiB on device 1: cudaMalloc failed: out of memory\n"))
}

// FuzzPaste feeds arbitrary text to the section reader and every section
// parser behind it (table, -q, topo -m, kernel and error lines, embedded
// logs) and to the merge: none may panic, and what comes out is bounded.
func FuzzPaste(f *testing.F) {
	pasteSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Split(string(data), "\n")
		s, err := newPaste([]textInput{{lines: lines}}, "fuzz", Options{}.withDefaults(""))
		if err != nil {
			if r := foreignTool(data, "fuzz"); r != nil && strings.Contains(r.Error(), "\n") {
				t.Fatalf("refusal of %q is not one line", r.Kind)
			}
			return
		}
		ev := s.(Evidence)
		n := 0
		var last []sampler.GPU
		for {
			snap, err := s.Next()
			if err != nil {
				break
			}
			last = snap.GPUs
			if n++; n > len(data)+2 {
				t.Fatalf("more snapshots (%d) than input bytes", n)
			}
		}
		for _, g := range last { // Where scans every location: once per GPU, as a report does per finding
			_ = ev.Where(g.Index, "")
		}
		if len(ev.Sections()) > len(lines) {
			t.Fatalf("%d sections from %d lines", len(ev.Sections()), len(lines))
		}
	})
}

// FuzzSections runs each section parser on arbitrary lines directly, so
// that a parser is exercised even when splitPaste would not route the
// text to it.
func FuzzSections(f *testing.F) {
	pasteSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Split(string(data), "\n")
		if len(lines) == 0 {
			return
		}
		for _, kind := range []string{kindTable, kindQuery, kindTopo, kindKernel, kindSMIError, kindList, kindDiag, kindMIG, kindNCCLWarn, kindTorchOOM, kindVCUDAOOM, kindCUDAOOM} {
			sec := section{kind: kind, first: 1, lines: lines}
			_ = readSections([]section{sec}, Options{}.withDefaults(""))
		}
	})
}

package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nsysSample reads a real export of testdata (INDEX.md) and counts it.
type nsysSample struct {
	meta    Meta
	kernels []Event
	copies  map[string]int64 // bytes by name
	runtime map[string]int
}

func readNsysSample(t *testing.T, name string) (nsysSample, error) {
	t.Helper()
	s := nsysSample{copies: map[string]int64{}, runtime: map[string]int{}}
	var err error
	s.meta, err = ReadFile(filepath.Join("testdata", name), func(e Event) error {
		switch e.Kind {
		case Kernel:
			s.kernels = append(s.kernels, e)
		case Memcpy, Memset:
			s.copies[e.Name] += e.Bytes
		case Runtime, Driver:
			s.runtime[e.Name]++
		}
		return nil
	})
	return s, err
}

// What the sources confirm (testdata/INDEX.md): vecadd_gpu_1t.cu's one
// add<<<1,1>>> on managed arrays of 2^26 floats, on an A100.
func TestNsys2022VecaddOnA100(t *testing.T) {
	s, err := readNsysSample(t, "nsys_vecadd_a100_2022.2.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.kernels) != 1 || s.kernels[0].Name != "add(int, float *, float *)" || s.kernels[0].Device != 0 {
		t.Fatalf("kernels %+v", s.kernels)
	}
	d := s.meta.Devices
	if len(d) != 1 || d[0].Name != "NVIDIA A100-SXM4-40GB" || d[0].ComputeMajor != 8 || d[0].NumSMs != 108 || d[0].TotalMem != 42297524224 {
		t.Errorf("devices %+v", d)
	}
	if s.meta.BaseTimeNanoseconds != 1684405961402176525 || s.meta.Platform != "cuda" || s.meta.Rank != -1 {
		t.Errorf("meta %+v", s.meta)
	}
	// both managed arrays migrate to the device, y comes back
	if s.copies["Memcpy HtoD (Unified Memory)"] != 2<<28 || s.copies["Memcpy DtoH (Unified Memory)"] != 1<<28 {
		t.Errorf("copies %v", s.copies)
	}
	// the launch names as Kineto names it, and the kernel's correlation is its launch's
	if s.runtime["cudaLaunchKernel"] != 1 || s.runtime["cudaDeviceSynchronize"] != 1 || s.runtime["cudaMallocManaged"] != 2 || s.runtime["cuModuleGetLoadingMode"] != 1 {
		t.Errorf("runtime calls %v", s.runtime)
	}
	if s.kernels[0].Corr == 0 || s.kernels[0].Dur < 6e6 {
		t.Errorf("kernel %+v", s.kernels[0])
	}
}

// vector_addition/vecAdd.cu: std::vector (pageable) arrays copied in twice,
// one kernel, one copy back.
func TestNsys2025PageableCopies(t *testing.T) {
	s, err := readNsysSample(t, "nsys_vecadd_rtx3060_2025.5.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.kernels) != 1 || s.kernels[0].Name != "kernVectorAdd(const float *, const float *, float *, int)" {
		t.Fatalf("kernels %+v", s.kernels)
	}
	if d := s.meta.Devices; len(d) != 1 || d[0].Name != "NVIDIA GeForce RTX 3060" || d[0].ComputeMajor != 8 || d[0].ComputeMinor != 6 {
		t.Errorf("devices %+v", d)
	}
	want := map[string]int64{"Memcpy HtoD (Pageable -> Device)": 8 << 20, "Memcpy DtoH (Device -> Pageable)": 4 << 20}
	if len(s.copies) != len(want) || s.copies["Memcpy HtoD (Pageable -> Device)"] != want["Memcpy HtoD (Pageable -> Device)"] || s.copies["Memcpy DtoH (Device -> Pageable)"] != want["Memcpy DtoH (Device -> Pageable)"] {
		t.Errorf("copies %v, want %v", s.copies, want)
	}
	if s.runtime["cudaMemcpy"] != 3 || s.runtime["cudaLaunchKernel"] != 1 || s.runtime["cuLibraryLoadData"] != 1 {
		t.Errorf("runtime calls %v", s.runtime)
	}
}

// A memset table with a column (greenContextId) where older exports had
// none: columns are found by name.
func TestNsysMemsetColumnsByName(t *testing.T) {
	s, err := readNsysSample(t, "nsys_memset_rtx4060_2025.5.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if s.copies["Memset (Device)"] != 4608 || len(s.kernels) != 0 || s.meta.GPUEvents != 1 || s.runtime["cudaMemsetAsync"] != 1 {
		t.Errorf("copies %v, kernels %d, meta %+v, runtime %v", s.copies, len(s.kernels), s.meta, s.runtime)
	}
}

func TestNsysBadInputOneLineEach(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("testdata/nsys_vecadd_rtx3060_2025.5.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other, err := os.ReadFile("../sqlite/testdata/small.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	wal := write("wal.sqlite", good)
	write("wal.sqlite-wal", []byte("pending pages"))
	for name, c := range map[string]struct{ path, want string }{
		"no kernels": {"testdata/nsys_no_kernels_2025.3.sqlite", "no GPU activity"},
		"truncated":  {write("cut.sqlite", good[:len(good)/2]), "truncated"},
		"not nsys":   {write("other.sqlite", other), "not an Nsight Systems export"},
		"wal":        {wal, "-wal is beside it"},
	} {
		_, err := ReadFile(c.path, func(Event) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), filepath.Base(c.path)) {
			t.Errorf("%s: %v, want one line naming the file and saying %q", name, err, c.want)
		}
	}
	if _, err := ReadStream(strings.NewReader(string(good)), func(Event) error { return nil }); err == nil || !strings.Contains(err.Error(), "give its path") {
		t.Errorf("an export on a pipe: %v", err)
	}
}

func TestNsysFoundInDirAndSniffed(t *testing.T) {
	paths, err := InDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".sqlite") {
			n++
		}
	}
	if n != 4 {
		t.Errorf("InDir found %d exports: %v", n, paths)
	}
	if ok, err := IsTraceFile("testdata/nsys_vecadd_a100_2022.2.sqlite"); !ok || err != nil {
		t.Errorf("IsTraceFile = %v, %v", ok, err)
	}
}

func TestNvtxOpName(t *testing.T) {
	for in, want := range map[string]string{
		"aten::addmm, seq = 12, op_id = 7, sizes = [[64, 64]]":        "aten::addmm",
		"aten::item, sizes = []":                                      "aten::item",
		"ProfilerStep#3":                                              "ProfilerStep#3",
		"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
	} {
		if got := nvtxOpName(in); got != want {
			t.Errorf("nvtxOpName(%q) = %q, want %q", in, got, want)
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// glibcFloor is the oldest glibc the release binaries must start on:
// CentOS 7's 2.17 (RHEL 8 has 2.28, Ubuntu 20.04 2.31).
const glibcFloor = 17

// TestDistBinaries builds both release binaries the way `make dist` does
// (zig cc against glibc 2.17, stripped; Makefile) and checks what a user on
// an old or odd node depends on: no versioned libc symbol above 2.17, no
// link-time dependency on libnvidia-ml (the binary must start where no
// driver is installed), the arm64 one running the demo under qemu-user
// (GH200 and GB200 are aarch64), and the amd64 one reading a real
// libnvidia-ml.so.1 through go-nvml: a stand-in with one GPU and only the
// calls an old driver had, so every newer call must be skipped rather than
// end the process (sampler/nvmlsource/symbols.go). `make deps` installs the
// tools; without them this fails and names them, it does not skip.
func TestDistBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two release builds take a minute or two")
	}
	for _, tool := range []string{"objdump", "readelf", "patchelf", "qemu-aarch64", "gcc", "npm", "dpkg", "rpm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: run `make deps` (it installs what the tests need)", tool)
		}
	}
	dist := t.TempDir()
	mk := exec.Command("make", "dist", "DIST="+dist, "VERSION=test-dist")
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	for _, arch := range []string{"amd64", "arm64"} {
		bin := filepath.Join(dist, "gpuscope-linux-"+arch)
		t.Run(arch+"/links", func(t *testing.T) {
			checkLinks(t, bin)
		})
	}
	t.Run("arm64/runs", func(t *testing.T) {
		bin := filepath.Join(dist, "gpuscope-linux-arm64")
		run := func(args ...string) string {
			t.Helper()
			out, err := exec.Command("qemu-aarch64", append([]string{"-L", "/usr/aarch64-linux-gnu", bin}, args...)...).CombinedOutput()
			if err != nil {
				t.Fatalf("qemu-aarch64 gpuscope %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			return string(out)
		}
		if v := run("version"); !strings.Contains(v, "test-dist") || !strings.Contains(v, "linux/arm64") {
			t.Fatalf("version is not stamped for arm64: %q", v)
		}
		// The demo runs the production NVML reader over the fake driver.
		if out := run("--demo", "--once"); strings.Count(out, "H200") < 8 {
			t.Fatalf("--demo --once on arm64 shows fewer than 8 GPUs:\n%s", out)
		}
	})
	t.Run("amd64/old-driver", func(t *testing.T) {
		readsStandInDriver(t, filepath.Join(dist, "gpuscope-linux-amd64"))
	})
	t.Run("packages", func(t *testing.T) {
		checkPackages(t, dist)
	})
}

// packaged is what each package must carry (Makefile, "packages").
var packaged = []string{"/usr/bin/gpuscope", "/usr/share/man/man1/gpuscope.1", "/usr/share/man/man1/gpuscope-serve.1",
	"/usr/share/bash-completion/completions/gpuscope", "/usr/share/zsh/vendor-completions/_gpuscope",
	"/usr/lib/systemd/system/gpuscope.service"}

// checkPackages lists both architectures' .rpm (rpm -qlp) and installs the
// amd64 .deb: with dpkg -i as root (CI), then runs it from /usr/bin and
// removes it; as another user, or where a gpuscope package is already
// installed (it is not ours to remove), it unpacks it (dpkg -x) and runs
// it there.
func checkPackages(t *testing.T, dist string) {
	for _, pat := range []string{"gpuscope-*.x86_64.rpm", "gpuscope-*.aarch64.rpm", "gpuscope_*_amd64.deb", "gpuscope_*_arm64.deb"} {
		m, _ := filepath.Glob(filepath.Join(dist, pat))
		if len(m) != 1 {
			t.Fatalf("make dist wrote %d files like %s, want 1", len(m), pat)
		}
		list := exec.Command("rpm", "-qlp", m[0])
		if strings.HasSuffix(m[0], ".deb") {
			list = exec.Command("dpkg-deb", "-c", m[0])
		}
		out, err := list.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", list, err, out)
		}
		for _, f := range packaged {
			if !strings.Contains(string(out), f) {
				t.Errorf("%s does not carry %s:\n%s", filepath.Base(m[0]), f, out)
			}
		}
	}
	deb, _ := filepath.Glob(filepath.Join(dist, "gpuscope_*_amd64.deb"))
	bin := "/usr/bin/gpuscope"
	installed := exec.Command("dpkg-query", "-W", "gpuscope").Run() == nil
	if os.Geteuid() == 0 && !installed {
		if out, err := exec.Command("dpkg", "-i", deb[0]).CombinedOutput(); err != nil {
			t.Fatalf("dpkg -i: %v\n%s", err, out)
		}
		defer func() {
			if out, err := exec.Command("dpkg", "-r", "gpuscope").CombinedOutput(); err != nil {
				t.Errorf("dpkg -r gpuscope: %v\n%s", err, out)
			}
		}()
	} else {
		root := t.TempDir()
		if out, err := exec.Command("dpkg", "-x", deb[0], root).CombinedOutput(); err != nil {
			t.Fatalf("dpkg -x: %v\n%s", err, out)
		}
		bin = filepath.Join(root, bin)
		t.Logf("not root, or a gpuscope package already installed: unpacked the .deb into %s instead", root)
	}
	if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil || !strings.Contains(string(out), "test-dist") {
		t.Errorf("%s version: %v %q", bin, err, out)
	}
	if out, err := exec.Command(bin, "--demo", "--once").CombinedOutput(); err != nil || strings.Count(string(out), "H200") < 8 {
		t.Errorf("%s --demo --once: %v\n%s", bin, err, out)
	}
}

const maxDistBytes = 20_000_000

var glibcVersion = regexp.MustCompile(`GLIBC_2\.(\d+)`)

// checkLinks reads the dynamic symbol table and section of a binary.
func checkLinks(t *testing.T, bin string) {
	out, err := exec.Command("objdump", "-T", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("objdump -T: %v\n%s", err, out)
	}
	highest := 0
	for _, m := range glibcVersion.FindAllStringSubmatch(string(out), -1) {
		if v, _ := strconv.Atoi(m[1]); v > highest {
			highest = v
		}
		if v, _ := strconv.Atoi(m[1]); v > glibcFloor {
			t.Errorf("needs a libc symbol at GLIBC_2.%d, above the 2.%d floor", v, glibcFloor)
			break
		}
	}
	dyn, err := exec.Command("readelf", "-d", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("readelf -d: %v\n%s", err, dyn)
	}
	if strings.Contains(string(dyn), "libnvidia-ml") {
		t.Errorf("libnvidia-ml is a link-time dependency: the binary would not start without a driver")
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %.2f MB, highest libc symbol GLIBC_2.%d", filepath.Base(bin), float64(st.Size())/1e6, highest)
	// The size goal of a release binary (docs/benchmarks.md "Binary size"):
	// what a user copies to every node, and most of the resident memory.
	if st.Size() > maxDistBytes {
		t.Errorf("%s is %.2f MB, above the %.0f MB goal: see docs/benchmarks.md \"What each dependency costs\"",
			filepath.Base(bin), float64(st.Size())/1e6, float64(maxDistBytes)/1e6)
	}
	// A method called by a name known only at run time (text/template's
	// {{.Field}}) keeps every exported method of every type: 2.6 MB
	// (docs/benchmarks.md, "The binary's size: text/template's methods").
	// A stripped binary still names its functions (pclntab).
	if b, err := os.ReadFile(bin); err != nil || bytes.Contains(b, []byte("reflect.Value.MethodByName")) {
		t.Errorf("%s links reflect.Value.MethodByName (%v): find its caller with go build -ldflags=-dumpdep",
			filepath.Base(bin), err)
	}
}

// readsStandInDriver builds sampler/nvmlsource/testdata/standin into a
// libnvidia-ml.so.1 and runs `--once --json` of the release binary on it.
func readsStandInDriver(t *testing.T, bin string) {
	modDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/NVIDIA/go-nvml").Output()
	if err != nil {
		t.Fatalf("go list go-nvml: %v", err)
	}
	lib := t.TempDir()
	cc := exec.Command("gcc", "-shared", "-fPIC", "-DNVML_NO_UNVERSIONED_FUNC_DEFS=1",
		"-I", filepath.Join(strings.TrimSpace(string(modDir)), "pkg", "nvml"),
		"-Wl,-soname,libnvidia-ml.so.1", "-o", filepath.Join(lib, "libnvidia-ml.so.1"),
		filepath.Join("sampler", "nvmlsource", "testdata", "standin", "nvml.c"))
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("build the stand-in libnvidia-ml: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--once", "--json")
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("--once --json on the stand-in driver: %v (a call into a missing NVML symbol ends the process)\n%s", err, out)
	}
	var snap struct {
		Node struct {
			Driver string `json:"driver"`
		} `json:"node"`
		GPUs []struct {
			Name        string            `json:"name"`
			Util        *float64          `json:"util"`
			ClockEvents []string          `json:"clock_events"`
			NA          map[string]string `json:"na"`
		} `json:"gpus"`
	}
	if err := json.Unmarshal(out, &snap); err != nil {
		t.Fatalf("--once --json: %v\n%s", err, out)
	}
	if len(snap.GPUs) != 1 {
		t.Fatalf("%d GPUs read from the stand-in driver, want 1:\n%s", len(snap.GPUs), out)
	}
	g := snap.GPUs[0]
	if g.Name != "Stand-in K80" || g.Util == nil || *g.Util != 42 {
		t.Errorf("GPU read as %q util %v, want \"Stand-in K80\" at 42%%", g.Name, g.Util)
	}
	// Absent before R535 under this name; its old name answers.
	if len(g.ClockEvents) != 1 || g.ClockEvents[0] != "idle" {
		t.Errorf("clock events %v, want [idle] through the pre-R535 throttle-reasons call", g.ClockEvents)
	}
	for _, field := range []string{"fan", "sm_active", "procs", "nvlinks"} {
		if g.NA[field] != "not in this driver version" {
			t.Errorf("n/a reason of %s is %q, want %q", field, g.NA[field], "not in this driver version")
		}
	}
}

// TestGoInstall: `go install github.com/gpuscope/gpuscope@latest` builds
// the module as published, in module mode, with no Makefile environment
// (no GOEXPERIMENT, no CGO_CFLAGS), and refuses a go.mod with replace or
// exclude directives. This builds the committed tree the same way, from a
// copy outside the checkout, and runs the result.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the module from a copy")
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "replace" || f[0] == "exclude") {
			t.Errorf("go.mod has %q: go install ...@latest refuses a module with replace or exclude", line)
		}
	}
	src := t.TempDir()
	archive := exec.Command("sh", "-c", "git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "+src)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("copy the tree: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "gpuscope")
	build := exec.Command("go", "build", "-mod=readonly", "-o", bin, ".")
	build.Dir = src
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOEXPERIMENT=") && !strings.HasPrefix(kv, "CGO_CFLAGS=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	build.Env = append(env, "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build as go install does: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "--demo", "--once").CombinedOutput(); err != nil || strings.Count(string(out), "H200") < 8 {
		t.Errorf("the go-installed binary: %v\n%s", err, out)
	}
}

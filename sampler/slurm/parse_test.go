package slurm

import (
	"os"
	"slices"
	"testing"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseEnviron(t *testing.T) {
	for _, c := range []struct{ file, job, user string }{
		{"environ-srun.bin", "4242017", "alice"},
		{"environ-old.bin", "977", ""},
		{"environ-none.bin", "", ""},
	} {
		job, user := ParseEnviron(read(t, c.file))
		if job != c.job || user != c.user {
			t.Errorf("%s: got job %q user %q, want %q %q", c.file, job, user, c.job, c.user)
		}
	}
	if job, _ := ParseEnviron([]byte("SLURM_JOB_ID=12; rm -rf /\x00")); job != "" {
		t.Errorf("a malformed id was taken: %q", job)
	}
}

func TestParseCgroup(t *testing.T) {
	for _, c := range []struct{ file, job string }{
		{"cgroup-v1.txt", "4242017"},
		{"cgroup-v2.txt", "31337"},
		{"cgroup-v2-multi-slurmd.txt", "31338"},
		{"cgroup-v2-ssh.txt", ""},
		{"cgroup-kubepods.txt", ""},
	} {
		if got := ParseCgroup(read(t, c.file)); got != c.job {
			t.Errorf("%s: got %q, want %q", c.file, got, c.job)
		}
	}
}

func TestParseJobsReal(t *testing.T) {
	jobs := ParseJobs(read(t, "irush-get_jobs.txt"))
	if len(jobs) != 5 {
		t.Fatalf("got %d jobs, want 5", len(jobs))
	}
	j := jobs[2]
	if j.ID != "153291" || j.User != "user3" || j.State != "RUNNING" || j.Start.IsZero() {
		t.Errorf("job 3: %+v", j)
	}
	if got := j.On("node-06"); !slices.Equal(got, []int{0, 2, 3, 5}) {
		t.Errorf("GRES_IDX on node-06: %v", got)
	}
	if got := j.On("node-06.cluster.example"); len(got) != 4 {
		t.Errorf("an FQDN must match the short node name: %v", got)
	}
	if got := j.On("node-07"); got != nil {
		t.Errorf("another node: %v", got)
	}
	if got := jobs[4].On("cortex-08"); !slices.Equal(got, []int{5}) {
		t.Errorf("GRES=gpu(IDX:5): %v", got)
	}
	if jobs[0].GPUs != nil || jobs[3].State != "PENDING" || !jobs[3].Start.IsZero() {
		t.Errorf("CPU job or pending job misread: %+v %+v", jobs[0], jobs[3])
	}

	jobs = ParseJobs(read(t, "irush-get_jobs-2025.txt"))
	if len(jobs) != 2 || !slices.Equal(jobs[0].On("node-005"), []int{3}) || !slices.Equal(jobs[1].On("node-001"), []int{1}) {
		t.Errorf("a GPU beside another GRES: %+v", jobs)
	}

	jobs = ParseJobs(read(t, "adri1t-sortie_8.txt"))
	if len(jobs) != 1 || jobs[0].User != "tabernera" || jobs[0].GPUs != nil {
		t.Errorf("CPU-only job: %+v", jobs)
	}
}

func TestParseJobsOneLine(t *testing.T) {
	// scontrol -o show job -d: one record per line, the detail tokens in it.
	in := "JobId=10 JobName=a UserId=lin(1001) JobState=RUNNING Nodes=n[1-2] CPU_IDs=0-7 Mem=0 GRES=gpu:h200:2(IDX:0-1) Nodes=n3 CPU_IDs=0-3 Mem=0 GRES=gpu:h200:1(IDX:6)\n" +
		"JobId=12 UserId=wu(1003) JobState=RUNNING Nodes=n5 CPU_IDs=0 Mem=0 GRES=gpu:a100:1(IDX:0),gpu:v100:2(IDX:1-2)\n"
	jobs := ParseJobs([]byte(in))
	if len(jobs) != 2 {
		t.Fatalf("got %d jobs", len(jobs))
	}
	if !slices.Equal(jobs[0].On("n2"), []int{0, 1}) || !slices.Equal(jobs[0].On("n3"), []int{6}) || jobs[0].On("n4") != nil {
		t.Errorf("job 10: %+v", jobs[0])
	}
	if !slices.Equal(jobs[1].On("n5"), []int{0, 1, 2}) {
		t.Errorf("mixed types: %v", jobs[1].On("n5"))
	}
}

func TestExpandHosts(t *testing.T) {
	for in, want := range map[string][]string{
		"n1":                 {"n1"},
		"node-[63-65]":       {"node-63", "node-64", "node-65"},
		"gpu[01-03,07],cpu1": {"gpu01", "gpu02", "gpu03", "gpu07", "cpu1"},
		"r[1-2]n[1-2]":       {"r1n1", "r1n2", "r2n1", "r2n2"},
		"":                   nil,
		"bad[3-1]":           {"bad[3-1]"},
	} {
		if got := ExpandHosts(in); !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", in, got, want)
		}
	}
	if got := ExpandHosts("n[0-99999999]"); len(got) != maxHosts {
		t.Errorf("a huge range must stop at %d names, got %d", maxHosts, len(got))
	}
}

func FuzzParseJobs(f *testing.F) {
	for _, name := range []string{"irush-get_jobs.txt", "irush-get_jobs-2025.txt", "adri1t-sortie_8.txt"} {
		f.Add(read(f, name))
	}
	f.Add([]byte("JobId=1 Nodes=a[0-99999999999] GRES=gpu(IDX:0-999999999999)"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, j := range ParseJobs(b) {
			for _, d := range j.GPUs {
				if len(d.Idx) > maxIdxList {
					t.Fatalf("%d indices", len(d.Idx))
				}
				for _, i := range d.Idx {
					if i < 0 || i > maxGPUIdx {
						t.Fatalf("index %d", i)
					}
				}
				if len(ExpandHosts(d.Nodes)) > maxHosts {
					t.Fatal("host list unbounded")
				}
			}
		}
	})
}

func FuzzParseProc(f *testing.F) {
	for _, name := range []string{"cgroup-v1.txt", "cgroup-v2.txt", "cgroup-kubepods.txt", "environ-srun.bin", "environ-old.bin"} {
		f.Add(read(f, name))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if id := ParseCgroup(b); id != "" && !validID(id) {
			t.Fatalf("cgroup id %q", id)
		}
		job, user := ParseEnviron(b)
		if job != "" && !validID(job) || user != "" && !validName(user) {
			t.Fatalf("environ %q %q", job, user)
		}
	})
}

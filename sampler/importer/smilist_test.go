package importer

import "testing"

// srun's tasks each number the GPUs they see from 0 (Slurm's --gpus-per-task
// binds one to each), and -l labels every line with its task, padded to the
// widest task number: GPU 0 with two UUIDs is two GPUs; the same UUID
// pasted twice is one.
func TestListTasksNumberTheirOwnGPUs(t *testing.T) {
	for name, c := range map[string]struct {
		in   string
		want int
	}{
		"srun": {"GPU 0: Tesla V100-SXM2-16GB (UUID: GPU-aaaa)\nGPU 0: Tesla V100-SXM2-16GB (UUID: GPU-bbbb)\n", 2},
		"srun -l": {"$ srun -l -N2 nvidia-smi -L\n 0: GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-aaaa)\n 1: GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-bbbb)\n" +
			"10: GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-cccc)\n", 3},
		"pasted twice": {"GPU 0: NVIDIA L4 (UUID: GPU-aaaa)\nGPU 1: NVIDIA L4 (UUID: GPU-bbbb)\n\nGPU 0: NVIDIA L4 (UUID: GPU-aaaa)\n", 2},
	} {
		snaps, _, err := readString(c.in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		last := snaps[len(snaps)-1]
		if len(last.GPUs) != c.want {
			t.Fatalf("%s: %d GPUs, want %d: %+v", name, len(last.GPUs), c.want, last.GPUs)
		}
		seen := map[string]bool{}
		for _, g := range last.GPUs {
			if seen[g.UUID] {
				t.Errorf("%s: UUID %s twice", name, g.UUID)
			}
			seen[g.UUID] = true
		}
	}
}

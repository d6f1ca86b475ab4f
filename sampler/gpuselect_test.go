package sampler

import (
	"strings"
	"testing"
)

func TestGPUSelect(t *testing.T) {
	gpus := func() []GPU {
		return []GPU{
			{Index: 0, UUID: "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6"},
			{Index: 1, UUID: "GPU-1111aaaa-0000-0000-0000-000000000000", MIGDevices: []MIGDevice{{UUID: "MIG-4d0b1e9c-aaaa-bbbb-cccc-000000000001"}}},
			{Index: 2, UUID: "GPU-2222bbbb-0000-0000-0000-000000000000"},
		}
	}
	for _, c := range []struct {
		spec string
		want []int
	}{
		{"", []int{0, 1, 2}},
		{"0,2", []int{0, 2}},
		{" 2 , 0 ", []int{0, 2}}, // the node's order, spaces allowed
		{"GPU-8932f937", []int{0}},
		{"gpu-2222BBBB-0000-0000-0000-000000000000", []int{2}}, // case-insensitive
		{"MIG-4d0b1e9c", []int{1}},                             // a MIG instance selects its GPU
		{"1,GPU-2222", []int{1, 2}},
	} {
		sel, err := ParseGPUSelect(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		in := gpus()
		kept, problem := sel.Filter(in)
		var got []int
		for _, g := range kept {
			got = append(got, g.Index)
		}
		if problem != "" || len(got) != len(c.want) || (len(got) > 0 && (got[0] != c.want[0] || got[len(got)-1] != c.want[len(c.want)-1])) {
			t.Errorf("%q: kept %v (%q), want %v", c.spec, got, problem, c.want)
		}
		if in[0].Index != 0 || in[2].Index != 2 {
			t.Errorf("%q: Filter changed the source's slice: %+v", c.spec, in)
		}
	}
	sel, _ := ParseGPUSelect("7")
	if kept, problem := sel.Filter(gpus()); len(kept) != 0 || !strings.Contains(problem, "no GPU of this node matches (it has 3, indices 0-2") {
		t.Errorf("--gpus 7 on 3 GPUs: %v, %q", kept, problem)
	}
	for _, bad := range []string{"a", "-1", "0,,1", "GPU-12", "1.5"} {
		if _, err := ParseGPUSelect(bad); err == nil || !strings.HasPrefix(err.Error(), "--gpus ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseGPUSelect(%q) = %v; want one line naming --gpus", bad, err)
		}
	}
}

func FuzzGPUSelect(f *testing.F) {
	for _, s := range []string{"0,2", "GPU-8932f937", "MIG-4d0b1e9c,1", " , ", "GPU-", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		sel, err := ParseGPUSelect(spec)
		if err != nil {
			return
		}
		g := []GPU{{Index: 0, UUID: "GPU-8932f937-d72c"}, {Index: 1}}
		kept, _ := sel.Filter(g)
		if len(kept) > len(g) {
			t.Fatalf("kept %d of %d", len(kept), len(g))
		}
	})
}

package doctor

import "testing"

// TestDoctorPlural: doctor's lines take the noun their count needs
// ("1 GPU registered", not "1 GPU(s)"); a value is never read as a template.
func TestDoctorPlural(t *testing.T) {
	for n, want := range map[string]string{"1": "1 GPU registered with the NVSwitch fabric", "8": "8 GPUs registered with the NVSwitch fabric"} {
		if got, _ := say("seen.fabric_ok", "{{.Count}} {{plural .Count \"GPU\" \"GPUs\"}} registered with the NVSwitch fabric", "Count", n); got != want {
			t.Errorf("Count %s: %q, want %q", n, got, want)
		}
	}
	got, _ := say("seen.visible", "{{.Var}}={{.Value}}: programs see {{.Count}} {{plural .Count \"GPU\" \"GPUs\"}}, renumbered from 0: {{.Mapping}}",
		"Var", "CUDA_VISIBLE_DEVICES", "Value", `{{plural .Count "a" "b"}}`, "Count", "1", "Mapping", "0→3")
	if want := `CUDA_VISIBLE_DEVICES={{plural .Count "a" "b"}}: programs see 1 GPU, renumbered from 0: 0→3`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

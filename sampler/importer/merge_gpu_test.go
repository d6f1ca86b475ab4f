package importer

import "testing"

// TestNormBus: the spellings of one address meet, and GPUs on bus 01 of
// different PCI domains (a GB200 tray) stay apart.
func TestNormBus(t *testing.T) {
	for in, want := range map[string]string{
		"00000000:41:00.0": "41:00",
		"0000:41:00.0":     "41:00",
		"PCI:0000:41:00":   "41:00",
		"41:00.0":          "41:00",
		"PCI:0018:01:00":   "18:01:00",
		"00000019:01:00.0": "19:01:00",
		"":                 "",
	} {
		if got := normBus(in); got != want {
			t.Errorf("normBus(%q) = %q, want %q", in, got, want)
		}
	}
}

package importer

import (
	"strings"
	"testing"
)

// A monitor of another board is refused by name, not with advice about
// CSV headers; nvidia-smi-like text without a header keeps that advice.
func TestForeignToolRefusedByName(t *testing.T) {
	tegra := "RAM 2448/3964MB (lfb 4x1MB) SWAP 0/1982MB (cached 0MB) CPU [9%@1479,2%@1479] EMC_FREQ 0% GR3D_FREQ 0% GPU@34C\n"
	_, _, err := NewStream(strings.NewReader(tegra), "tegra.log", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "tegrastats") || strings.Contains(err.Error(), "noheader") {
		t.Fatalf("err %v; want the tegrastats refusal without the CSV hint", err)
	}
	_, _, err = NewStream(strings.NewReader("0, 45, 1000, 80000\n1, 40, 900, 80000\n"), "rows.csv", Options{Start: fixedStart})
	if err != nil && strings.Contains(err.Error(), "tegrastats") {
		t.Fatalf("plain rows named a foreign tool: %v", err)
	}
}

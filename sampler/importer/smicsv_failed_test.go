package importer

import (
	"strings"
	"testing"
)

func TestCSVFailedReadsNamesRowAndField(t *testing.T) {
	head := []byte("GeForce GTX 1080 Ti, 53 %, 3 %, 84, 123.00 W, 262.50 W, [Unknown Error], P2\n" +
		"GeForce GTX 1080 Ti, 78 %, 6 %, 68, 242.05 W, 262.50 W, 60 %, P2\n" +
		"GeForce GTX 1080, 83 %, 7 %, [GPU requires reset], 181.22 W, 200.00 W, 71 %, P2\n")
	got := csvFailedReads(head)
	for _, want := range []string{"row 1 field 7 reads [Unknown Error]", "row 3 field 4 reads [GPU requires reset]", "NVML error"} {
		if !strings.Contains(got, want) {
			t.Errorf("csvFailedReads = %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "row 2") {
		t.Errorf("csvFailedReads = %q names a row with no failed field", got)
	}
}

func TestCSVFailedReadsQuietForUnsupported(t *testing.T) {
	// [N/A] and [Not Supported] say the board does not report a field: no failure.
	head := []byte("0, NVIDIA GeForce RTX 3080, [N/A], [N/A], 10240, 9029, [Not Supported]\n")
	if got := csvFailedReads(head); got != "" {
		t.Errorf("csvFailedReads = %q, want nothing for unsupported fields", got)
	}
}

func TestCSVFailedReadsBounded(t *testing.T) {
	row := strings.Repeat("1, ", 10) + strings.Repeat("[Unknown Error], ", 8) + "[Unknown Error]\n"
	got := csvFailedReads([]byte(row))
	if n := strings.Count(got, "reads [Unknown Error]"); n != maxFailedNamed {
		t.Errorf("named %d failed cells, want %d: %q", n, maxFailedNamed, got)
	}
	if !strings.Contains(got, "and 5 more") {
		t.Errorf("csvFailedReads = %q, want the count of the rest", got)
	}
}

func TestSMICSVNotesFailedReadByColumn(t *testing.T) {
	in := "index, name, fan.speed [%], power.default_limit [W]\n" +
		"0, GeForce RTX 2080 Ti, 56 %, [Unknown Error]\n" +
		"1, GeForce RTX 2080 Ti, [N/A], 250.00 W\n"
	_, warns, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	w := joined(warns)
	if !strings.Contains(w, "GPU 0 power.default_limit reads [Unknown Error]") {
		t.Errorf("warnings lack GPU 0's failed power.default_limit:\n%s", w)
	}
	if strings.Contains(w, "GPU 1") {
		t.Errorf("an unsupported [N/A] field was noted as a failed read:\n%s", w)
	}
}

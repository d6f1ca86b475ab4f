package summary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/importer"
)

// BuildPair gives each file's own report, in argument order, and the
// first file's error before the second's.
func TestBuildPair(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	hdr := "# gpu   pwr gtemp    sm   mem\n# Idx     W     C     %     %\n"
	if err := os.WriteFile(a, []byte(hdr+"    0   300    60   99    40\n    0   301    61   98    41\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(hdr+"    0   100    50   10    40\n    0   101    51   11    41\n    0   102    52   12    42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fa, fb, err := importer.OpenPair(a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	defer fb.Close()
	base, after, err := BuildPair(fa, fb, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if base.Range.Samples != 2 || after.Range.Samples != 3 {
		t.Fatalf("samples %d and %d, want 2 and 3", base.Range.Samples, after.Range.Samples)
	}
	missing := filepath.Join(dir, "missing")
	if _, _, err := importer.OpenPair(missing, filepath.Join(dir, "also-missing")); err == nil || !strings.Contains(err.Error(), missing+":") {
		t.Fatalf("error %v, want the first file's", err)
	}
	if _, _, err := importer.OpenPair(a, missing); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("error %v, want the second file's", err)
	}
}

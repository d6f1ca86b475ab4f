package importer

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const csvHeader = "timestamp, index, name, utilization.gpu [%]\n"

func readAll(t *testing.T, body string) ([]string, []int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "smi.csv")
	if err := os.WriteFile(path, []byte(csvHeader+body), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var times []int64
	for {
		snap, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, snap.Time.Unix())
	}
	return s.Warnings(), times
}

// TestTimeBackwardsWarnedOnceKeptInOrder: a CSV whose last rows are a day
// earlier gave a report range of -23h59m59s without a word.
func TestTimeBackwardsWarnedOnceKeptInOrder(t *testing.T) {
	warns, times := readAll(t, ""+
		"2024/05/02 12:00:00.000, 0, NVIDIA H100, 50 %\n"+
		"2024/05/02 12:00:01.000, 0, NVIDIA H100, 50 %\n"+
		"2024/05/01 12:00:02.000, 0, NVIDIA H100, 50 %\n"+
		"2024/05/01 12:00:03.000, 0, NVIDIA H100, 50 %\n")
	if len(times) != 4 || times[2] >= times[1] {
		t.Fatalf("file order not kept: %v", times)
	}
	var back []string
	for _, w := range warns {
		if strings.Contains(w, "time goes backwards") {
			back = append(back, w)
		}
	}
	if len(back) != 1 || !strings.Contains(back[0], "snapshot 3") || !strings.Contains(back[0], "2024-05-01 12:00:02") {
		t.Fatalf("want one warning naming snapshot 3, got %q", warns)
	}
}

func TestSnapshotDated1970Warned(t *testing.T) {
	warns, _ := readAll(t, "1970/01/01 00:00:00.000, 0, NVIDIA H100, 50 %\n1970/01/01 00:00:01.000, 0, NVIDIA H100, 50 %\n")
	if n := strings.Count(strings.Join(warns, "\n"), "before any GPU log"); n != 1 {
		t.Fatalf("want one warning about 1970, got %q", warns)
	}
}

package trace

import (
	"os"
	"strings"
	"testing"
)

// The real summaries in testdata (INDEX.md): each read to its tables, the
// paste's "..." cut ending its API table.
func TestReadStatsSamples(t *testing.T) {
	for _, c := range []struct {
		file    string
		reports []StatsReport
		rows    []int
	}{
		{"nsysstats_moe_h100_2024.5_kern_sum.csv", []StatsReport{StatsKernels}, []int{88}},
		{"nsysstats_moe_h100_2024.5_api_sum.csv", []StatsReport{StatsAPI}, []int{-1}},
		{"nsysstats_dotllm_rtx4090_2024.6_paste.txt", []StatsReport{StatsKernels, StatsAPI}, []int{15, 11}},
	} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !SniffStats(b[:min(len(b), sniffBytes)]) {
			t.Errorf("%s: not sniffed", c.file)
		}
		s, err := ReadStats(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(s.Tables) != len(c.reports) {
			t.Fatalf("%s: %d tables", c.file, len(s.Tables))
		}
		for i, r := range c.reports {
			if s.Tables[i].Report != r || c.rows[i] >= 0 && len(s.Tables[i].Rows) != c.rows[i] || len(s.Tables[i].Rows) == 0 {
				t.Errorf("%s table %d: %s with %d rows", c.file, i, s.Tables[i].Report, len(s.Tables[i].Rows))
			}
		}
	}
}

func TestReadStatsRefuses(t *testing.T) {
	for _, in := range []string{"", "hello\n", "Time (%),Total Time (ns),Instances,Avg (ns),Name\n1,2,3\n",
		"Time (%),Total Time (ns),Instances,Avg (ns),Name\n1,x,3,4,k\n"} {
		if _, err := ReadStats(strings.NewReader(in)); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", in, err)
		}
	}
	if SniffStats([]byte(`{"traceEvents":[]}`)) {
		t.Error("a Kineto trace sniffed as stats")
	}
}

func FuzzReadStats(f *testing.F) {
	for _, p := range []string{"nsysstats_dotllm_rtx4090_2024.6_paste.txt", "nsysstats_moe_h100_2024.5_api_sum.csv"} {
		if b, err := os.ReadFile("testdata/" + p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadStats(strings.NewReader(string(b)))
		if err != nil {
			return
		}
		rows := 0
		for _, tb := range s.Tables {
			rows += len(tb.Rows) + 1
		}
		if rows > strings.Count(string(b), "\n")+1 {
			t.Fatalf("%d tables and rows from %d lines", rows, strings.Count(string(b), "\n")+1)
		}
	})
}

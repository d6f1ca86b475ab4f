package trace

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The `nsys stats --format csv` summaries: one CSV table per report, each
// after its header line, with or without nsys' own lines between them
// ("Processing [...] with [.../cuda_gpu_kern_sum.py]...", " ** CUDA GPU
// Kernel Summary (cuda_gpu_kern_sum):"). A table is told by its columns,
// not by those lines, which pastes often drop ([nsys-report-scripts] in
// docs/references.md gives each report's columns):
//
//	cuda_gpu_kern_sum / gpukernsum  Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),…,Name
//	cuda_api_sum / cudaapisum       Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),…,Name
//	cuda_gpu_mem_time_sum           Time (%),Total Time (ns),Count,Avg (ns),…,Operation
//	cuda_gpu_mem_size_sum           Total (MB),Count,Avg (MB),…,Operation
//	nvtx_sum / nvtxsum              Time (%),Total Time (ns),Instances,Avg (ns),…,Style,Range
//
// Reports before 2022 wrote "Time(%)", "Average", "Minimum", "Maximum" and
// no median ("Calls" for the API report); both spellings are read.

// StatsReport is which nsys report a table is.
type StatsReport string

// The reports read.
const (
	StatsKernels StatsReport = "cuda_gpu_kern_sum"
	StatsAPI     StatsReport = "cuda_api_sum"
	StatsMemTime StatsReport = "cuda_gpu_mem_time_sum"
	StatsMemSize StatsReport = "cuda_gpu_mem_size_sum"
	StatsNVTX    StatsReport = "nvtx_sum"
)

// StatsRow is one line of a summary: a kernel, API call, copy kind or NVTX
// range with its count and times (ns), or for the size report its MB.
type StatsRow struct {
	Name   string
	Count  int64
	Total  float64 // ns, or MB in cuda_gpu_mem_size_sum
	Avg    float64
	Med    float64 // 0 when the report has no median (before 2022)
	HasMed bool
}

// StatsTable is one report's rows, in the file's order.
type StatsTable struct {
	Report StatsReport
	Rows   []StatsRow
}

// Stats is every table of one paste or file.
type Stats struct {
	Tables []StatsTable
}

// Table is the first table of report r, nil when the input has none.
func (s *Stats) Table(r StatsReport) *StatsTable {
	for i := range s.Tables {
		if s.Tables[i].Report == r {
			return &s.Tables[i]
		}
	}
	return nil
}

// MaxStatsBytes bounds what ReadStats reads: a summary has one line per
// distinct name, a few hundred KiB for thousands of templated kernels.
const MaxStatsBytes = 64 << 20

// statsColumns is where a header's columns are, -1 when absent.
type statsColumns struct {
	report                       StatsReport
	name, count, total, avg, med int
	width                        int
}

// statsHeader recognises a summary's header line; ok false for any other.
func statsHeader(rec []string) (statsColumns, bool) {
	c := statsColumns{name: -1, count: -1, total: -1, avg: -1, med: -1, width: len(rec)}
	var timePct, style bool
	for i, f := range rec {
		switch strings.TrimSpace(f) {
		case "Time (%)", "Time(%)":
			timePct = true
		case "Total Time (ns)", "Total Time", "Total (MB)":
			c.total = i
		case "Instances", "Num Calls", "Calls", "Count":
			c.count = i
		case "Avg (ns)", "Average", "Avg (MB)":
			c.avg = i
		case "Med (ns)", "Med (MB)":
			c.med = i
		case "Name", "Operation", "Range":
			c.name = i
		case "Style":
			style = true
		}
	}
	if c.name < 0 || c.count < 0 || c.total < 0 || c.avg < 0 {
		return c, false
	}
	col := strings.TrimSpace(rec[c.count])
	unit := strings.TrimSpace(rec[c.total])
	switch {
	case unit == "Total (MB)":
		c.report = StatsMemSize
	case !timePct:
		return c, false
	case strings.TrimSpace(rec[c.name]) == "Range" || style:
		c.report = StatsNVTX
	case strings.TrimSpace(rec[c.name]) == "Operation":
		c.report = StatsMemTime
	case col == "Num Calls" || col == "Calls":
		c.report = StatsAPI
	case col == "Instances":
		c.report = StatsKernels
	default:
		return c, false
	}
	return c, true
}

// SniffStats says whether head, the start of a file, holds an nsys stats
// CSV header within its first lines (nsys' own lines may come first).
func SniffStats(head []byte) bool {
	for i, line := range bytes.SplitN(head, []byte("\n"), 40) {
		if i == 39 || bytes.IndexByte(line, 0) >= 0 {
			break
		}
		rec, err := csv.NewReader(bytes.NewReader(line)).Read()
		if err != nil {
			continue
		}
		if _, ok := statsHeader(rec); ok {
			return true
		}
	}
	return false
}

// ReadStats reads every summary table in r. Lines outside a table (nsys'
// "Processing…" and report titles, a paste's "..." where it was cut) end
// the table before them; a table's row that does not parse is an error
// naming its line. No table at all is an error.
func ReadStats(r io.Reader) (*Stats, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxStatsBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxStatsBytes {
		return nil, fmt.Errorf("nsys stats: over %d MiB, not a summary", MaxStatsBytes>>20)
	}
	s := &Stats{}
	var cur *statsColumns
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			cur = nil
			continue
		}
		rec, perr := csv.NewReader(strings.NewReader(line)).Read()
		if perr == nil {
			if c, ok := statsHeader(rec); ok {
				cur = &c
				s.Tables = append(s.Tables, StatsTable{Report: c.report})
				continue
			}
		}
		if cur == nil {
			continue
		}
		if perr != nil || len(rec) != cur.width {
			if len(rec) == 1 || perr != nil && !strings.Contains(line, ",") {
				cur = nil // a title or the paste's cut ("...")
				continue
			}
			return nil, fmt.Errorf("nsys stats line %d: %d fields where the header has %d", n+1, len(rec), cur.width)
		}
		row, err := statsRow(rec, *cur)
		if err != nil {
			return nil, fmt.Errorf("nsys stats line %d: %w", n+1, err)
		}
		t := &s.Tables[len(s.Tables)-1]
		t.Rows = append(t.Rows, row)
	}
	if len(s.Tables) == 0 {
		return nil, errors.New("no nsys stats table (a header such as \"Time (%),Total Time (ns),Instances,Avg (ns),…,Name\")")
	}
	return s, nil
}

func statsRow(rec []string, c statsColumns) (StatsRow, error) {
	row := StatsRow{Name: rec[c.name]}
	var err error
	num := func(i int) float64 {
		if err != nil {
			return 0
		}
		// Plain numbers only: "482,333" is 482.333 in one locale and
		// 482333 in another, so it is refused rather than guessed.
		v, e := strconv.ParseFloat(strings.TrimSpace(rec[i]), 64)
		if e != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			err = fmt.Errorf("%q is not a number", rec[i])
		}
		return v
	}
	row.Total, row.Avg = num(c.total), num(c.avg)
	row.Count = int64(num(c.count))
	if c.med >= 0 {
		row.Med, row.HasMed = num(c.med), true
	}
	return row, err
}

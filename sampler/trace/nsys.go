package trace

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/sqlite"
)

// The Nsight Systems export (`nsys export --type sqlite`, [nsys-export] in
// docs/references.md) holds the same CUPTI activity Kineto records, in
// tables: times in nanoseconds from the session's start, names as ids into
// StringIds. Its events are given the kinds, names and fields the Kineto
// reader gives the same activity, so diagnose/timeline reads both alike.
// Tables and columns differ between nsys versions (2021 to 2025): each is
// looked up by name and a missing one reads as absent.

// nsysTables are the tables the reader takes events from; a database with
// StringIds and none of these (and no session time) is not an nsys export.
var nsysTables = []string{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
	"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "TARGET_INFO_SESSION_START_TIME"}

// ReadNsys reads the Nsight Systems SQLite export at path, calling yield
// for each event (the tables side by side, by start: nsys_order.go), and
// checks that it has GPU activity.
func ReadNsys(path string, yield func(Event) error) (Meta, error) {
	db, err := sqlite.Open(path)
	if err != nil {
		return Meta{Rank: -1}, fmt.Errorf("%s: %w", path, err)
	}
	defer db.Close()
	m, err := readNsys(db, yield)
	if err == nil {
		err = supportedNsys(m)
	}
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// nsysReader is one export being read.
type nsysReader struct {
	db      *sqlite.DB
	strs    map[int64]string
	texts   map[string]string // NVTX texts written inline, interned
	m       *Meta
	yield   func(Event) error
	memKind []string // ENUM_CUDA_MEM_KIND labels by id
	copyOp  map[int64]string
	// copyNames are the copies' names made so far, by kind, source, destination.
	copyNames map[[3]int64]string
	apis      map[int64]string // runtime names by name id (apiName)
}

func readNsys(db *sqlite.DB, yield func(Event) error) (Meta, error) {
	m := Meta{Rank: -1, Platform: "cuda"}
	if db.Table("StringIds") == nil || !hasAny(db, nsysTables) {
		return m, errors.New("not an Nsight Systems export: a SQLite database without its tables (StringIds, CUPTI_ACTIVITY_KIND_KERNEL…); export a report with `nsys export --type sqlite REPORT.nsys-rep`")
	}
	r := &nsysReader{db: db, strs: map[int64]string{}, texts: map[string]string{}, copyNames: map[[3]int64]string{}, apis: map[int64]string{}, m: &m, yield: yield}
	for _, step := range []func() error{r.stringIds, r.sessionStart, r.devices, r.enums} {
		if err := step(); err != nil {
			return m, err
		}
	}
	return m, r.byStart([]func(*nsysReader) error{(*nsysReader).runtime, (*nsysReader).nvtx, (*nsysReader).kernels, (*nsysReader).memcpys, (*nsysReader).memsets, (*nsysReader).syncs})
}

func hasAny(db *sqlite.DB, names []string) bool {
	for _, n := range names {
		if db.Table(n) != nil {
			return true
		}
	}
	return false
}

func supportedNsys(m Meta) error {
	if m.GPUEvents == 0 {
		return errors.New("no GPU activity in the export (no kernels, copies or memsets): profile with `nsys profile --trace=cuda,nvtx …` and run work on the GPU")
	}
	return nil
}

// columns finds each name's column in t (the first of a/b spellings
// separated by "|"), -1 where t has none.
func columns(t *sqlite.Table, names ...string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = -1
		for _, alt := range strings.Split(n, "|") {
			if c := t.Column(alt); c >= 0 {
				out[i] = c
				break
			}
		}
	}
	return out
}

func at(row []sqlite.Value, i int) sqlite.Value {
	if i < 0 || i >= len(row) {
		return sqlite.Value{}
	}
	return row[i]
}

// scan reads table name's columns; a missing table yields nothing.
func (r *nsysReader) scan(name string, names []string, fn func(c []int, row []sqlite.Value) error) error {
	t := r.db.Table(name)
	if t == nil {
		return nil
	}
	c := columns(t, names...)
	if err := r.db.Scan(t, func(_ int64, row []sqlite.Value) error { return fn(c, row) }); err != nil {
		return fmt.Errorf("table %s: %w", name, err)
	}
	return nil
}

func (r *nsysReader) emit(e Event) error {
	r.m.Events++
	if e.Kind.GPU() {
		r.m.GPUEvents++
	}
	return r.yield(e)
}

func (r *nsysReader) stringIds() error {
	return r.scan("StringIds", []string{"id", "value"}, func(c []int, row []sqlite.Value) error {
		r.strs[at(row, c[0]).Int64()] = at(row, c[1]).String()
		return nil
	})
}

// str is a StringIds reference; "" when the id is absent.
func (r *nsysReader) str(v sqlite.Value) string {
	if v.Type != sqlite.Integer {
		return ""
	}
	return r.strs[v.Int]
}

func (r *nsysReader) sessionStart() error {
	return r.scan("TARGET_INFO_SESSION_START_TIME", []string{"utcEpochNs"}, func(c []int, row []sqlite.Value) error {
		r.m.BaseTimeNanoseconds = at(row, c[0]).Int64()
		return nil
	})
}

// devices reads TARGET_INFO_GPU: the kernels' deviceId is its id.
func (r *nsysReader) devices() error {
	return r.scan("TARGET_INFO_GPU", []string{"id|cuDevice", "name", "totalMemory", "computeMajor", "computeMinor", "smCount"}, func(c []int, row []sqlite.Value) error {
		r.m.Devices = append(r.m.Devices, Device{ID: int(at(row, c[0]).Int64()), Name: at(row, c[1]).String(), TotalMem: at(row, c[2]).Int64(),
			ComputeMajor: int(at(row, c[3]).Int64()), ComputeMinor: int(at(row, c[4]).Int64()), NumSMs: int(at(row, c[5]).Int64())})
		return nil
	})
}

// globalTid is nsys's serialized thread id: the process in bits 24-47, the
// thread in bits 0-23 ([nsys-export] "Serialized GlobalId").
func globalTid(v int64) (pid, tid int64) { return (v >> 24) & 0xffffff, v & 0xffffff }

// ns is a timestamp in nanoseconds as the trace's microseconds.
func ns(v sqlite.Value) float64 { return float64(v.Int64()) / 1000 }

// span is end - start in microseconds, subtracted in nanoseconds first, as
// Kineto computes an event's dur.
func span(start, end sqlite.Value) float64 { return float64(end.Int64()-start.Int64()) / 1000 }

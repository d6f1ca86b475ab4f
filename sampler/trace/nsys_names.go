package trace

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler/sqlite"
)

// Copies are named as Kineto names them, "Memcpy HtoD (Pageable -> Device)"
// (libkineto's memcpy and memory kind strings, [kineto-activity]), so the
// analysis tells directions and pageable memory apart by the same words.

// nsysMemKinds is ENUM_CUDA_MEM_KIND as nsys numbers it (its own order, not
// CUPTI's): used where an export has no ENUM table (2022 and older). The
// labels are the table's own, which are Kineto's words.
var nsysMemKinds = []string{"Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static", "Unknown"}

// copyKinds are CUPTI's CUpti_ActivityMemcpyKind short names, which nsys's
// ENUM_CUDA_MEMCPY_OPER keeps, with nsys's unified-memory migrations after.
var copyKinds = map[int64]string{0: "Unknown", 1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH", 5: "AtoA", 6: "AtoD", 7: "DtoA",
	8: "DtoD", 9: "HtoH", 10: "PtoP", 11: "UVM_HTOD", 12: "UVM_DTOH", 13: "UVM_DTOD"}

// enums reads the export's own enum tables where it has them, so a
// renumbering in a later nsys still names copies right.
func (r *nsysReader) enums() error {
	r.memKind = nsysMemKinds
	r.copyOp = copyKinds
	if r.db.Table("ENUM_CUDA_MEM_KIND") != nil {
		var kinds []string
		err := r.scan("ENUM_CUDA_MEM_KIND", []string{"id", "label"}, func(c []int, row []sqlite.Value) error {
			id := at(row, c[0]).Int64()
			if id < 0 || id > 64 {
				return nil
			}
			for int64(len(kinds)) <= id {
				kinds = append(kinds, "Unknown")
			}
			kinds[id] = at(row, c[1]).String()
			return nil
		})
		if err != nil {
			return err
		}
		r.memKind = kinds
	}
	if r.db.Table("ENUM_CUDA_MEMCPY_OPER") != nil {
		ops := map[int64]string{}
		err := r.scan("ENUM_CUDA_MEMCPY_OPER", []string{"id", "name"}, func(c []int, row []sqlite.Value) error {
			op := strings.TrimPrefix(at(row, c[1]).String(), "CUDA_MEMCPY_KIND_")
			if !strings.HasPrefix(op, "UVM_") {
				op = strings.Replace(strings.Replace(op, "TO", "to", 1), "UNKNOWN", "Unknown", 1) // HTOD -> HtoD
			}
			ops[at(row, c[0]).Int64()] = op
			return nil
		})
		if err != nil {
			return err
		}
		r.copyOp = ops
	}
	return nil
}

func (r *nsysReader) memoryKind(v sqlite.Value) string {
	if v.Type == sqlite.Integer && v.Int >= 0 && v.Int < int64(len(r.memKind)) {
		return r.memKind[v.Int]
	}
	return "Unknown"
}

// memcpyName: a unified-memory migration (nsys writes it as a copy with
// unknown memory kinds) is "Memcpy HtoD (Unified Memory)", counted with the
// host-to-device bytes and never as pageable.
func (r *nsysReader) memcpyName(kind, src, dst sqlite.Value) string {
	key := [3]int64{kind.Int64(), r.kindKey(src), r.kindKey(dst)}
	if name, ok := r.copyNames[key]; ok {
		return name
	}
	name := r.newMemcpyName(kind, src, dst)
	r.copyNames[key] = name
	return name
}

// kindKey is a memory kind as a map key: -1 for a null.
func (r *nsysReader) kindKey(v sqlite.Value) int64 {
	if v.Type != sqlite.Integer {
		return -1
	}
	return v.Int
}

func (r *nsysReader) newMemcpyName(kind, src, dst sqlite.Value) string {
	op, ok := r.copyOp[kind.Int64()]
	if !ok {
		op = "Unknown"
	}
	if uvm, found := strings.CutPrefix(op, "UVM_"); found {
		return "Memcpy " + strings.Replace(uvm, "TO", "to", 1) + " (Unified Memory)"
	}
	return "Memcpy " + op + " (" + r.memoryKind(src) + " -> " + r.memoryKind(dst) + ")"
}

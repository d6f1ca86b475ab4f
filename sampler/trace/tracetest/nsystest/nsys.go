package nsystest

import (
	"database/sql"
	"fmt"

	_ "modernc.org/sqlite" // the writer of the test exports; tests only
)

// schema is the tables an export of nsys 2025 has for this workload, with
// its column names and order ([nsys-export]; the real exports in
// sampler/trace/testdata), comments dropped.
var schema = []string{
	`CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)`,
	`CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT, isDiscrete INTEGER, l2CacheSize INTEGER,
		totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER, smCount INTEGER, pwGpuId INTEGER, uuid TEXT, luid INTEGER, chipName TEXT,
		cuDevice INTEGER, computeMajor INTEGER, computeMinor INTEGER)`,
	`CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
		correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER)`,
	`CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
		greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
		shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,
		gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL)`,
	`CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
		greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL,
		deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER)`,
	`CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
		greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL,
		graphNodeId INTEGER, memKind INTEGER)`,
	`CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER,
		text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER)`,
}

// enumSchema is what exports from 2023 on add: the kinds' own labels.
var enumSchema = []string{
	`CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT)`,
	`INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'), (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
		(2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'), (7, 'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN', 'Unknown')`,
	`CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT)`,
	`INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (0, 'CUDA_MEMCPY_KIND_UNKNOWN', 'Unknown'), (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
		(2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'), (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'), (11, 'CUDA_MEMCPY_KIND_UVM_HTOD', 'Unified Host-to-Device')`,
}

// cuptiNames are the names CUPTI gives the runtime calls: with the API
// version Kineto leaves off.
var cuptiNames = map[string]string{"cudaLaunchKernel": "cudaLaunchKernel_v7000", "cudaMemcpyAsync": "cudaMemcpyAsync_v3020",
	"cudaMemsetAsync": "cudaMemsetAsync_v3020", "cudaStreamSynchronize": "cudaStreamSynchronize_v3020"}

// emitNvtxSuffix is what torch.autograd.profiler.emit_nvtx appends to an
// operator's range ([torch-emit-nvtx]).
const emitNvtxSuffix = ", seq = 12, op_id = 7, sizes = [[64, 64], [64, 64]]"

// WriteNsys writes evs as an Nsight Systems export at path (a new file);
// enums adds the ENUM tables newer exports have.
func WriteNsys(path string, evs []Ev, enums bool) error {
	return WriteNsysRanks(path, [][]Ev{evs}, enums)
}

// WriteNsysRanks writes one export of a multi-process run, as `nsys
// profile torchrun …` records it: ranks[i] is process PID+i driving
// device i, each with its own correlation ids (they may repeat across
// processes, as CUPTI's do).
func WriteNsysRanks(path string, ranks [][]Ev, enums bool) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := schema
	if enums {
		stmts = append(stmts[:len(stmts):len(stmts)], enumSchema...)
	}
	for _, s := range stmts {
		if _, err := tx.Exec(s); err != nil {
			return fmt.Errorf("%.60s: %w", s, err)
		}
	}
	w := &writer{tx: tx, ids: map[string]int64{}}
	w.exec(`INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '2023-11-14T22:13:20', '2023-11-14T22:13:20')`)
	for dev := range ranks {
		w.exec(`INSERT INTO TARGET_INFO_GPU (vmId, id, name, totalMemory, smCount, cuDevice, computeMajor, computeMinor) VALUES (281474976710656, ?, ?, ?, ?, ?, ?, ?)`,
			dev, Device.Name, Device.Mem, Device.SMs, dev, Device.Major, Device.Minor)
	}
	for dev, evs := range ranks {
		w.process(PID+int64(dev), dev, evs)
	}
	// A mark has no end: not a range.
	w.exec(`INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid) VALUES (5, 34, 'checkpoint', ?)`, PID<<24|PID)
	if w.err != nil {
		return w.err
	}
	return tx.Commit()
}

// process writes one process's events, its GPU activity on device dev.
func (w *writer) process(pid int64, dev int, evs []Ev) {
	tid := func(t int64) int64 { return pid<<24 | t }
	for _, e := range evs {
		end := e.Start + e.Dur
		switch e.Kind {
		case "runtime":
			name := e.Name
			if v, ok := cuptiNames[name]; ok {
				name = v
			}
			var corr any
			if e.Corr != 0 {
				corr = e.Corr
			}
			w.exec(`INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 1, ?, ?, ?, 0, NULL)`, e.Start, end, tid(e.TID), corr, w.id(name))
		case "kernel":
			id := w.id(e.Name)
			w.exec(`INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, NULL, ?, ?, ?, ?, ?, NULL, 1, 0, 64, 512, 1, 1, 128, 1, 1)`,
				e.Start, end, dev, e.Stream, e.Corr, pid<<24, id, id)
		case "memcpy":
			w.exec(`INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, 1, NULL, ?, ?, ?, ?, ?, NULL, ?, ?, 0, 1, 0, 1)`,
				e.Start, end, dev, e.Stream, e.Corr, pid<<24, e.Bytes, e.Copy, e.Src, e.Dst)
		case "memset":
			w.exec(`INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?, ?, ?, 1, NULL, ?, ?, ?, 0, ?, NULL, ?)`,
				e.Start, end, dev, e.Stream, e.Corr, pid<<24, e.Bytes, e.Dst)
		case "range":
			// torch's operator ranges carry emit_nvtx's suffix, written
			// inline; record_function's ranges are registered strings.
			if len(e.Name) > 6 && e.Name[:6] == "aten::" {
				w.exec(`INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid) VALUES (?, ?, 59, ?, ?, ?)`,
					e.Start, end, e.Name+emitNvtxSuffix, tid(e.TID), tid(e.TID))
			} else {
				w.exec(`INSERT INTO NVTX_EVENTS (start, end, eventType, textId, globalTid) VALUES (?, ?, 60, ?, ?)`, e.Start, end, w.id(e.Name), tid(e.TID))
			}
		}
	}
}

type writer struct {
	tx    *sql.Tx
	ids   map[string]int64
	stmts map[string]*sql.Stmt
	err   error
}

func (w *writer) exec(q string, args ...any) {
	if w.err != nil {
		return
	}
	if w.stmts == nil {
		w.stmts = map[string]*sql.Stmt{}
	}
	st, ok := w.stmts[q]
	if !ok {
		if st, w.err = w.tx.Prepare(q); w.err != nil {
			return
		}
		w.stmts[q] = st
	}
	_, w.err = st.Exec(args...)
}

// id is the StringIds id of s, inserted on first use.
func (w *writer) id(s string) int64 {
	if id, ok := w.ids[s]; ok {
		return id
	}
	id := int64(len(w.ids) + 1)
	w.ids[s] = id
	w.exec(`INSERT INTO StringIds VALUES (?, ?)`, id, s)
	return id
}

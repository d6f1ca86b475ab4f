package host

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// procStat is the part of /proc/PID/stat gpuscope uses; field numbers below
// are those of proc(5).
type procStat struct {
	comm       string
	state      byte
	ppid       int
	cpuTicks   uint64 // utime + stime (fields 14, 15), in clock ticks
	threads    int    // field 20
	startTicks uint64 // field 22: start time after boot, in clock ticks
	rssPages   uint64 // field 24
}

// Positions of the fields after the ")" that ends comm: field 3 (state) is
// index 0 there.
const (
	idxState   = 0
	idxPPID    = 1
	idxUtime   = 11
	idxStime   = 12
	idxThreads = 17
	idxStart   = 19
	idxRSS     = 21
	idxCount   = idxRSS + 1
)

var errStatShort = errors.New("stat line too short")

// afterComm returns the text after "comm) ". comm is user-controlled and may
// contain spaces and parentheses, so the last ')' ends it.
func afterComm(b []byte) (comm, rest []byte, ok bool) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open || end+2 > len(b) {
		return nil, nil, false
	}
	return b[open+1 : end], b[end+2:], true
}

// parsePPID is the scan's fast path: only the parent PID, no allocation.
func parsePPID(b []byte) (int, bool) {
	_, rest, ok := afterComm(b)
	if !ok {
		return 0, false
	}
	// rest is "S 1234 ...": skip the state letter and its space.
	if len(rest) < 3 {
		return 0, false
	}
	rest = rest[2:]
	ppid := 0
	i := 0
	for ; i < len(rest) && '0' <= rest[i] && rest[i] <= '9'; i++ {
		ppid = ppid*10 + int(rest[i]-'0')
	}
	return ppid, i > 0
}

// parseStat parses the fields of procStat from one /proc/PID/stat line.
func parseStat(b []byte) (procStat, error) {
	comm, rest, ok := afterComm(b)
	if !ok {
		return procStat{}, errors.New("stat line without (comm)")
	}
	var fields [idxCount][]byte
	n := 0
	for f := range bytes.FieldsSeq(rest) {
		if n == idxCount {
			break
		}
		fields[n] = f
		n++
	}
	if n < idxCount {
		return procStat{}, errStatShort
	}
	var st procStat
	st.comm = string(comm)
	if len(fields[idxState]) != 1 {
		return procStat{}, fmt.Errorf("bad state %q", fields[idxState])
	}
	st.state = fields[idxState][0]
	var nums [6]uint64
	for i, idx := range [...]int{idxPPID, idxUtime, idxStime, idxThreads, idxStart, idxRSS} {
		v, err := strconv.ParseUint(string(fields[idx]), 10, 64)
		if err != nil {
			return procStat{}, fmt.Errorf("stat field %d: %w", idx+3, err)
		}
		nums[i] = v
	}
	st.ppid = int(nums[0])
	st.cpuTicks = nums[1] + nums[2]
	st.threads = int(nums[3])
	st.startTicks = nums[4]
	st.rssPages = nums[5]
	return st, nil
}

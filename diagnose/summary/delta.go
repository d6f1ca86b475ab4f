package summary

import (
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
)

// fromDelta sets heads and decoded from the line before's heads and this
// line's written findings; false when they do not add up (then the whole
// list is decoded).
func (s *findingSource) fromDelta() bool {
	// Cleared: the decoder fills reused elements in place, and a field a
	// finding leaves out must read as zero, not as another line's.
	s.fresh = s.fresh[:0]
	if s.written != nil {
		var ok bool
		if s.fresh, ok = readHeads(s.written, s.fresh); !ok {
			s.fresh = s.fresh[:0]
			clear(s.fresh[:cap(s.fresh)])
			if jsonv1.Unmarshal(s.written, &s.fresh) != nil {
				return false
			}
		}
	}
	heads := s.spare[:0]
	next := 0
	for i, k := range s.kept {
		switch {
		case k && i < len(s.heads):
			heads = append(heads, s.heads[i])
		case !k && next < len(s.fresh):
			heads = append(heads, s.fresh[next])
			next++
		default:
			return false
		}
	}
	if next != len(s.fresh) {
		return false
	}
	s.heads, s.spare, s.decoded = heads, s.heads, s.decoded[:0]
	for _, h := range s.heads {
		s.decoded = append(s.decoded, diagnose.Finding{Rule: h.Rule, Severity: h.Severity, GPU: h.GPU, PID: h.PID})
	}
	return true
}

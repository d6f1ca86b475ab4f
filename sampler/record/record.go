// Package record writes and reads gpuscope recordings: JSON Lines files whose
// first line is a Header and every further line one Entry (a snapshot plus
// the findings shown at that instant). The format is public
// (docs/snapshot-json.md, "Recordings"):
// recordings are sent between people and replayed on machines without GPUs,
// so the reader is tolerant of what real files go through — a process killed
// mid-write, newer fields, gzip.
package record

import (
	"encoding/json"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Version is the recording format this build writes and the newest it reads.
// Version 2 lists the NVLink lists and topology it leaves out (same_links,
// same_topology) where version 1 left them out silently; both read
// (slowtier.go). Version 3 writes the findings only when they change
// (same_findings, seen_findings: findings.go); versions 1 and 2 read as
// they were written.
const Version = 3

// Header is the first line of a recording.
type Header struct {
	// Version is always written as "gpuscope_recording"; it identifies the file.
	Version    int       `json:"gpuscope_recording"`
	Host       string    `json:"host"`
	Driver     string    `json:"driver,omitempty"`
	CUDA       string    `json:"cuda,omitempty"`
	GPUs       []GPUInfo `json:"gpus"`
	IntervalMS int64     `json:"interval_ms"`
	// Source is where the snapshots came from ("nvml", "demo:mixed", ...).
	Source  string    `json:"source"`
	Started time.Time `json:"started"` // RFC 3339
}

// GPUInfo identifies one GPU of the recorded node.
type GPUInfo struct {
	Index int    `json:"index"`
	Name  string `json:"name,omitempty"`
	UUID  string `json:"uuid,omitempty"`
}

// Interval is the header's sampling interval as a duration.
func (h Header) Interval() time.Duration { return time.Duration(h.IntervalMS) * time.Millisecond }

// HeaderFor fills a header from the first snapshot of a recording.
func HeaderFor(s sampler.Snapshot, interval time.Duration) Header {
	h := Header{
		Version:    Version,
		Host:       s.Node.Hostname,
		Driver:     s.Node.Driver,
		CUDA:       s.Node.CUDA,
		IntervalMS: interval.Milliseconds(),
		Source:     s.Node.Source,
		Started:    s.Time,
	}
	for _, g := range s.GPUs {
		h.GPUs = append(h.GPUs, GPUInfo{Index: g.Index, Name: g.Name, UUID: g.UUID})
	}
	return h
}

// Entry is one line after the header: the snapshot's fields, flattened, plus
// the findings the diagnosis showed at that moment. Findings stay raw JSON so
// that sampler need not import diagnose (imports flow one way,
// docs/ARCHITECTURE.md);
// decode them with diagnose's types.
type Entry struct {
	sampler.Snapshot
	Findings json.RawMessage `json:"findings,omitempty"`
	// FindingsKept and FindingsWritten, set by a Reader where a line
	// listed findings as unchanged (version 3 on): for each of Findings,
	// whether it is the one at the same position in the entry before
	// (last_seen aside), and the others as the line wrote them, in order.
	// A reader of the findings' rules need decode only those. Nil says
	// nothing.
	FindingsKept    []bool          `json:"-"`
	FindingsWritten json.RawMessage `json:"-"`
	// FindingsList, set by a Reader opened with Options.FindingsOnDemand
	// where a line listed findings as unchanged, holds the whole list in
	// Findings' place (Findings is then nil; FindingsList.Text builds it).
	// It is the same value as the entry before's while nothing changed,
	// last_seen included.
	FindingsList *Findings `json:"-"`
}

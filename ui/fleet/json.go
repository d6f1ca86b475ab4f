package fleet

import (
	"encoding/json"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// jsonNode is one node in `--prometheus --once --json`.
type jsonNode struct {
	Name          string             `json:"name"`
	Job           string             `json:"job"`
	Instance      string             `json:"instance"`
	Up            bool               `json:"up"`
	DownReason    string             `json:"down_reason,omitempty"`
	Gpuscope      bool               `json:"gpuscope_exporter"`
	WasteGPUHours float64            `json:"waste_gpu_hours"`
	EnergyKWh     float64            `json:"energy_kwh_1h"`
	GPUs          []fleetsnap.GPU    `json:"gpus"`
	Findings      []diagnose.Finding `json:"findings"`
	DiagnosedFrom string             `json:"diagnosed_from,omitempty"`
	NeedsHost     []string           `json:"rules_needing_host_data,omitempty"`
}

// MarshalJSON writes the fleet as a list of nodes with their diagnosis.
func (v View) MarshalJSON() ([]byte, error) {
	out := struct {
		Source   string              `json:"source"`
		Counts   fleetdiag.Counts    `json:"counts"`
		Findings []fleetdiag.Finding `json:"fleet_findings"`
		Nodes    []jsonNode          `json:"nodes"`
		Problems []string            `json:"problems,omitempty"`
		// HistorySeconds: how far back the windowed figures reach, when
		// less than the hour they ask (--nodes keeps only what it scraped).
		HistorySeconds float64 `json:"history_seconds,omitempty"`
	}{Source: v.Source, Counts: v.Counts, Findings: v.Findings, Problems: v.Fleet.Problems, HistorySeconds: v.Fleet.Span.Seconds()}
	for _, n := range v.Fleet.Nodes {
		r := v.Nodes[n.Key]
		out.Nodes = append(out.Nodes, jsonNode{Name: n.Name, Job: n.Key.Job, Instance: n.Key.Instance, Up: n.Up, DownReason: n.DownReason,
			Gpuscope: n.Gpuscope, WasteGPUHours: n.WasteGPUHours, EnergyKWh: n.EnergyKWh, GPUs: n.GPUs, Findings: r.Findings,
			DiagnosedFrom: r.From, NeedsHost: r.NeedsHost})
	}
	return json.Marshal(out)
}

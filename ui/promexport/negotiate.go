package promexport

import (
	"sort"
	"strconv"
	"strings"
)

// The two expositions gpuscope writes (encode.go).
const (
	contentTypeText        = "text/plain; version=0.0.4; charset=utf-8"
	contentTypeOpenMetrics = "application/openmetrics-text; version=1.0.0; charset=utf-8"
)

// wantsOpenMetrics reads a scraper's Accept header (RFC 9110 §12.5.1):
// OpenMetrics 1.0 (or 0.0.1, the same text) when the most preferred type
// gpuscope can write is OpenMetrics, the text format otherwise — also for
// protobuf-only or unknown types, as Prometheus's own exporters fall back.
// Prometheus sends openmetrics first ([prometheus-scrape-protocols]).
func wantsOpenMetrics(accept string) bool {
	type clause struct {
		typ, version string
		q            float64
	}
	var cs []clause
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		c := clause{typ: strings.ToLower(strings.TrimSpace(fields[0])), q: 1}
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(p, "=")
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "q":
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					c.q = q
				}
			case "version":
				c.version = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
		if c.typ != "" && c.q > 0 {
			cs = append(cs, c)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].q > cs[j].q })
	for _, c := range cs {
		switch c.typ {
		case "application/openmetrics-text":
			if c.version == "" || c.version == "1.0.0" || c.version == "0.0.1" {
				return true
			}
		case "text/plain", "text/*", "*/*":
			return false
		}
	}
	return false
}

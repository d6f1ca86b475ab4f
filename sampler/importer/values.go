package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// isNA reports the ways the tools print "no reading": nvidia-smi CSV uses
// "[N/A]", "[Not Supported]", "[Unknown Error]", "[Insufficient
// Permissions]" (any bracketed text); XML and dcgmi use "N/A"; dmon/pmon "-".
func isNA(s string) bool {
	switch strings.ToLower(s) {
	case "", "-", "n/a", "na", "not supported", "unknown", "unknown error", "insufficient permissions", "not available":
		return true
	}
	return strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]")
}

// splitNumber splits "310.25 W", "16384MiB", "16x" into number and unit.
func splitNumber(s string) (num, unit string) {
	end := 0
	for end < len(s) {
		c := s[end]
		if (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' {
			// 'e' only inside an exponent: "1e9" yes, "16 enabled" no.
			if (c == 'e' || c == 'E') && (end == 0 || end+1 >= len(s) || !isDigitOrSign(s[end+1])) {
				break
			}
			end++
			continue
		}
		break
	}
	return s[:end], strings.TrimSpace(s[end:])
}

func isDigitOrSign(c byte) bool { return (c >= '0' && c <= '9') || c == '-' || c == '+' }

// memScale converts a memory unit to bytes. nvidia-smi writes "MB" in dmon
// and "MiB" elsewhere for the same numbers (its MB are MiB).
func memScale(unit string) (float64, bool) {
	switch strings.ToLower(unit) {
	case "b", "bytes":
		return 1, true
	case "kib", "kb":
		return 1 << 10, true
	case "mib", "mb":
		return 1 << 20, true
	case "gib", "gb":
		return 1 << 30, true
	}
	return 0, false
}

// rateScale converts a throughput unit to bytes/s; like memory, the tools'
// "KB/s" and "MB/s" are binary (uncertain for dmon's rxpci/txpci, which
// nvidia-smi documents only as "MB/s").
func rateScale(unit string) (float64, bool) {
	switch strings.ToLower(unit) {
	case "b/s":
		return 1, true
	case "kb/s", "kib/s":
		return 1 << 10, true
	case "mb/s", "mib/s":
		return 1 << 20, true
	case "gb/s", "gib/s":
		return 1 << 30, true
	}
	return 0, false
}

// kind says how a column's value is read.
type kind int

const (
	plain   kind = iota // a number, unit ignored (%, W, C, MHz)
	memory              // bytes; default unit from the header, else MiB
	rate                // bytes/s; default MB/s
	ratio               // 0.0-1.0 → percent
	pstate              // "P0" → 0
	hexMask             // "0x...04" → clock event mask
)

// parseValue reads one cell. defUnit is the header's unit ("" if none).
func parseValue(cell string, k kind, defUnit string) (sampler.Metric, error) {
	cell = strings.TrimSpace(cell)
	if isNA(cell) {
		return sampler.NA, nil
	}
	switch k {
	case pstate:
		n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(cell), "P"))
		if err != nil || n < 0 || n > 15 {
			return sampler.NA, fmt.Errorf("%q is not a performance state (want P0..P15)", cell)
		}
		return sampler.Some(float64(n)), nil
	case hexMask:
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(cell), "0x"), 16, 64)
		if err != nil {
			return sampler.NA, fmt.Errorf("%q is not a hex bit mask (want 0x0000000000000004)", cell)
		}
		return sampler.Some(float64(v)), nil
	}
	num, unit := splitNumber(cell)
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return sampler.NA, fmt.Errorf("%q is not a number", cell)
	}
	if unit == "" {
		unit = defUnit
	}
	switch k {
	case memory:
		scale, ok := memScale(unit)
		if !ok {
			scale = 1 << 20
		}
		v *= scale
	case rate:
		scale, ok := rateScale(unit)
		if !ok {
			scale = 1 << 20
		}
		v *= scale
	case ratio:
		v *= 100
	}
	return sampler.Some(v), nil
}

// timeLayouts are the timestamp spellings of nvidia-smi's CSV
// ("2024/05/01 12:00:00.123"), dmon -o DT ("20240501 12:00:00") and XML
// ("Wed May  1 12:00:00 2024"), plus ISO forms people produce with date(1).
var timeLayouts = []string{
	"2006/01/02 15:04:05.000",
	"2006/01/02 15:04:05",
	"20060102 15:04:05",
	"2006-01-02 15:04:05.000",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05",
	"Mon Jan _2 15:04:05 2006",
	"Mon Jan 2 15:04:05 2006",
}

// parseTime reads a timestamp; zone-less ones are in loc.
func parseTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t, nil
		}
	}
	// nvidia-smi prints milliseconds, but accept any fraction.
	if t, err := time.ParseInLocation("2006/01/02 15:04:05.999999999", s, loc); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not a timestamp (want e.g. 2024/05/01 12:00:00.123)", s)
}

// activeFlag reads "Active"/"Not Active" of a clock event reason column.
func activeFlag(cell string) (active, ok bool) {
	switch strings.ToLower(strings.TrimSpace(cell)) {
	case "active":
		return true, true
	case "not active", "inactive":
		return false, true
	}
	return false, false
}

package sampler

import (
	"encoding/json"
	"strings"
)

// Clock event (throttle) reason bits, as nvml.h defines nvmlClocksEventReason*.
// Kept here so that ui and diagnose need not import the NVML bindings.
const (
	ClockGpuIdle        uint64 = 0x1
	ClockAppSetting     uint64 = 0x2
	ClockSwPowerCap     uint64 = 0x4
	ClockHwSlowdown     uint64 = 0x8
	ClockSyncBoost      uint64 = 0x10
	ClockSwThermal      uint64 = 0x20
	ClockHwThermal      uint64 = 0x40
	ClockHwPowerBrake   uint64 = 0x80
	ClockDisplaySetting uint64 = 0x100
)

// clockEventNames is ordered by bit; the names are the JSON and UI spelling.
var clockEventNames = []struct {
	bit  uint64
	name string
}{
	{ClockGpuIdle, "idle"},
	{ClockAppSetting, "app_clocks"},
	{ClockSwPowerCap, "sw_power_cap"},
	{ClockHwSlowdown, "hw_slowdown"},
	{ClockSyncBoost, "sync_boost"},
	{ClockSwThermal, "sw_thermal"},
	{ClockHwThermal, "hw_thermal"},
	{ClockHwPowerBrake, "hw_power_brake"},
	{ClockDisplaySetting, "display_clocks"},
}

// ClockEvents is the bitmask of active clock event reasons, or unknown.
type ClockEvents struct {
	Mask uint64
	OK   bool
}

// Has reports whether any of bits is active (false when unknown).
func (c ClockEvents) Has(bits uint64) bool { return c.OK && c.Mask&bits != 0 }

// Throttled reports reasons that actually hold clocks down: idle, app and
// display clock settings are not slowdowns.
func (c ClockEvents) Throttled() bool {
	return c.Has(ClockSwPowerCap | ClockHwSlowdown | ClockSwThermal | ClockHwThermal | ClockHwPowerBrake | ClockSyncBoost)
}

// Names lists the active reasons by their short names.
func (c ClockEvents) Names() []string {
	var out []string
	for _, e := range clockEventNames {
		if c.Mask&e.bit != 0 {
			out = append(out, e.name)
		}
	}
	return out
}

// String is the comma-joined names, "none", or "n/a".
func (c ClockEvents) String() string {
	if !c.OK {
		return "n/a"
	}
	if n := c.Names(); len(n) > 0 {
		return strings.Join(n, ",")
	}
	return "none"
}

// IsZero reports unknown reasons, so omitzero drops them.
func (c ClockEvents) IsZero() bool { return !c.OK }

// MarshalJSON writes the list of active names (possibly empty) or null.
func (c ClockEvents) MarshalJSON() ([]byte, error) {
	if !c.OK {
		return null, nil
	}
	n := c.Names()
	if n == nil {
		n = []string{}
	}
	return json.Marshal(n)
}

// UnmarshalJSON reads a list of names; unknown names are ignored so that
// newer recordings load in older builds.
func (c *ClockEvents) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return err
	}
	if names == nil {
		*c = ClockEvents{}
		return nil
	}
	*c = ClockEvents{OK: true}
	for _, n := range names {
		for _, e := range clockEventNames {
			if e.name == n {
				c.Mask |= e.bit
			}
		}
	}
	return nil
}

// ClockEventReason is one reason bit and its short name.
type ClockEventReason struct {
	Bit  uint64
	Name string
}

// ClockEventReasons lists every known reason, ordered by bit (a fresh copy).
func ClockEventReasons() []ClockEventReason {
	out := make([]ClockEventReason, len(clockEventNames))
	for i, e := range clockEventNames {
		out[i] = ClockEventReason{e.bit, e.name}
	}
	return out
}

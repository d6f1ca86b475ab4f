package units

import (
	"math"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestFormsAndNA(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Compact.Celsius(sampler.Some(61.6)), "62°C"},
		{Spaced.Celsius(sampler.Some(61.6)), "62 °C"},
		{Compact.Watts(sampler.Some(650.2)), "650W"},
		{Spaced.Watts(sampler.Some(650.2)), "650 W"},
		{Compact.GiB(sampler.Some(12.34 * (1 << 30))), "12.3GiB"},
		{Spaced.GiB(sampler.Some(12.34 * (1 << 30))), "12.3 GiB"},
		{Spaced.Whole(sampler.Some(3), "MHz"), "3 MHz"},
		{Percent(sampler.Some(42.46), 0), "42%"},
		{Percent(sampler.Some(42.46), 1), "42.5%"},
		{Seconds(80.4), "1m20s"},
		{Compact.Scaled(sampler.Some(1.254e9), 1e9, 2, "GB/s"), "1.25GB/s"},
		{Spaced.Whole(sampler.Some(650), ""), "650"},
		{Number(sampler.Some(3.14159), 2), "3.14"},
		{Number(sampler.NA, 2), NA},
		// Not supported is data: n/a, never 0 W or 0%.
		{Compact.Watts(sampler.NA), NA},
		{Spaced.Celsius(sampler.NA), NA},
		{Spaced.GiB(sampler.NA), NA},
		{Percent(sampler.NA, 1), NA},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if got := Spaced.Watts(sampler.Some(math.Inf(1))); got != "+Inf W" {
		t.Errorf("an infinite reading is shown as it is, got %q", got)
	}
}

// TestBytes: three significant figures in binary units, the unit a letter
// in Compact and in full in Spaced.
func TestBytes(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		in      float64
		compact string
		spaced  string
	}{
		{0, "0B", "0 B"}, {512, "512B", "512 B"}, {1536, "1.5K", "1.5 KiB"}, {80.1 * gib, "80.1G", "80.1 GiB"},
		{141 * gib, "141G", "141 GiB"}, {99.96 * gib, "100G", "100 GiB"}, {2048 * gib, "2.0T", "2.0 TiB"}, {-2048, "-2.0K", "-2.0 KiB"},
	} {
		if got := Compact.Bytes(sampler.Some(c.in)); got != c.compact {
			t.Errorf("Compact.Bytes(%v) = %q, want %q", c.in, got, c.compact)
		}
		if got := Spaced.Bytes(sampler.Some(c.in)); got != c.spaced {
			t.Errorf("Spaced.Bytes(%v) = %q, want %q", c.in, got, c.spaced)
		}
	}
	for _, c := range []struct{ got, want string }{
		{Compact.ByteRate(sampler.Some(1.5 * gib)), "1.5G/s"},
		{Spaced.ByteRate(sampler.Some(1.5 * gib)), "1.5 GiB/s"},
		{Compact.ByteRate(sampler.NA), NA},
		{Compact.Bytes(sampler.NA), NA},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

package sampler

import (
	"encoding/json"
	"math"
	"testing"
)

func TestMetricJSON(t *testing.T) {
	type row struct {
		A Metric `json:"a"`
		B Metric `json:"b,omitzero"`
	}
	cases := []struct {
		in   row
		want string
	}{
		{row{Some(97.5), Some(1)}, `{"a":97.5,"b":1}`},
		{row{NA, NA}, `{"a":null}`},
		{row{Some(math.NaN()), Some(math.Inf(1))}, `{"a":null,"b":null}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.in)
		if err != nil || string(b) != c.want {
			t.Errorf("marshal %+v = %s, %v; want %s", c.in, b, err, c.want)
		}
	}
	var r row
	if err := json.Unmarshal([]byte(`{"a":null,"b":42}`), &r); err != nil || r.A.OK || !r.B.OK || r.B.V != 42 {
		t.Errorf("unmarshal: %+v %v", r, err)
	}
}

func TestClockEventsJSONRoundTrip(t *testing.T) {
	in := ClockEvents{Mask: ClockSwPowerCap | ClockHwThermal, OK: true}
	b, _ := json.Marshal(in)
	if string(b) != `["sw_power_cap","hw_thermal"]` {
		t.Fatalf("marshal = %s", b)
	}
	var out ClockEvents
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Fatalf("round trip = %+v, %v", out, err)
	}
	if !out.Throttled() || (ClockEvents{Mask: ClockGpuIdle, OK: true}).Throttled() {
		t.Error("idle must not count as throttled; power cap must")
	}
}

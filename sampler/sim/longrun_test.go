package sim

import (
	"testing"
	"time"
)

// Regression: the thermal scenario's warming inlet once rose without bound,
// and a 24-hour demo recording reported GPU 4 at 2,721 °C. A day of the hot
// GPU must stay near its slowdown temperature.
func TestThermalScenarioStaysPhysicalForADay(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 24 hours")
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n, err := New("thermal_throttle", 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= 24*6; step++ {
		n.AdvanceTo(t0.Add(time.Duration(step) * 10 * time.Minute))
		if temp := n.GPUs()[0].Temp.V; temp > tempSlowdown+8 {
			t.Fatalf("after %d min the hot GPU is at %.0f °C", step*10, temp)
		}
	}
}

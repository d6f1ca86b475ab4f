package importer

import (
	"strings"
	"testing"
)

// The Xid events Kubernetes' GPU plugins log, in the device plugin's two
// wordings and the DRA driver's, are Xids on the device their UUID names;
// repeats of one device's code count once, other lines of the log stay
// other text.
func TestPluginXidEvents(t *testing.T) {
	in := "2021/03/02 11:20:05 Starting to serve on /var/lib/kubelet/device-plugins/nvidia-gpu.sock\n" +
		"2021/03/02 14:02:17 XidCriticalError: Xid=79 on Device=GPU-0a1b2c3d-1111-2222-3333-444455556666, the device will go unhealthy.\n" +
		"I0412 08:15:40.100200       1 health.go:185] XidCriticalError: Xid=48 on Device=GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff; marking device as unhealthy.\n" +
		"I0412 08:15:40.100300       1 health.go:185] XidCriticalError: Xid=48 on Device=GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff; marking device as unhealthy.\n" +
		"I0412 08:15:41.000000       1 device_health.go:202] Sending unhealthy notification for device MIG-12345678-abcd-ef01-2345-6789abcdef01 due to event type: 8 and event data: 13\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) == 0 {
		t.Fatalf("not read: %v", err)
	}
	got := map[string][]uint64{}
	for _, g := range snaps[len(snaps)-1].GPUs {
		for _, x := range g.Xids {
			got[g.UUID] = append(got[g.UUID], x.Code)
		}
	}
	want := map[string]uint64{
		"GPU-0a1b2c3d-1111-2222-3333-444455556666": 79,
		"GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff": 48,
		"MIG-12345678-abcd-ef01-2345-6789abcdef01": 13,
	}
	for u, c := range want {
		if len(got[u]) != 1 || got[u][0] != c {
			t.Errorf("%s: Xids %v, want [%d] once", u, got[u], c)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Xids on %d devices, want %d: %v", len(got), len(want), got)
	}
	if _, _, err := readString("the plugin logs XidCriticalError when a GPU fails\n"); err == nil || strings.Contains(err.Error(), "plugin Xid") {
		t.Errorf("prose naming the message read as an event: %v", err)
	}
}

package importer

import (
	"strings"
)

// The Xids Kubernetes' GPU plugins log when NVML hands them a critical-Xid
// event (nvmlEventTypeXidCriticalError, event type 8, its data the Xid)
// before they mark the device unhealthy: the device plugin's
// "XidCriticalError: Xid=%d on Device=%s" (then ", the device will go
// unhealthy." or "; marking device as unhealthy.") and the DRA driver's
// "Sending unhealthy notification for device %s due to event type: 8 and
// event data: %d". The device is named by its UUID (a GPU's, or a MIG
// device's), so the Xid is filed under a GPU known by that UUID; the
// catalogue then says whether the code is the hardware's or an
// application's ([nvidia-xid]); the event type is [nvml-api]'s.
var (
	plugXidRE = lazy(`XidCriticalError: Xid=(\d+) on Device=((?:GPU|MIG)-[0-9A-Fa-f-]+)` +
		`|device ((?:GPU|MIG)-[0-9A-Fa-f-]+) due to event type: 8 and event data: (\d+)`)
	goLogStampRE = lazy(`^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) `)
)

const kindPluginXid = "GPU plugin Xid events"

// isPluginXidLine tries the pattern only on lines holding one of its
// fixed words: it runs on every line a paste has not claimed.
func isPluginXidLine(s string) bool {
	return (strings.Contains(s, "XidCriticalError") || strings.Contains(s, "event type: 8")) && plugXidRE.MatchString(s)
}

// parsePluginXid reads each event as an Xid on the device it names; one
// device's code is one event however often the plugin repeats it.
func parsePluginXid(sec *section, seen map[string]bool) *part {
	return parseXids(sec, seen, "a GPU plugin", func(l string) [][3]string {
		m := plugXidRE.FindStringSubmatch(l)
		switch {
		case m == nil:
			return nil
		case m[2] != "":
			return [][3]string{{m[1], "", m[2]}}
		}
		return [][3]string{{m[4], "", m[3]}}
	})
}

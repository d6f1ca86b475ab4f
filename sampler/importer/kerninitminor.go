package importer

// Drivers before the GPU's PCI address was put in the message (the 3xx and
// early 4xx releases) report a GPU they could not bring up by its device
// minor number only (/dev/nvidiaN):
//
//	NVRM: RmInitAdapter failed! (0x26:0xffff:1127)
//	NVRM: rm_init_adapter failed for device bearing minor number 0
//
// The GPU is as unusable as one named by its address (initFailRE): read on
// the GPU the driver knows by that minor number, its address unknown.
var initMinorRE = lazy(`NVRM: rm_init_adapter failed for device bearing minor number (\d+)`)

// initMinorKey is the key of the GPU an old driver's init failure names,
// "" for any other line.
func initMinorKey(l string) string {
	if m := initMinorRE.FindStringSubmatch(l); m != nil {
		return "driver minor " + m[1]
	}
	return ""
}

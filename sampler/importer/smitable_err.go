package importer

import (
	"fmt"
	"strings"
)

// A table field that reads "ERR!" is one nvidia-smi asked NVML for and got
// an error back: not the N/A of a field the board does not support
// ([nvidia-smi]: "any unsupported data is indicated by N/A"), but a read
// that failed (NVML's NVML_ERROR_UNKNOWN, "any unexpected error":
// [nvml-api]); --query-gpu prints the same as "[Unknown Error]". The
// reading is absent either way; the failure itself is worth saying, as a
// note rather than a finding: one table cannot tell a failing fan or
// sensor from a read that failed once (an ERR! power reading has been
// judged transient by the people who saw it: docs/corpus-accuracy.md).

// tableErrFields names the fields of one line of a GPU box that read ERR!:
// the first line is name, Bus-Id and the ECC count, the second fan,
// temperature, performance state, power, memory and GPU-Util.
func tableErrFields(cells []string, first bool) []string {
	var out []string
	for i, c := range cells {
		if !strings.Contains(c, "ERR!") {
			continue
		}
		switch {
		case first && i == 2:
			out = append(out, "volatile uncorrected ECC count")
		case first:
			out = append(out, "a field of the name or bus cell")
		case i == 0:
			out = append(out, errFirstCell(c)...)
		case i == 1:
			out = append(out, "memory usage")
		default:
			out = append(out, "GPU-Util")
		}
	}
	return out
}

// errFirstCell names the ERR! fields of "Fan Temp Perf Pwr:Usage/Cap".
func errFirstCell(c string) []string {
	var out []string
	t := strings.TrimSpace(c)
	if strings.HasPrefix(t, "ERR!") {
		out = append(out, "fan")
		t = strings.TrimPrefix(t, "ERR!")
	}
	if m := tblPowerRE.FindStringSubmatch(t); m != nil {
		if m[1] == "ERR!" {
			out = append(out, "power draw")
		}
		if m[2] == "ERR!" {
			out = append(out, "power limit")
		}
		t = strings.Replace(t, m[0], "", 1)
	}
	if strings.Contains(t, "ERR!") {
		out = append(out, "temperature or performance state")
	}
	return out
}

// errNote is the section's line for one GPU's ERR! fields.
func errNote(gpu int, fields []string) string {
	return fmt.Sprintf("GPU %d %s: ERR! (nvidia-smi's read failed with an NVML error: a failing fan, sensor or driver "+
		"call, not an unsupported field; one table cannot tell whether it lasts: nvidia-smi -q -i %d shows it again)",
		gpu, strings.Join(fields, ", "), gpu)
}

// errUnreachable: the temperature or performance state and GPU-Util of a
// box all read ERR!. Those are reads NVML makes of the device itself, so
// when every one fails it is not a fan or a sensor but the GPU: the driver
// cannot reach it (what nvidia-smi prints for a GPU that fell off the bus
// or hung, [nvml-api]'s NVML_ERROR_UNKNOWN on every query), read as lost.
func errUnreachable(fields []string) bool {
	var temp, util bool
	for _, f := range fields {
		temp = temp || f == "temperature or performance state"
		util = util || f == "GPU-Util"
	}
	return temp && util
}

// errLostNote is the section's line for a GPU no reading of which came back.
func errLostNote(gpu int, fields []string) string {
	return fmt.Sprintf("GPU %d answers no reading: %s: ERR! (every read of the device failed, not one sensor: "+
		"the driver cannot reach it; the kernel log's Xid lines and nvidia-smi -q -i %d say why)",
		gpu, strings.Join(fields, ", "), gpu)
}

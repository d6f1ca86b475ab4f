package importer

import (
	"strings"
	"testing"
)

// A -q -x paste cut inside its first <gpu> (a forum's length limit, a
// chat's) reads the GPU's elements before the cut, as a cut -q does, and
// says where it stops; cut before the GPU names itself, nothing is read.
func TestXMLCutInsideTheGPU(t *testing.T) {
	head := "<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n<nvidia_smi_log>\n" +
		"\t<driver_version>550.54.15</driver_version>\n\t<attached_gpus>1</attached_gpus>\n\t<gpu id=\"00000000:01:00.0\">\n"
	snaps, warns, err := readString(head + "\t\t<product_name>NVIDIA L4</product_name>\n\t\t<product_brand>NVIDIA</product_brand>\n\t\t<persistence_mode>Enabled</persis")
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || snaps[0].GPUs[0].Name != "NVIDIA L4" || snaps[0].Node.Driver != "550.54.15" {
		t.Fatalf("snaps %+v, err %v; want the L4 and its driver", snaps, err)
	}
	if !strings.Contains(strings.Join(warns, "\n"), "cut off") {
		t.Errorf("warnings %q; want the cut named", warns)
	}
	if snaps, _, err := readString(head + "\t\t<product_na"); err == nil && len(snaps) > 0 && len(snaps[0].GPUs) > 0 {
		t.Errorf("cut before the name: read %+v; want no GPU", snaps[0].GPUs)
	}
}

package importer

import (
	"strings"
	"testing"
)

// Slurm's GRES errors are refused with the cause they name, never read as
// a GPU's fault; the most telling line of a run gives the cause (corpus
// b26-slurm*); prose about GRES is other text.
func TestSlurmGRESErrorsRefusedWithTheirCause(t *testing.T) {
	for in, want := range map[string]string{
		"May 23 12:49:52 mgmt1 slurmctld[80708]: slurmctld: _node_config_validate: gres/gpu: Count changed on node nodegpu1 (4 != 3)\n" +
			"May 23 12:49:52 mgmt1 slurmctld[80708]: slurmctld: error: Setting node nodegpu1 state to INVAL with reason:gres/gpu count reported lower than configured (3 < 4)\n": "drained the node",
		"[2022-06-10T09:46:22.044] error: _node_config_validate: gres/gpu: invalid GRES core specification (48-63,176-191) on node node01\n": "Cores=",
		"Feb 20 18:59:13 node2 slurmd[57977]: fatal: gres.conf duplicate records for gpu\n":                                                  "declares the GPUs twice",
		"Jul  8 15:11:04 gpu slurmd[5421]: error: Waiting for gres.conf file /dev//nvidia0\n" +
			"Jul  8 15:11:23 gpu slurmd[5421]: fatal: can't stat gres.conf file /dev//nvidia0: No such file or directory\n": "no device node",
	} {
		snaps, _, err := readString(in)
		if err == nil || len(snaps) != 0 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "no GPU reading") {
			t.Errorf("%q: snaps %d, err %v; want a refusal naming %q", in, len(snaps), err, want)
		}
	}
	if _, _, err := readString("Our GRES setup gives each job one GPU.\n"); err != nil && strings.Contains(err.Error(), kindSlurmGRES) {
		t.Errorf("prose read as Slurm's error: %v", err)
	}
}

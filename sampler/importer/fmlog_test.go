package importer

import (
	"strings"
	"testing"
)

// The fabric manager's failures read as a fact of the node whichever of
// its outputs shows them: its log, its service's journal, its start
// script; its INFO lines, a start script's help asked for, and prose
// about it are not failures.
func TestFabricManagerFailureLines(t *testing.T) {
	for in, want := range map[string]string{
		"Nov 05 13:55:26 node1 systemd[1]: Starting NVIDIA fabric manager service...\nNov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version 550.127.05 don't match with driver version 550.120. Please update with matching NVIDIA driver package.\n": "don't match with driver version 550.120",
		"nv-fabricmanager[4177]: request to query NVSwitch device information from NVSwitch driver failed with error:generic error [NV_ERR_GENERIC]\n":                                                                                                                                             "NV_ERR_GENERIC",
		"Sep 18 03:19:01 h nvidia-fabricmanager-start.sh[4753]: \"/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg\" failed! Exit code: 1\n":                                                                                                                              "Exit code: 1",
		"Sep 18 03:19:01 h systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE\n":                                                                                                                                                                      "status=1/FAILURE",
		"[Jul 29 2021 14:46:01] [INFO] [tid 839] Fabric Manager version 470.57.02 is running\n[Jul 29 2021 14:46:03] [ERROR] [tid 841] NVLink training failed for NVSwitch 2 port 17\n":                                                                                                            "NVLink training failed",
		"Starting NVIDIA fabric manager daemon...\nUnknown option: --foo\nNVIDIA Fabric Manager Start Script\nWarning: If you are not a fabric manager developer, please avoid running this script directly.\nUsage: /usr/bin/nvidia-fabricmanager-start.sh [script options] --args [arguments]\n": "Unknown option: --foo (NVIDIA Fabric Manager Start Script)",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || !strings.Contains(snaps[0].Node.FabricError, want) {
			t.Errorf("%q: snaps %+v, err %v; want a fabric error with %q", in, snaps, err, want)
		}
	}
	for _, in := range []string{
		"[Jul 29 2021 14:46:00] [INFO] [tid 839] Fabric Manager version 470.57.02 is running with the following configuration options\n[Jul 29 2021 14:46:05] [INFO] [tid 839] Successfully configured all the available NVSwitches to route GPU NVLink traffic.\n",
		"Usage: /usr/bin/nvidia-fabricmanager-start.sh [script options] --args [arguments to run fabric manager]\n  -h, --help              Show this help message\n",
		"Unknown option: -z\nusage: tar [options]\n",
		"The fabric manager is needed on NVSwitch systems.\n",
		// No NVSwitch found: the failure lines after it fail at nothing.
		"Sep 18 03:19:01 h nvidia-fabricmanager-start.sh[4756]: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]\n" +
			"Sep 18 03:19:01 h systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE\n",
	} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && snaps[0].Node.FabricError != "" {
			t.Errorf("%q read as a fabric manager failure: %q", in, snaps[0].Node.FabricError)
		}
	}
}

// A missing fabric manager unit is a fault only on a node with NVSwitches
// ([fabric-manager]): alone, or beside a PCIe GPU's lines, it is refused
// with why; beside lspci's NVSwitch bridges or the nvidia-nvswitch
// driver's kernel lines it is the node's fabric error.
func TestFabricManagerUnitMissingNeedsNVSwitch(t *testing.T) {
	const status = "[root@node ~]# sudo systemctl status nvidia-fabricmanager\nUnit nvidia-fabricmanager.service could not be found.\n"
	const start = "$ sudo systemctl start nvidia-fabricmanager\nFailed to start nvidia-fabricmanager.service: Unit nvidia-fabricmanager.service not found.\n"
	for _, in := range []string{status, start,
		status + "$ lspci | grep -i nvidia\n3b:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 80GB] (rev a1)\n"} {
		snaps, why, err := readString(in)
		if len(snaps) > 0 && snaps[0].Node.FabricError != "" {
			t.Errorf("%q read as a fabric manager failure: %q", in, snaps[0].Node.FabricError)
		}
		if err == nil || !strings.Contains(err.Error(), "only an NVSwitch node needs it") {
			t.Errorf("%q: refusal %v (%v) does not say why", in, err, why)
		}
	}
	for in, want := range map[string]string{
		status + "$ lspci | grep -i nvidia\n07:00.0 3D controller: NVIDIA Corporation GA100 [A100 SXM4 80GB] (rev a1)\n" +
			"84:00.0 Bridge: NVIDIA Corporation GA100 [A100 NVSwitch] (rev a1)\n": "A100 NVSwitch",
		start + "c5:00.0 Bridge: NVIDIA Corporation Device 1af1 (rev a1)\n": "Device 1af1",
		"[   12.345678] nvidia-nvswitch0: using MSI\n" + status:             "nvidia-nvswitch0",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || !strings.Contains(snaps[0].Node.FabricError, "not") || !strings.Contains(snaps[0].Node.FabricError, want) {
			t.Errorf("%q: snaps %+v, err %v; want a fabric error naming %q", in, snaps, err, want)
		}
	}
}

// The fabric manager checks its configuration before it starts and exits
// on a value it rejects, naming the item ("fabric manager config file
// item: <KEY> has an invalid value"): the fabric is not set up, a failure
// of the node like its other start failures; prose about the file is not.
func TestFabricManagerInvalidConfigItem(t *testing.T) {
	in := "Mar 02 08:14:09 gpu-7 nv-fabricmanager[2211]: fabric manager config file item: FABRIC_MODE has an invalid value\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || !strings.Contains(snaps[0].Node.FabricError, "FABRIC_MODE has an invalid value") {
		t.Fatalf("snaps %+v, err %v; want a fabric error naming the rejected item", snaps, err)
	}
	if snaps, _, _ := readString("Each fabric manager config file item is documented in the user guide.\n"); len(snaps) > 0 && snaps[0].Node.FabricError != "" {
		t.Errorf("prose read as a fabric manager failure: %q", snaps[0].Node.FabricError)
	}
}

// The words that let a line reach the fabric manager's patterns are in
// every line those patterns match, whatever its case: a prefilter that
// drops none of them.
func TestFabricManagerPrefilterKeepsMatches(t *testing.T) {
	for _, l := range []string{
		"NV-FABRICMANAGER[1]: FABRIC MANAGER NVIDIA GPU DRIVER INTERFACE VERSION 1 DON'T MATCH WITH DRIVER VERSION 2",
		"[Jul 29 2021 14:46:03] [error] [TID 841] nvlink training failed",
		"nv-fabricmanager[4177]: REQUEST TO QUERY NVSWITCH DEVICE INFORMATION FROM NVSWITCH DRIVER FAILED with error:generic",
		"Unit NVIDIA-FabricManager.service could not be found.",
		"fabric manager config file item: FABRIC_MODE has an invalid value",
	} {
		if !fmFailRE.MatchString(l) && !fmMissingRE.MatchString(l) {
			t.Fatalf("%q: no pattern matches; the case is a bad one", l)
		}
		if !isFMFailLine(l) {
			t.Errorf("%q dropped by the prefilter", l)
		}
	}
	if isFMFailLine("[rank3]: step 812 loss 0.4121 failed to fetch a batch") {
		t.Error("a job's log line read as a fabric manager failure")
	}
}

package host

import (
	"strings"
	"testing"
)

const (
	hexA = "3f1c9a2b7d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8"
	hexB = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
)

func TestContainerID(t *testing.T) {
	cases := []struct {
		name, cgroup, want string
	}{
		{"none v2", "0::/user.slice/user-1000.slice/session-3.scope\n", ""},
		{"none v1", "12:memory:/\n11:cpu,cpuacct:/\n0::/\n", ""},
		{"docker v1", "12:memory:/docker/" + hexA + "\n11:cpu,cpuacct:/docker/" + hexA + "\n", hexA[:12]},
		{"docker v2 systemd", "0::/system.slice/docker-" + hexA + ".scope\n", hexA[:12]},
		{"docker v2 cgroupfs driver", "0::/docker/" + hexA + "\n", hexA[:12]},
		{"kubepods cri-containerd", "0::/kubepods.slice/kubepods-besteffort.slice/" +
			"kubepods-besteffort-pod6b1b2f9e_8f3c_4d2a_9c1e_0a1b2c3d4e5f.slice/cri-containerd-" + hexA + ".scope\n", hexA[:12]},
		{"kubepods v1 cgroupfs", "4:memory:/kubepods/burstable/pod6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f/" + hexA + "\n", hexA[:12]},
		{"cri-o", "0::/kubepods.slice/kubepods-pod1.slice/crio-" + hexA + ".scope\n", hexA[:12]},
		{"podman", "0::/machine.slice/libpod-" + hexA + ".scope/container\n", hexA[:12]},
		{"nested takes innermost", "0::/docker/" + hexB + "/docker/" + hexA + "\n", hexA[:12]},
		{"first matching line", "5:cpuset:/\n4:memory:/docker/" + hexB + "\n0::/\n", hexB[:12]},
		{"32-hex name is not a container", "4:memory:/process_api/1db0368b2769ba0fe84dbdf1e4a1ae43\n0::/\n", ""},
		{"65 hex digits is not an id", "0::/docker/" + hexA + "0\n", ""},
		{"uppercase is not an id", "0::/docker/" + strings.ToUpper(hexA) + "\n", ""},
		{"no trailing newline", "0::/system.slice/docker-" + hexA + ".scope", hexA[:12]},
		{"id in controller field only", "1:" + hexA + ":/\n", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := containerID(c.cgroup); got != c.want {
				t.Errorf("containerID(%q) = %q, want %q", c.cgroup, got, c.want)
			}
		})
	}
}

func FuzzContainerID(f *testing.F) {
	f.Add("0::/system.slice/docker-" + hexA + ".scope\n")
	f.Add("12:memory:/docker/" + hexA + "\n0::/\n")
	f.Add("0::/kubepods/pod/" + hexA + hexB + "\n")
	f.Add("::\n:\n")
	f.Fuzz(func(t *testing.T, cgroup string) {
		id := containerID(cgroup)
		if id == "" {
			return
		}
		if len(id) != shortIDLen {
			t.Fatalf("id %q has length %d, want %d", id, len(id), shortIDLen)
		}
		for i := 0; i < len(id); i++ {
			if !isLowerHex(id[i]) {
				t.Fatalf("id %q has non-hex byte %q", id, id[i])
			}
		}
		if !strings.Contains(cgroup, id) {
			t.Fatalf("id %q not in input", id)
		}
	})
}

func TestPodUID(t *testing.T) {
	const uid = "6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f"
	cases := []struct{ name, cgroup, want string }{
		{"systemd driver", "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" +
			strings.ReplaceAll(uid, "-", "_") + ".slice/cri-containerd-" + hexA + ".scope\n", uid},
		{"cgroupfs driver", "4:memory:/kubepods/burstable/pod" + uid + "/" + hexA + "\n", uid},
		{"guaranteed, no qos level", "0::/kubepods/pod" + uid + "/" + hexA + "\n", uid},
		{"docker, no pod", "0::/system.slice/docker-" + hexA + ".scope\n", ""},
		{"pod outside kubepods", "0::/user.slice/pod" + uid + "\n", ""},
		{"short", "0::/kubepods/pod6b1b\n", ""},
		{"not hex", "0::/kubepods/pod" + strings.ToUpper(uid) + "/x\n", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := podUID(c.cgroup); got != c.want {
				t.Errorf("podUID(%q) = %q, want %q", c.cgroup, got, c.want)
			}
		})
	}
}

func FuzzPodUID(f *testing.F) {
	f.Add("0::/kubepods/pod6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f/x\n")
	f.Fuzz(func(t *testing.T, cgroup string) {
		if id := podUID(cgroup); id != "" && !isUUID(id) {
			t.Fatalf("podUID(%q) = %q, not a UUID", cgroup, id)
		}
	})
}

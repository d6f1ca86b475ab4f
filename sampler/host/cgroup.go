package host

import "strings"

// containerIDLen is the length of a full container id: docker, containerd,
// cri-o and podman all name containers by a SHA-256, 64 lowercase hex digits.
const containerIDLen = 64

// shortIDLen is the short form `docker ps` and `crictl ps` print
// (what users paste into `docker exec`).
const shortIDLen = 12

// containerID extracts the container id from the text of /proc/PID/cgroup, in
// its short 12-character form, or "" when the process is not in a container.
//
// Each line is "hierarchy-id:controllers:path". The id is the last run of
// exactly 64 hex digits in a path, which covers every runtime's layout:
//
//	cgroup v1 docker:   4:memory:/docker/<id>
//	cgroup v2 systemd:  0::/system.slice/docker-<id>.scope
//	kubernetes:         0::/kubepods.slice/.../cri-containerd-<id>.scope
//	cri-o, podman:      .../crio-<id>.scope, .../libpod-<id>.scope
//
// Pod UIDs (36 characters with dashes) and shorter hex names never match.
// The last match wins so nested containers report the innermost one.
func containerID(cgroup string) string {
	for line := range strings.Lines(cgroup) {
		// The path is everything after the second colon; paths may hold colons.
		_, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		_, path, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		if id := lastHexRun(path, containerIDLen); id != "" {
			return id[:shortIDLen]
		}
	}
	return ""
}

// lastHexRun returns the last maximal run of lowercase hex digits in s whose
// length is exactly n, or "".
func lastHexRun(s string, n int) string {
	end := len(s)
	for end > 0 {
		// Skip non-hex bytes backwards to the end of a run.
		for end > 0 && !isLowerHex(s[end-1]) {
			end--
		}
		start := end
		for start > 0 && isLowerHex(s[start-1]) {
			start--
		}
		if end-start == n {
			return s[start:end]
		}
		end = start
	}
	return ""
}

func isLowerHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f')
}

// podUIDLen is a UUID's length with its four separators (RFC 4122).
const podUIDLen = 36

// podUID extracts the Kubernetes pod UID from the text of /proc/PID/cgroup,
// or "". The kubelet names a pod's cgroup "pod<uid>": with the cgroupfs
// driver the UID keeps its dashes (/kubepods/burstable/pod6b1b…-…/), with the
// systemd driver they become underscores (kubepods-burstable-pod6b1b…_….slice)
// (kubernetes.io/docs/concepts/architecture/cgroups, kubelet cm/cgroup_manager_linux.go).
func podUID(cgroup string) string {
	for line := range strings.Lines(cgroup) {
		if !strings.Contains(line, "kubepods") {
			continue
		}
		for rest := line; ; {
			i := strings.Index(rest, "pod")
			if i < 0 {
				break
			}
			rest = rest[i+3:]
			if len(rest) < podUIDLen {
				break
			}
			if id := strings.ReplaceAll(rest[:podUIDLen], "_", "-"); isUUID(id) {
				return id
			}
		}
	}
	return ""
}

// isUUID reports the 8-4-4-4-12 lowercase hex form.
func isUUID(s string) bool {
	for i := range len(s) {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isLowerHex(s[i]) {
				return false
			}
		}
	}
	return len(s) == podUIDLen
}

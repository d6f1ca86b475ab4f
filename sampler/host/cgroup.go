package host

import "strings"

// containerIDLen is the length of a full container id: docker, containerd,
// cri-o and podman all name containers by a SHA-256, 64 lowercase hex digits.
const containerIDLen = 64

// shortIDLen is the short form `docker ps` and `crictl ps` print (chosen here:
// what users paste into `docker exec`).
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

package promsource

import (
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"strconv"
)

func keyOf(m metric) fleetsnap.NodeKey {
	return fleetsnap.NodeKey{Job: string(m["job"]), Instance: string(m["instance"])}
}

// hostOf names the node: dcgm-exporter's Hostname (its newer builds say
// hostname, as gpuscope does), else the target's instance.
func hostOf(m metric) string {
	for _, l := range []string{"Hostname", "hostname", "instance"} {
		if v := m[l]; v != "" {
			return string(v)
		}
	}
	return ""
}

// gpuOf reads the GPU index label both exporters use.
func gpuOf(m metric) (int, bool) {
	i, err := strconv.Atoi(string(m["gpu"]))
	return i, err == nil
}

// isMIG reports a MIG instance's series (dcgm-exporter adds GPU_I_ID): the
// fleet counts physical GPUs.
func isMIG(m metric) bool { return m["GPU_I_ID"] != "" }

// podOf reads the Kubernetes pod a GPU is attributed to. With
// honor_labels false Prometheus renames the exporter's pod/namespace labels
// to exported_*, and the plain ones then name the exporter's own pod.
func podOf(m metric) (namespace, pod string) {
	if p := m["exported_pod"]; p != "" {
		return string(m["exported_namespace"]), string(p)
	}
	if m["Hostname"] != "" || m["hostname"] != "" { // an exporter's series: pod is the workload's
		return string(m["namespace"]), string(m["pod"])
	}
	return "", ""
}

// gpuRef is one GPU of one node.
type gpuRef struct {
	node fleetsnap.NodeKey
	gpu  int
}

func refOf(m metric) (gpuRef, bool) {
	i, ok := gpuOf(m)
	if !ok || isMIG(m) {
		return gpuRef{}, false
	}
	return gpuRef{keyOf(m), i}, true
}

/*
 * A stand-in libnvidia-ml.so.1 for the release-binary test (dist_test.go):
 * one fake GPU answering the few calls a driver of the K80 era (R367-R450)
 * had, every newer function absent, as on such a driver. It proves the real
 * binding (lazy symbols, dlopen, the symbol guard in
 * sampler/nvmlsource/symbols.go), which go-nvml's mocks and the fake
 * driver never exercise. Built with the system cc against go-nvml's nvml.h.
 */
#include <stdio.h>
#include <string.h>
#include "nvml.h"

static int gpu; /* the one device; its address is the handle (go-nvml's nvml.h wraps the pointer in a struct, same ABI) */

nvmlReturn_t nvmlInit_v2(void) { return NVML_SUCCESS; }
nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }

const char *nvmlErrorString(nvmlReturn_t r) {
	return r == NVML_SUCCESS ? "Success" : "Stand-in error";
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned int n) {
	snprintf(v, n, "418.226.00");
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *v, unsigned int n) {
	snprintf(v, n, "10.418.226.00");
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v) {
	*v = 10010;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n) {
	*n = 1;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d) {
	if (i != 0) return NVML_ERROR_INVALID_ARGUMENT;
	d->handle = (struct nvmlDevice_st *)&gpu;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int n) {
	snprintf(name, n, "Stand-in K80");
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int n) {
	snprintf(uuid, n, "GPU-5a4d0000-0000-0000-0000-000000000001");
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u) {
	u->gpu = 42;
	u->memory = 17;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
	m->total = 12ULL << 30;
	m->used = 3ULL << 30;
	m->free = m->total - m->used;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, nvmlTemperatureSensors_t s, unsigned int *t) {
	*t = 51;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw) {
	*mw = 87000;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int *mw) {
	*mw = 149000;
	return NVML_SUCCESS;
}

/* The bitmask's name before R535 renamed it "clocks event reasons". */
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long *r) {
	*r = nvmlClocksThrottleReasonGpuIdle;
	return NVML_SUCCESS;
}

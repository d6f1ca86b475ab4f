package importer

import (
	"encoding/xml"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// xmlGPU is the part of one <gpu> element of `nvidia-smi -q -x` that
// gpuscope shows. Element names follow nvsmi_device_v12.dtd and its
// predecessors; renamed elements (throttle → event reasons, power_readings →
// gpu_power_readings) are both listed. Every value is text: "N/A" is common.
type xmlGPU struct {
	ID          string `xml:"id,attr"`
	ProductName string `xml:"product_name"`
	UUID        string `xml:"uuid"`
	Persistence string `xml:"persistence_mode"`
	ComputeMode string `xml:"compute_mode"`
	MIGCurrent  string `xml:"mig_mode>current_mig"`
	FabricState string `xml:"fabric>state"`
	FabricStat  string `xml:"fabric>status"`
	PCI         struct {
		BusID    string `xml:"pci_bus_id"`
		GenMax   string `xml:"pci_gpu_link_info>pcie_gen>max_link_gen"`
		GenCur   string `xml:"pci_gpu_link_info>pcie_gen>current_link_gen"`
		WidthMax string `xml:"pci_gpu_link_info>link_widths>max_link_width"`
		WidthCur string `xml:"pci_gpu_link_info>link_widths>current_link_width"`
		Replay   string `xml:"replay_counter"`
		TX       string `xml:"tx_util"`
		RX       string `xml:"rx_util"`
	} `xml:"pci"`
	Fan             string     `xml:"fan_speed"`
	PState          string     `xml:"performance_state"`
	EventReasons    xmlReasons `xml:"clocks_event_reasons"`
	ThrottleReasons xmlReasons `xml:"clocks_throttle_reasons"`
	FB              struct {
		Total string `xml:"total"`
		Used  string `xml:"used"`
		Free  string `xml:"free"`
	} `xml:"fb_memory_usage"`
	Util struct {
		GPU string `xml:"gpu_util"`
		Mem string `xml:"memory_util"`
		Enc string `xml:"encoder_util"`
		Dec string `xml:"decoder_util"`
	} `xml:"utilization"`
	ECC struct {
		SingleBit string `xml:"volatile>single_bit>total"`
		DoubleBit string `xml:"volatile>double_bit>total"`
		SRAMCorr  string `xml:"volatile>sram_correctable"`
		SRAMUnc   string `xml:"volatile>sram_uncorrectable"`
		DRAMCorr  string `xml:"volatile>dram_correctable"`
		DRAMUnc   string `xml:"volatile>dram_uncorrectable"`
	} `xml:"ecc_errors"`
	Temp struct {
		GPU      string `xml:"gpu_temp"`
		Slowdown string `xml:"gpu_temp_slow_threshold"`
		MaxOp    string `xml:"gpu_temp_max_gpu_threshold"`
		Target   string `xml:"gpu_target_temperature"`
		Shutdown string `xml:"gpu_temp_max_threshold"`
	} `xml:"temperature"`
	Power    xmlPower `xml:"power_readings"`
	GPUPower xmlPower `xml:"gpu_power_readings"`
	Clocks   struct {
		Graphics string `xml:"graphics_clock"`
		SM       string `xml:"sm_clock"`
		Mem      string `xml:"mem_clock"`
	} `xml:"clocks"`
	MaxClocks struct {
		Graphics string `xml:"graphics_clock"`
		SM       string `xml:"sm_clock"`
		Mem      string `xml:"mem_clock"`
	} `xml:"max_clocks"`
	Procs []struct {
		PID    string `xml:"pid"`
		Type   string `xml:"type"`
		Name   string `xml:"process_name"`
		Memory string `xml:"used_memory"`
	} `xml:"processes>process_info"`
}

type xmlPower struct {
	Draw     string `xml:"power_draw"`
	Average  string `xml:"average_power_draw"`
	Instant  string `xml:"instant_power_draw"`
	Limit    string `xml:"power_limit"`
	Current  string `xml:"current_power_limit"`
	Enforced string `xml:"enforced_power_limit"`
}

// xmlReasons keeps every child: the names differ by driver
// (clocks_event_reason_sw_power_cap, clocks_throttle_reason_sw_power_cap).
type xmlReasons struct {
	Items []struct {
		XMLName xml.Name
		Value   string `xml:",chardata"`
	} `xml:",any"`
}

// xmlReasonBits maps the name after "..._reason_" to its bit.
var xmlReasonBits = map[string]uint64{
	"gpu_idle": sampler.ClockGpuIdle, "applications_clocks_setting": sampler.ClockAppSetting,
	"sw_power_cap": sampler.ClockSwPowerCap, "hw_slowdown": sampler.ClockHwSlowdown,
	"hw_thermal_slowdown": sampler.ClockHwThermal, "hw_power_brake_slowdown": sampler.ClockHwPowerBrake,
	"sw_thermal_slowdown": sampler.ClockSwThermal, "sync_boost": sampler.ClockSyncBoost,
	"display_clocks_setting": sampler.ClockDisplaySetting, "display_clock_setting": sampler.ClockDisplaySetting,
}

func (r xmlReasons) events() sampler.ClockEvents {
	var c sampler.ClockEvents
	for _, it := range r.Items {
		name := it.XMLName.Local
		if i := strings.Index(name, "_reason_"); i >= 0 {
			name = name[i+len("_reason_"):]
		}
		bit, known := xmlReasonBits[name]
		on, ok := activeFlag(it.Value)
		if !known || !ok {
			continue
		}
		c.OK = true
		if on {
			c.Mask |= bit
		}
	}
	return c
}

package diagnose

// hintBAR: a GPU whose BAR got no address window is refused by the
// driver's probe; the GPU is sound and the fix is in the firmware or the
// hypervisor (docs/playbook/xid_error.md, Caveats). A function, not a
// variable, so the fix costs the binary no data.
func hintBAR() fix {
	return fix{"bar_unassigned", "the GPU is not at fault: the firmware or hypervisor gave its BAR no address window. On a host, " +
		"enable Above 4G Decoding (and Resizable BAR) in the BIOS; in a VM, enlarge the guest firmware's 64-bit MMIO window " +
		"(OVMF: -fw_cfg name=opt/ovmf/X-PciMmio64Mb,string=65536, or the hypervisor's large-BAR setting); then reboot"}
}

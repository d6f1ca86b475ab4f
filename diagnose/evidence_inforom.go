package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// hintInfoROM: the infoROM is the board's own storage, so the fix is the
// board's: its image version, an update from the vendor, an RMA.
var hintInfoROM = fix{"inforom", "nvidia-smi -q -i <GPU> | grep -A6 -i inforom shows the image and object versions (N/A where it " +
	"cannot be read); the infoROM is updated only with the board vendor's or NVIDIA's tool for that board, so ask the " +
	"vendor (a cloud VM: the provider); until then the GPU's ECC and retired-page records may not be kept; if the " +
	"warning stays after an update or a reboot, have the board replaced (RMA) ([nvidia-smi])"}

// infoROM: nvidia-smi warned that the board's infoROM is corrupted
// (sampler.GPU.InfoROMCorrupt). The infoROM is where the driver keeps the
// board's ECC error counts and retired pages (nvidia-smi(1), "ECC Errors",
// "Retired Pages"), so it is reported beside the memory-error records, as
// ecc_errors: a warning, as the GPU still runs.
func (e *evCtx) infoROM(g *sampler.GPU) {
	if !g.InfoROMCorrupt {
		return
	}
	e.add(RuleECCErrors, Warning, g.Index, say("evidence.inforom_title", "GPU {{.GPU}} infoROM is corrupted", "GPU", g.Index),
		Text{say("evidence.inforom", "nvidia-smi warned that the infoROM of the board at {{.Bus}} is corrupted: the storage that keeps its ECC error counts and retired pages",
			"Bus", orNA(g.BusID))},
		hintInfoROM,
		Text{say("evidence.inforom_est", "nvidia-smi's warning, as pasted: it prints it while the infoROM fails its check; nvidia-smi run again shows whether it persists")},
		Use{g.Index, "inforom"})
}

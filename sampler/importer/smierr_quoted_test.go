package importer

import (
	"strings"
	"testing"
)

// nvidia-smi's device-handle error quoted in a sentence with its first
// letters lost in the copy, and the tool's next words run on after it:
// the address and "determine the device handle for GPU" are nvidia-smi's
// words (its message is "Unable to determine the device handle for GPU%s:
// %s"), so the GPU at that address is read as lost all the same. Prose
// about the error without an address stays prose.
func TestQuotedDeviceHandleErrorMissingFirstLetters(t *testing.T) {
	for _, lead := range []string{"nable to", "able to", "le to", "to"} {
		in := "服务器上一张卡掉了，命令报错 " + lead + " determine the device handle for GPU0000:3B:00.0: Unknown Errorexit status 255，重启后恢复。\n"
		snaps, _, err := readString(in)
		if err != nil {
			t.Fatalf("%q: %v", lead, err)
		}
		gs := snaps[len(snaps)-1].GPUs
		if len(gs) != 1 || !gs[0].Lost || !strings.Contains(gs[0].BusID, "3B:00") {
			t.Errorf("%q: want one GPU lost at 3B:00, got %+v", lead, gs)
		}
	}
	if _, _, err := readString("how does nvidia-smi determine the device handle for a GPU it cannot reach?\n"); err == nil {
		t.Error("prose without an address was read")
	}
}

// The same quote wrapped by a chat at 80 columns, or cut by a terminal,
// where the cut splits "device handle": the first line holds "determine",
// so the unwrapper tries the join and the error reads whole.
func TestQuotedDeviceHandleErrorWrapped(t *testing.T) {
	prose := "训练跑了一夜之后 nvidia-smi 不能用了，报错信息是 Unable to determine the device handle for GPU0000:5E:00.0: Unknown Error，重启之后又好了。"
	r := []rune(prose)
	at := strings.Index(prose, " handle")
	word := len([]rune(prose[:at])) // the space before "handle": a word wrap cuts there
	hard := len([]rune(prose[:strings.Index(prose, "dle for")]))
	for name, in := range map[string]string{
		"word wrap": string(r[:word]) + "\n" + string(r[word+1:]) + "\n",
		"hard cut":  string(r[:hard]) + "\n" + string(r[hard:]) + "\n",
	} {
		first := []rune(strings.SplitN(in, "\n", 2)[0])
		// The cut is where a width puts it: pad the first line's run of
		// Chinese so it ends at 80 columns (a hard cut) or short of it.
		pad := 80 - len(first)
		if name == "word wrap" {
			pad = 80 - len(first) - 2
		}
		in = strings.Repeat("卡", pad) + in
		snaps, _, err := readString(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		gs := snaps[len(snaps)-1].GPUs
		if len(gs) != 1 || !gs[0].Lost || !strings.Contains(gs[0].BusID, "5E:00") {
			t.Errorf("%s: want one GPU lost at 5E:00, got %+v", name, gs)
		}
	}
}

// The error's tail alone, "GPU is lost. Reboot the system to recover this
// GPU", quoted in a sentence (nvidia-smi's own words, as batch 27's caffe
// thread gives them, the space after the full stop lost or not), is a GPU
// lost, none named; whole or word-wrapped at 80 columns. Prose about a lost
// GPU without nvidia-smi's words stays prose.
func TestQuotedGPUIsLostTail(t *testing.T) {
	for _, in := range []string{
		"After a day of training nvidia-smi says \"GPU is lost. Reboot the system to recover this GPU\" and the job died.\n",
		// Word-wrapped: the first line ends at 78 columns, "lost.Reboot" would pass 80.
		"After a day of training on the old Titan X box nvidia-smi reveals: \"The GPU is\nlost.Reboot the system to recover the GPU\" and the job died.\n",
	} {
		snaps, _, err := readString(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if gs := snaps[len(snaps)-1].GPUs; len(gs) != 1 || !gs[0].Lost || gs[0].BusID != "" {
			t.Errorf("%q: want one GPU lost, no bus id, got %+v", in, gs)
		}
	}
	if _, _, err := readString("if a GPU is lost, what does nvidia-smi print?\n"); err == nil {
		t.Error("prose about a lost GPU was read")
	}
}

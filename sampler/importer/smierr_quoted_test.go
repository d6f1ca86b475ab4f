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

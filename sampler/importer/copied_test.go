package importer

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// dmonA100 is nvidia-smi dmon's header and one tick of two GPUs.
const dmonA100 = "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk\n" +
	"# Idx      W      C      C      %      %      %      %    MHz    MHz\n" +
	"    0    287     61     70     98     53      0      0   1593   1410\n" +
	"    1     58     33     41      0      0      0      0   1593    210\n"

// A log saved by a Windows editor starts with a byte order mark; dmon's
// reader saw "\ufeff# gpu" as its first line and refused the file.
func TestCopiedDmonWithBOM(t *testing.T) {
	snaps, _, err := readString(bom + dmonA100)
	if err != nil {
		t.Fatalf("dmon with a byte order mark: %v", err)
	}
	if len(snaps) != 1 || len(snaps[0].GPUs) != 2 || snaps[0].GPUs[0].Power.V != 287 {
		t.Fatalf("read %+v, want one tick of two GPUs, GPU 0 at 287 W", snaps)
	}
}

// A web page's copy gives U+00A0 for the spaces it showed: dmon's columns,
// the table's cells and -q's "Key : value" are split on spaces.
func TestCopiedNonBreakingSpaces(t *testing.T) {
	snaps, _, err := readString(strings.ReplaceAll(dmonA100, " ", nbsp))
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 2 {
		t.Fatalf("dmon with non-breaking spaces: %v, %+v", err, snaps)
	}
	want, _ := readPaste(t, table418)
	got, _ := readPaste(t, strings.ReplaceAll(table418, " ", nbsp))
	if len(got) != len(want) || len(got[0].GPUs) != len(want[0].GPUs) || got[0].Node.Driver != want[0].Node.Driver {
		t.Fatalf("table with non-breaking spaces: %+v, want %+v", got, want)
	}
}

// A reply that quotes a quoted paste puts "> " before the quote's "> ".
func TestCopiedQuotedTwice(t *testing.T) {
	want, _ := readPaste(t, table418)
	for _, mark := range []string{"> > ", ">> "} {
		var b strings.Builder
		for _, l := range strings.Split(table418, "\n") {
			b.WriteString(mark + l + "\n")
		}
		got, _ := readPaste(t, b.String())
		if len(got) != 1 || len(got[0].GPUs) != len(want[0].GPUs) {
			t.Fatalf("%q before every line: %+v, want the GPUs of %+v", mark, got, want)
		}
	}
}

// A forum or a mail turns the fabric manager's "doesn't match" into
// "doesn’t match"; its reader wants the tool's apostrophe.
func TestCopiedCurlyQuotes(t *testing.T) {
	in := "Dec 01 10:00:00 dgx nv-fabricmanager[123]: fabric manager NVIDIA GPU driver interface version 460.32.03 doesn\u2019t match with NVLink Switch driver version 460.27.04\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || snaps[0].Node.FabricError == "" {
		t.Fatalf("%q: %+v, %v; want the fabric manager's failure", in, snaps, err)
	}
}

// FuzzUncopied: the streaming reader of non-breaking spaces reads what
// the whole-text one does, at any buffer size (a 0xC2 at a read's end).
func FuzzUncopied(f *testing.F) {
	f.Add([]byte(strings.ReplaceAll(dmonA100, " ", nbsp)), uint8(0))
	f.Add([]byte(bom+"a\u00a0\u00a0b\xc2"), uint8(3))
	f.Add([]byte("\xc2\xc2\xa0\xa0"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		br := bufio.NewReaderSize(strings.NewReader(string(data)), 16+int(size))
		got, err := io.ReadAll(&spaceReader{r: br})
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(string(data), nbsp, " "); string(got) != want {
			t.Fatalf("spaceReader read %q, want %q", got, want)
		}
	})
}

package importer

import "testing"

// A paste that opens with the command that printed --format=csv,noheader
// rows is read with the fields that command names, whichever option comes
// first and with or without a prompt: the command line is not the CSV
// header, though its cells are field names.
func TestNoheaderRowsUnderTheirCommandFirst(t *testing.T) {
	for _, in := range []string{
		"$ nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used,memory.total --format=csv,noheader\n" +
			"3, Tesla V100-SXM2-32GB, 41 %, 1024 MiB, 32510 MiB\n",
		"[user@node ~]# nvidia-smi --format=noheader,nounits,csv --query-gpu=memory.total,memory.used,name,utilization.gpu,index --id=3\n" +
			"32510, 1024, Tesla V100-SXM2-32GB, 41, 3\n",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 {
			t.Errorf("%q: snaps %+v, err %v; want one GPU", in, snaps, err)
			continue
		}
		if g := snaps[0].GPUs[0]; g.Index != 3 || g.Name != "Tesla V100-SXM2-32GB" || g.Util.V != 41 || g.MemUsed.V != 1024<<20 {
			t.Errorf("%q: read %+v", in, g)
		}
	}
}

package importer

import "testing"

// PaddlePaddle's out-of-memory line, with and without the memory Paddle
// holds itself and inside its traceback, is read as a refused CUDA
// allocation of the node (cudaoom.go), not refused as a Python
// traceback; wrapped at 80 columns it is joined back.
func TestPaddleOOMRead(t *testing.T) {
	one := "Out of memory error on GPU 1. Cannot allocate 512.000000MB memory on GPU 1, 10.518555GB memory has been allocated and available memory is only 36.187500MB."
	for _, in := range []string{
		"Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n    exe.run(prog)\nMemoryError: \n\n" + one + "\n\nPlease check whether there is any other process using GPU 1.\n",
		"ResourceExhaustedError: \n\nOut of memory error on GPU 0. Cannot allocate 1.500000GB memory on GPU 0, available memory is only 96.000000MB.\n",
		one[:80] + "\n" + one[80:] + "\n",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || len(snaps[0].Node.SliceOOM) != 1 || snaps[0].Node.SliceOOM[0].Layer != "cuda" {
			t.Errorf("%q: snaps %+v, err %v; want one refused CUDA allocation", in, snaps, err)
		}
	}
}

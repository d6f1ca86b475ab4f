package trace

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// plain8 answers as a look at each byte would, the bytes around the
// limits at every place included.
func TestPlain8(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b [8]byte
	for n := range 200000 {
		for k := range b {
			b[k] = byte(r.IntN(256))
			if n%2 == 0 { // mostly plain, one odd byte or none
				b[k] = 'a' + byte(r.IntN(26))
			}
		}
		if n%2 == 0 && n%3 != 0 {
			b[r.IntN(8)] = []byte{'"', '\\', 0, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff, '"' + 1, '\\' - 1}[r.IntN(11)]
		}
		want := true
		for _, c := range b {
			want = want && c >= 0x20 && c != '"' && c != '\\'
		}
		if got := plain8(binary.LittleEndian.Uint64(b[:])); got != want {
			t.Fatalf("plain8(%q) = %v", b, got)
		}
	}
}

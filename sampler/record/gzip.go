package record

import (
	"bufio"
	"fmt"

	// klauspost's gzip decompresses a day's recording (63 MB -> 876 MB) in
	// 1.4 s where compress/gzip takes 1.9-2.1 s (measured side by side,
	// docs/benchmarks.md); the reading goroutine's decompression is the
	// one part of a report that does not run on several cores.
	"github.com/klauspost/compress/gzip"
)

// IsGzip reports whether data starts with the gzip magic bytes (RFC 1952
// §2.3.1: 0x1f 0x8b). Recordings and other tools' logs are both looked
// through when compressed; this is the one test for it.
func IsGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

// Decompressed returns br itself for plain data and a reader of the same
// buffer size over the decompressed stream for gzip; name is used in the
// error of a damaged header.
func Decompressed(br *bufio.Reader, name string) (*bufio.Reader, error) {
	if magic, _ := br.Peek(2); !IsGzip(magic) {
		return br, nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%s: gzip file with a damaged header: %w", name, err)
	}
	return bufio.NewReaderSize(gz, br.Size()), nil
}

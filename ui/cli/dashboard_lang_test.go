package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// TestRecordKeyLanguage: the r key's lines are the Toggle's own in
// English and Chinese in zh, naming the same file.
func TestRecordKeyLanguage(t *testing.T) {
	for _, c := range []struct{ lang, start, stop string }{
		{"en", "recording to ", "recording stopped: 0 snapshots in "},
		{"zh", "正在录制到 ", "录制已停止："},
	} {
		rec := record.NewToggle(t.TempDir(), func() time.Duration { return time.Second })
		key := recordKey(rec, i18n.For(c.lang))
		status, on, err := key()
		if err != nil || !on || !strings.HasPrefix(status, c.start) || !strings.Contains(status, rec.Path()) {
			t.Errorf("%s start: %q, %v, %v", c.lang, status, on, err)
		}
		status, on, err = key()
		if err != nil || on || !strings.HasPrefix(status, c.stop) || !strings.Contains(status, rec.Path()) {
			t.Errorf("%s stop: %q, %v, %v", c.lang, status, on, err)
		}
	}
}

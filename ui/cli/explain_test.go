package cli

import "testing"

// TestChooseLang: the flag wins; else the first locale variable set, in
// gettext's order, with zh_* meaning Chinese.
func TestChooseLang(t *testing.T) {
	env := map[string]string{"LANG": "zh_CN.UTF-8"}
	for _, c := range []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"", env, "zh"}, {"en", env, "en"}, {"", map[string]string{"LANGUAGE": "zh_TW:en", "LANG": "C"}, "zh"},
		{"", map[string]string{"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"}, {"", nil, "en"},
	} {
		got, err := chooseLang(c.flag, func(k string) string { return c.env[k] })
		if err != nil || got != c.want {
			t.Errorf("chooseLang(%q, %v) = %q, %v; want %q", c.flag, c.env, got, err, c.want)
		}
	}
}

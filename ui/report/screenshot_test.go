package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
)

// TestHTMLReportInChromium renders the HTML report the way a person opens
// it, in Debian's headless Chromium, and checks the picture: each chart's
// four lines drew in their colours, and the critical finding on GPU 2 is a
// shaded band under them.
//
// This is the only check of what a reader sees, so a missing Chromium
// never passes quietly where the tools were promised: under `make test`
// it is there (`make deps`, its prerequisite, installs it or stops the
// run), and where CI is set a missing Chromium fails with the reason.
// Anywhere else (`go test ./...` on a laptop) the test skips, saying why.
func TestHTMLReportInChromium(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		const why = "no chromium on PATH to render the HTML report in: `make deps` installs Debian's chromium"
		if os.Getenv("CI") != "" {
			t.Fatal(why + " (CI is set: the check must run)")
		}
		t.Skip(why)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, render(t, HTML, goldenReport(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "report.png")
	const w, h = 1280, 4200
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot, "--window-size=1280,4200", "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s could not render the report: %v\n%s", bin, err, out)
	}
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if sz := img.Bounds().Size(); sz.X != w || sz.Y != h {
		t.Fatalf("screenshot is %v, want %dx%d", sz, w, h)
	}
	for m, c := range chartColors {
		if n := countNear(img, c, 50); n < 400 {
			t.Errorf("%s: %d pixels of its colour %v; the charts did not draw it", chartNames[m], n, c)
		}
	}
	// A band is the severity's colour at its alpha over the white page.
	if n := countNear(img, overWhite(bandColors[diagnose.Critical]), 6); n < 2000 {
		t.Errorf("%d pixels of the critical band's tint: GPU 2's open finding is not shaded on its chart", n)
	}
}

// overWhite is c drawn at its alpha over a white page.
func overWhite(c color.NRGBA) color.RGBA {
	a := float64(c.A) / 255
	mix := func(v uint8) uint8 { return uint8(float64(v)*a + 255*(1-a) + 0.5) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// countNear counts the pixels within d of c in every channel.
func countNear(img image.Image, c color.RGBA, d int) int {
	n := 0
	near := func(a uint32, b uint8) bool { v := int(a>>8) - int(b); return v <= d && v >= -d }
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, c.R) && near(pg, c.G) && near(pb, c.B) {
				n++
			}
		}
	}
	return n
}

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// DoctorCheck is one of sampler/doctor's checks as the command shows it
// (main converts them: ui never links the package, which loads NVML). The
// JSON is doctor's: English, for scripts.
type DoctorCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail or na (does not apply here)
	Seen   string `json:"seen"`
	Fix    string `json:"fix,omitempty"`
	// ID names the check ("doctor.check.<id>"); SeenMsg and FixMsg are
	// Seen and Fix as messages ("doctor.<id>").
	ID              string    `json:"-"`
	SeenMsg, FixMsg DoctorMsg `json:"-"`
}

// DoctorMsg is doctor.Msg: a message id, its arguments (paths, numbers,
// variables) and the arguments that are words ("doctor.word.<id>").
type DoctorMsg struct {
	ID    string
	Args  map[string]string
	Words map[string]string
}

func newDoctorCmd(d Deps, stdout io.Writer) *cobra.Command {
	var asJSON bool
	var lang string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check why a GPU may be invisible or slow to reach (driver, devices, container, WSL, env, fabric)",
		Long: `doctor checks, in the order a person would look: the NVML library and driver,
the /dev/nvidia* device nodes, whether this is a container and whether GPUs were
passed in, WSL2's /dev/dxg, CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES (what
they hide or renumber), persistence mode, MIG mode and, on NVSwitch systems, the
fabric (nvidia-fabricmanager). A failed NVML start is told apart by what NVML
answered (no library, module not loaded, version mismatch after an upgrade, no
permission, a stuck driver), each with its own fix. Each check is ok, warn, fail
or n/a (does not apply here), with what was seen and the fix. Exit status 1 when
any check fails.
--json prints the checks in English whatever the language.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			tr, err := commandWords(cmd, lang, d.Getenv)
			if err != nil {
				return err
			}
			checks := d.Doctor()
			failed := false
			for _, c := range checks {
				failed = failed || c.Status == "fail"
			}
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				err = enc.Encode(map[string]any{"checks": checks, "failed": failed})
			} else {
				var b strings.Builder // environment variables and paths: escaped
				writeDoctor(&b, checks, failed, tr)
				_, err = fmt.Fprint(stdout, safe.Text(b.String()))
			}
			if err != nil {
				return err
			}
			if failed {
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	langFlag(cmd.Flags(), &lang, "the checks'")
	return cmd
}

// writeDoctor prints the checks for a person in tr's language, the fix
// under each problem; columns are padded by display width (a Chinese
// character is two cells).
func writeDoctor(w io.Writer, cs []DoctorCheck, failed bool, tr *i18n.Tr) {
	fmt.Fprintln(w, tr.T("doctor.title"))
	for _, c := range cs {
		name, seen, fix := c.Name, c.Seen, c.Fix
		if tr.Lang() != "en" {
			name = doctorWord(tr, "doctor.check."+c.ID, c.Name)
			seen = doctorMsg(tr, c.SeenMsg, c.Seen)
			fix = doctorMsg(tr, c.FixMsg, c.Fix)
		}
		status := doctorWord(tr, "doctor.status."+c.Status, strings.ToUpper(c.Status))
		fmt.Fprintf(w, "  %s  %s %s\n", i18n.Pad(status, 4), i18n.Pad(name, 22), seen)
		if fix != "" {
			fmt.Fprintf(w, "        %s %s\n", i18n.Pad("", 22), tr.T("doctor.fix", map[string]any{"Fix": fix}))
		}
	}
	if failed {
		fmt.Fprintln(w, tr.T("doctor.result_failed"))
	} else {
		fmt.Fprintln(w, tr.T("doctor.result_ok"))
	}
}

// doctorWord is message id, or fallback where the catalogue lacks it.
func doctorWord(tr *i18n.Tr, id, fallback string) string {
	if s := tr.T(id); s != id {
		return s
	}
	return fallback
}

// doctorMsg is m in tr's language, or en (the check's English) where m is
// empty or a message or word is missing, so a line is never half translated.
func doctorMsg(tr *i18n.Tr, m DoctorMsg, en string) string {
	if m.ID == "" {
		return en
	}
	data := make(map[string]any, len(m.Args)+len(m.Words))
	for k, v := range m.Args {
		data[k] = v
	}
	for k, w := range m.Words {
		id := "doctor.word." + w
		s := tr.T(id)
		if s == id {
			return en
		}
		data[k] = s
	}
	id := "doctor." + m.ID
	if s := tr.T(id, data); s != id {
		return s
	}
	return en
}

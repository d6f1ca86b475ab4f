package cli

import (
	"net/url"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/ui/alert"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/spf13/pflag"
)

// alertFlags are --alert-*, on the commands that watch a node live
// (the dashboard and serve).
type alertFlags struct {
	webhook, format, min string
}

func addAlertFlags(fl *pflag.FlagSet, a *alertFlags) {
	fl.StringVar(&a.webhook, "alert-webhook", "", "POST each finding that opens, worsens or closes to this URL (Slack-compatible JSON)")
	fl.StringVar(&a.format, "alert-format", "slack", `webhook body: "slack" ({"text": ...}) or "json" (the event's fields and text)`)
	fl.StringVar(&a.min, "alert-min", "warning", "least severity sent: info, warning or critical")
}

// alertClose is how long quitting waits for queued alerts to go out.
const alertClose = 5 * time.Second

// notifier starts the webhook's sender; nil sinks without --alert-webhook.
// Close it with alertClose when the loop has stopped.
func (a alertFlags) notifier(tr *i18n.Tr) (*alert.Notifier, []pipeline.Sink, error) {
	if a.webhook == "" {
		return nil, nil, nil
	}
	u, err := url.Parse(a.webhook)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, usagef("alert_webhook", "--alert-webhook %q: want an http:// or https:// URL", a.webhook)
	}
	min, err := diagnose.ParseSeverity(a.min)
	if err != nil {
		return nil, nil, usagef("alert_min", "--alert-min %q: use info, warning or critical", a.min)
	}
	n, err := alert.New(alert.Options{URL: a.webhook, Format: a.format, Min: min, Tr: tr})
	if err != nil {
		return nil, nil, usageError{err}
	}
	return n, []pipeline.Sink{n.Sink()}, nil
}

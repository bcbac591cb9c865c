package server

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/mail/smtptest"
)

// startMailQueue gives a's services a mail queue that delivers to srv, an
// SMTP server in the test process; the queue runs until the test ends.
func startMailQueue(t *testing.T, a *authApp, srv *smtptest.Server) *mail.Queue {
	t.Helper()
	sender, err := mail.NewSMTP(config.Mail{Host: srv.Host, Port: srv.Port, Security: "none", From: "noreply@devhub.test"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := mail.NewQueue(a.services.Store, sender, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	q.Start(ctx)
	a.services.Mail = q
	return q
}

// remount builds a's app again over its services as they are now (the
// routes a service brings are chosen when the app is built), on the
// default configuration with the accounts' test secret, changed by mutate.
// The app is shut down when the test ends, which waits for the mails its
// requests are queueing.
func (a *authApp) remount(t *testing.T, mutate func(*config.Config)) {
	t.Helper()
	cfg := config.Default()
	cfg.Auth.JWTSecret = authTestSecret
	mutate(&cfg)
	ta := newTestApp(t, func(o *Options) {
		o.Config = cfg
		o.Services = a.services
	})
	t.Cleanup(func() { ta.app.Shutdown() })
	a.testApp = ta
}

package mail_test

import (
	"context"
	"io"
	"log/slog"
	"mime"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
	devmail "github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/mail/smtptest"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func smtpConfig(srv *smtptest.Server) config.Mail {
	return config.Mail{Host: srv.Host, Port: srv.Port, Security: "none", From: "devhub <noreply@devhub.test>"}
}

// parts returns the text and HTML parts of a received message.
func parts(t *testing.T, r smtptest.Received) (text, html string) {
	t.Helper()
	text, html, err := r.Parts()
	if err != nil {
		t.Fatal(err)
	}
	return text, html
}

func TestSMTPSendsTextAndHTMLInTheRecipientsLanguage(t *testing.T) {
	srv := smtptest.Start(t)
	sender, err := devmail.NewSMTP(smtpConfig(srv))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang, wantSubject, wantText string
	}{
		{"uk", "Скидання пароля на devhub.test", "Посилання діє одну годину"},
		{"ru", "Сброс пароля на devhub.test", "Ссылка действует один час"},
		{"en", "Reset your password on devhub.test", "The link works once, for one hour"},
		{"de-AT", "Скидання пароля на devhub.test", "Посилання діє одну годину"},
	}
	for i, tc := range tests {
		t.Run(tc.lang, func(t *testing.T) {
			link := "https://devhub.test/reset-password?token=abc&x=<1>"
			msg := devmail.Letter(devmail.KindPasswordReset, tc.lang, "ann@example.org", devmail.Data{Site: "devhub.test", Link: link})
			if err := sender.Send(context.Background(), msg); err != nil {
				t.Fatal(err)
			}
			got := srv.Wait(t, i+1, 10*time.Second)[i]
			if len(got.To) != 1 || got.To[0] != "ann@example.org" || got.From != "noreply@devhub.test" {
				t.Fatalf("envelope from %q to %v", got.From, got.To)
			}
			h := got.Header()
			subject, _ := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
			if subject != tc.wantSubject {
				t.Fatalf("subject %q, want %q", subject, tc.wantSubject)
			}
			text, html := parts(t, got)
			if !strings.Contains(text, tc.wantText) || !strings.Contains(text, link) {
				t.Fatalf("text part:\n%s", text)
			}
			if !strings.Contains(html, tc.wantText) || !strings.Contains(html, "token=abc&amp;x=%3c1%3e") || strings.Contains(html, "<1>") {
				t.Fatalf("html part (link must be escaped):\n%s", html)
			}
		})
	}
}

func TestQueueSurvivesAnOutageAndRetries(t *testing.T) {
	srv := smtptest.Start(t)
	sender, _ := devmail.NewSMTP(smtpConfig(srv))
	st := storetest.Open(t)
	q, err := devmail.NewQueue(st, sender, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	// The first retry comes within a minute in production (Backoff(1)); the
	// test waits 100 ms.
	if d := devmail.Backoff(1); d > time.Minute || d <= 0 {
		t.Fatalf("first retry after %s, want within a minute", d)
	}
	if devmail.Backoff(20) != time.Hour || devmail.Backoff(2) <= devmail.Backoff(1) {
		t.Fatal("backoff must grow up to an hour")
	}
	q.SetBackoff(func(int) time.Duration { return 100 * time.Millisecond })
	srv.SetDown(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.Start(ctx)
	if err := q.Enqueue(ctx, devmail.Letter(devmail.KindTest, "en", "bob@example.org", devmail.Data{Site: "devhub.test"})); err != nil {
		t.Fatal(err)
	}
	srv.WaitAttempts(t, 2, 10*time.Second) // refused, then retried
	if st := q.State(); st.Pending != 1 || st.LastError == "" {
		t.Fatalf("during the outage: %+v", st)
	}
	if len(srv.Messages()) != 0 {
		t.Fatal("a message went through during the outage")
	}
	srv.SetDown(false)
	got := srv.Wait(t, 1, 10*time.Second)
	if got[0].To[0] != "bob@example.org" {
		t.Fatalf("to %v", got[0].To)
	}
	deadline := time.Now().Add(5 * time.Second)
	for q.State().Pending != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the delivered message stays queued")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if q.Health() != nil {
		t.Fatalf("health %v", q.Health())
	}
	if len(srv.Messages()) != 1 {
		t.Fatalf("delivered %d times", len(srv.Messages()))
	}
}

func TestQueueKeepsMessagesAcrossARestart(t *testing.T) {
	srv := smtptest.Start(t)
	sender, _ := devmail.NewSMTP(smtpConfig(srv))
	st := storetest.Open(t)
	// Queued while nothing delivers (a server that stopped before the worker ran).
	q1, _ := devmail.NewQueue(st, sender, nil)
	if err := q1.Enqueue(context.Background(), devmail.Letter(devmail.KindTest, "uk", "eve@example.org", devmail.Data{})); err != nil {
		t.Fatal(err)
	}
	q2, _ := devmail.NewQueue(st, sender, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q2.Start(ctx)
	got := srv.Wait(t, 1, 10*time.Second)
	if got[0].To[0] != "eve@example.org" {
		t.Fatalf("to %v", got[0].To)
	}
}

func TestEnqueueRefusesBadMessages(t *testing.T) {
	q, _ := devmail.NewQueue(storetest.Open(t), nil, nil)
	tests := []struct {
		name string
		m    devmail.Message
	}{
		{"no address", devmail.Message{Subject: "s", Text: "t"}},
		{"bad address", devmail.Message{To: "not an address", Subject: "s", Text: "t"}},
		{"no subject", devmail.Message{To: "a@b.c", Text: "t"}},
		{"no text", devmail.Message{To: "a@b.c", Subject: "s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := q.Enqueue(context.Background(), tc.m); err == nil {
				t.Fatal("queued")
			}
			if q.State().Pending != 0 {
				t.Fatal("something was queued")
			}
		})
	}
}

func TestNoQueueIsHealthy(t *testing.T) {
	var none *devmail.Queue
	if none.Health() != nil {
		t.Fatal("mail off is healthy")
	}
}

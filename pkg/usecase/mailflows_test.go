package usecase

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/mail/smtptest"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// mailHub is a hub with mail on, delivering to an SMTP server in the test
// process, and the notifications service.
func mailHub(t *testing.T) (*Hub, *smtptest.Server) {
	t.Helper()
	st := storetest.Open(t)
	cfg := config.Default().Auth
	cfg.VerifyEmail = auth.VerifyOptional
	a, err := auth.New(st, cfg, auth.WithHashParams(auth.HashParams{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}))
	if err != nil {
		t.Fatal(err)
	}
	n, err := notify.New(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := smtptest.Start(t)
	sender, err := mail.NewSMTP(config.Mail{Host: srv.Host, Port: srv.Port, Security: "none", From: "noreply@devhub.test"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := mail.NewQueue(st, sender, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	q.Start(ctx)
	return &Hub{Auth: a, Notify: n, Mail: q, PublicURL: "https://devhub.test"}, srv
}

func mkUser(t *testing.T, h *Hub, email, role string) *auth.User {
	t.Helper()
	u, err := h.Auth.CreateUser(context.Background(), auth.NewUser{Email: email, Name: strings.Split(email, "@")[0], Password: "a long password 1", Role: role})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// The digest mails each verified account that turned it on its unread
// notifications once: not again at the next run, not to an account that
// left it off (the default), not to an unverified address.
func TestMailDigests(t *testing.T) {
	ctx := context.Background()
	h, srv := mailHub(t)
	ann := mkUser(t, h, "ann@example.org", auth.RoleUser)
	off := mkUser(t, h, "off@example.org", auth.RoleUser)
	res, err := h.Auth.Register(ctx, auth.RegisterInput{Name: "Unv", Email: "unverified@example.org", Password: "a long password 1",
		ConfirmPassword: "a long password 1"}, auth.Client{})
	if err != nil || res.User.EmailVerified {
		t.Fatalf("register: %+v %v", res, err)
	}
	for _, id := range []uint64{ann.ID, res.User.ID} {
		if _, err := h.Notify.SetSettings(id, notify.Settings{notify.SettingEmailDigest: true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []uint64{ann.ID, off.ID, res.User.ID} {
		for _, kind := range []string{notify.KindFriendRequest, notify.KindDM} {
			if err := h.Notify.Add(ctx, id, kind, map[string]any{"by": Person{Name: "Bob"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, want := range []int{1, 0} {
		if got := h.MailDigests(ctx); got != want {
			t.Fatalf("run %d: %d letters, want %d", i+1, got, want)
		}
	}
	got := srv.Wait(t, 1, 10*time.Second)
	text, _, err := got[0].Parts()
	if err != nil {
		t.Fatal(err)
	}
	if got[0].To[0] != "ann@example.org" || !strings.Contains(text, "Bob хоче додати вас у друзі") ||
		!strings.Contains(text, "https://devhub.test/profile?section=notifications") {
		t.Fatalf("digest to %v:\n%s", got[0].To, text)
	}
	// A new notification is mailed at the next run, alone.
	if err := h.Notify.Add(ctx, ann.ID, notify.KindMention, map[string]any{"by": Person{Name: "Cy"}}); err != nil {
		t.Fatal(err)
	}
	if n := h.MailDigests(ctx); n != 1 {
		t.Fatalf("%d letters for the new notification", n)
	}
	text, _, _ = srv.Wait(t, 2, 10*time.Second)[1].Parts()
	if !strings.Contains(text, "Cy згадав") || strings.Contains(text, "Bob") {
		t.Fatalf("second digest:\n%s", text)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(srv.Messages()); n != 2 {
		t.Fatalf("%d mails, want 2", n)
	}
}

// A contact form message reaches every admin by mail, with the sender as
// the reply address; nobody else gets it.
func TestMailContact(t *testing.T) {
	h, srv := mailHub(t)
	mkUser(t, h, "boss@example.org", auth.RoleAdmin)
	mkUser(t, h, "user@example.org", auth.RoleUser)
	mkUser(t, h, "second@example.org", auth.RoleAdmin)
	err := h.MailContact(context.Background(), social.Message{ID: 1, Text: "Hello <there>",
		Sender: &social.Sender{Name: "Eve\r\nBcc: x@example.org", Email: "eve@example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 2, 10*time.Second)
	to := map[string]bool{}
	for _, m := range got {
		to[m.To[0]] = true
		if rt := m.Header().Get("Reply-To"); !strings.Contains(rt, "eve@example.org") {
			t.Errorf("Reply-To %q", rt)
		}
		if strings.Contains(string(m.Raw), "\nBcc:") {
			t.Errorf("the sender's name added a header:\n%s", m.Raw)
		}
		text, _, _ := m.Parts()
		if !strings.Contains(text, "Hello <there>") {
			t.Errorf("text:\n%s", text)
		}
	}
	if !to["boss@example.org"] || !to["second@example.org"] || to["user@example.org"] {
		t.Fatalf("mailed to %v", to)
	}
}

// The digest setting is offered only where mail is configured: without
// mail there is no digest to turn on or off.
func TestDigestSettingOnlyWithMail(t *testing.T) {
	for _, withMail := range []bool{true, false} {
		h, _ := mailHub(t)
		if !withMail {
			h.Mail = nil
		}
		u := mkUser(t, h, "ann@example.org", auth.RoleUser)
		set, err := h.NotificationSettings(actorOf(u))
		if _, has := set[notify.SettingEmailDigest]; err != nil || has != withMail {
			t.Fatalf("mail %v: settings %v (%v)", withMail, set, err)
		}
		set, err = h.SetNotificationSettings(actorOf(u), notify.Settings{notify.SettingEmailDigest: false})
		if on, has := set[notify.SettingEmailDigest]; err != nil || has != withMail || on {
			t.Fatalf("mail %v: after turning it off %v (%v)", withMail, set, err)
		}
	}
}

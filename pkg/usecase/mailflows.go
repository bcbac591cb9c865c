package usecase

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/mail"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	devmail "github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store"
)

// The e-mail flows of accounts and notifications: verifying a new
// account's address, confirming a change of e-mail at the new address,
// mailing contact form messages to the admins and a digest of unread
// notifications to their accounts. All of them need mail and
// server.public_url (EmailLinksAvailable); without them nothing is mailed
// and changes of e-mail are made at once.

// Audit events of the e-mail flows.
const (
	EmailVerified           = "account.email_verified"
	EmailVerificationResent = "account.email_verification_sent"
	EmailChangeRequested    = "account.email_change_requested"
	notificationsPage       = "/profile?section=notifications"
)

// DigestEvery is how often unread notifications are mailed as a digest.
const DigestEvery = time.Hour

// EmailLinksAvailable is whether links can be mailed: mail is configured
// and server.public_url names the site.
func (h *Hub) EmailLinksAvailable() bool { return h.Mail != nil && h.PublicURL != "" }

// lang is the language of the letters to account id: the one the request
// named, else the account's own, else the site's.
func (h *Hub) lang(asked string, id uint64) string {
	if asked != "" {
		return devmail.Lang(asked)
	}
	return devmail.Lang(h.Auth.Lang(id))
}

func (h *Hub) link(path string) string { return strings.TrimRight(h.PublicURL, "/") + path }

// Register creates an account from the registration form (see
// auth.Service.Register) and, when its address must be verified, mails the
// verification link in the actor's language.
func (h *Hub) Register(ctx context.Context, actor Actor, in auth.RegisterInput, c auth.Client) (*auth.AuthResult, error) {
	if actor.Lang != "" {
		in.Lang = devmail.Lang(actor.Lang)
	}
	res, err := h.Auth.Register(ctx, in, c)
	if err != nil {
		return nil, err
	}
	if !res.User.EmailVerified && h.EmailLinksAvailable() {
		l, err := h.Auth.VerificationLink(context.WithoutCancel(ctx), res.User.ID)
		if err == nil && l != nil {
			err = h.mailVerification(ctx, l, in.Lang)
		}
		if err != nil {
			h.log().Error("verification mail", slog.String("to", res.User.Email), slog.Any("err", err))
		}
	}
	return res, nil
}

func (h *Hub) mailVerification(ctx context.Context, l *auth.EmailLink, lang string) error {
	link := h.link("/verify-email?token=" + url.QueryEscape(l.Token))
	lang = h.lang(lang, l.User.ID)
	msg := devmail.Letter(devmail.KindVerifyEmail, lang, l.To, devmail.Data{Site: h.siteName(lang), Link: link})
	return h.Mail.Enqueue(context.WithoutCancel(ctx), msg)
}

// VerifyEmailPolicy is auth.verify_email as it takes effect here.
func (h *Hub) VerifyEmailPolicy() string { return h.Auth.VerifyEmail() }

// ResendVerification mails a new verification link to the account of
// email, if there is one and its address is not verified. The answer is
// the same whether or not there is: the account is looked up and the mail
// queued after the answer. Requests are throttled per client network
// (refused) and per account (answered the same, nothing mailed).
func (h *Hub) ResendVerification(ctx context.Context, actor Actor, email string) error {
	if h.Auth.VerifyEmail() == auth.VerifyOff || !h.EmailLinksAvailable() {
		return store.Refuse(store.KindNotFound, "e-mail verification is not on at this site")
	}
	email, err := accountEmail(email)
	if err != nil {
		return err
	}
	ip, _ := netip.ParseAddr(actor.IP)
	if err := h.Auth.AllowVerifyRequest(auth.Client{IP: ip}); err != nil {
		return err
	}
	h.afterAnswer(ctx, "verification mail", func(ctx context.Context) {
		l, err := h.Auth.ResendVerification(ctx, email)
		if err == nil && l != nil {
			err = h.mailVerification(ctx, l, actor.Lang)
			if err == nil {
				h.record(ctx, actor, audit.Event{Type: EmailVerificationResent, Target: l.To})
			}
		}
		if err != nil {
			h.log().Error("verification mail", slog.Any("err", err))
		}
	})
	return nil
}

// MailEmailChangeLink is Hub.ConfirmNewEmail where mail is on: it mails
// the link that confirms the change to the new address next.
func (h *Hub) MailEmailChangeLink(ctx context.Context, u *auth.User, next, lang string) error {
	if lang != "" {
		lang = devmail.Lang(lang)
	}
	l, err := h.Auth.EmailChangeLink(ctx, u.ID, next, lang)
	if err != nil {
		return err
	}
	link := h.link("/verify-email?token=" + url.QueryEscape(l.Token))
	lang = h.lang(lang, u.ID)
	msg := devmail.Letter(devmail.KindEmailChange, lang, l.To, devmail.Data{Site: h.siteName(lang), Link: link, Email: l.To})
	if err := h.Mail.Enqueue(context.WithoutCancel(ctx), msg); err != nil {
		return err
	}
	h.record(ctx, Actor{UserID: u.ID, Email: u.Email}, audit.Event{Type: EmailChangeRequested, Target: u.Email,
		Details: map[string]string{"to": l.To}})
	return nil
}

// EmailConfirmation is what opening a mailed link did: its purpose
// (auth.PurposeVerify or auth.PurposeEmailChange) and the account's
// address now.
type EmailConfirmation struct {
	Purpose string `json:"purpose"`
	Email   string `json:"email"`
}

// ConfirmEmail spends the token of a verification or e-mail change link
// (anyone holding it may: the link is the proof). A change of e-mail is
// then made, and the old address is told of it.
func (h *Hub) ConfirmEmail(ctx context.Context, actor Actor, token string) (*EmailConfirmation, error) {
	res, err := h.Auth.ConfirmEmail(ctx, token)
	if err != nil {
		return nil, err
	}
	who := Actor{UserID: res.User.ID, Email: res.User.Email, IP: actor.IP}
	switch res.Purpose {
	case auth.PurposeEmailChange:
		h.log().Info("e-mail changed", slog.Uint64("user", res.User.ID), slog.String("from", res.OldEmail), slog.String("to", res.User.Email))
		h.record(ctx, who, audit.Event{Type: audit.EmailChanged, Target: res.User.Email,
			Details: map[string]string{"from": res.OldEmail, "to": res.User.Email}})
		if h.Mail != nil {
			lang := h.lang(res.Lang, res.User.ID)
			msg := devmail.Letter(devmail.KindEmailChanged, lang, res.OldEmail,
				devmail.Data{Site: h.siteName(lang), Email: res.User.Email})
			if err := h.Mail.Enqueue(context.WithoutCancel(ctx), msg); err != nil {
				h.log().Error("e-mail change notice", slog.Any("err", err))
			}
		}
	default:
		h.record(ctx, who, audit.Event{Type: EmailVerified, Target: res.User.Email})
	}
	return &EmailConfirmation{Purpose: res.Purpose, Email: res.User.Email}, nil
}

// MailContact is Hub.ContactMail where mail is on: the contact form
// message m goes to every admin, with the sender's address (when valid)
// as the reply address.
func (h *Hub) MailContact(ctx context.Context, m social.Message) error {
	if h.Mail == nil || m.Sender == nil {
		return nil
	}
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	from := oneLine(m.Sender.Name)
	var replyTo string
	if a, err := mail.ParseAddress(strings.TrimSpace(m.Sender.Email)); err == nil && !strings.ContainsAny(a.Address, "\r\n") {
		replyTo = a.Address
		from = strings.TrimSpace(from + " <" + a.Address + ">")
	}
	d := devmail.Data{From: from, Detail: m.Text}
	if h.PublicURL != "" {
		d.Link = h.link(conversationURL(social.ContactPeer))
	}
	users, err := h.Auth.Users()
	if err != nil {
		return err
	}
	for _, u := range users {
		if !u.IsAdmin() {
			continue
		}
		lang := h.lang("", u.ID)
		d.Site = h.siteName(lang)
		msg := devmail.Letter(devmail.KindContact, lang, u.Email, d)
		if replyTo != "" {
			msg.Headers = map[string]string{"Reply-To": replyTo}
		}
		if err := h.Mail.Enqueue(ctx, msg); err != nil {
			return err
		}
	}
	return nil
}

// MailDigests mails each account with a verified address its unread
// notifications that no digest carried yet (unless it turned the digest
// off): one letter per account, each notification at most once. It
// returns how many letters were queued.
func (h *Hub) MailDigests(ctx context.Context) int {
	if h.Mail == nil || h.Notify == nil {
		return 0
	}
	users, err := h.Auth.Users()
	if err != nil {
		h.log().Error("notification digest", slog.Any("err", err))
		return 0
	}
	sent := 0
	for _, u := range users {
		if ctx.Err() != nil {
			break
		}
		if !u.EmailVerified {
			continue
		}
		ns, err := h.Notify.TakeUndigested(u.ID)
		if err != nil {
			h.log().Error("notification digest", slog.Uint64("user", u.ID), slog.Any("err", err))
			continue
		}
		if len(ns) == 0 {
			continue
		}
		lang := h.lang("", u.ID)
		items := make([]string, 0, len(ns))
		for _, n := range ns {
			var data struct {
				By struct {
					Name string `json:"name"`
				} `json:"by"`
			}
			_ = json.Unmarshal(n.Data, &data)
			items = append(items, devmail.DigestItem(lang, n.Kind, data.By.Name))
		}
		d := devmail.Data{Site: h.siteName(lang), Count: len(ns), Items: items}
		if h.PublicURL != "" {
			d.Link = h.link(notificationsPage)
		}
		if err := h.Mail.Enqueue(ctx, devmail.Letter(devmail.KindDigest, lang, u.Email, d)); err != nil {
			h.log().Error("notification digest", slog.String("to", u.Email), slog.Any("err", err))
			continue
		}
		sent++
	}
	return sent
}

// StartDigests mails the digests every DigestEvery until ctx ends.
func (h *Hub) StartDigests(ctx context.Context, every time.Duration) {
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if n := h.MailDigests(ctx); n > 0 {
					h.log().Info("notification digests queued", slog.Int("letters", n))
				}
			}
		}
	}()
}

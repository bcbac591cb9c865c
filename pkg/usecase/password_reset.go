package usecase

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"net/netip"
	"net/url"
	"strings"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	devmail "github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/store"
)

// Audit events of password reset by e-mail.
const (
	PasswordResetRequested = "password.reset_requested"
	PasswordReset          = "password.reset"
)

// PasswordResetAvailable is whether "forgot password" works here: mail is
// configured and server.public_url names the site (a reset link is never
// built from a request's Host header, which its sender chooses).
func (h *Hub) PasswordResetAvailable() bool { return h.Mail != nil && h.PublicURL != "" }

// ForgotPassword mails a reset link to the account of email, if there is
// one. The answer is the same whether or not there is: the account is
// looked up and the mail queued after the answer, so its time tells
// nothing either. Requests are throttled per client network (refused) and
// per account (answered the same, nothing mailed).
func (h *Hub) ForgotPassword(ctx context.Context, actor Actor, email, lang string) error {
	if !h.PasswordResetAvailable() {
		return store.Refuse(store.KindNotFound, "password reset by e-mail is not available on this site")
	}
	email, err := accountEmail(email)
	if err != nil {
		return err
	}
	ip, _ := netip.ParseAddr(actor.IP)
	if err := h.Auth.AllowResetRequest(auth.Client{IP: ip}); err != nil {
		return err
	}
	h.afterAnswer(ctx, "password reset mail", func(ctx context.Context) {
		h.mailResetLink(ctx, actor, email, lang)
	})
	return nil
}

func (h *Hub) mailResetLink(ctx context.Context, actor Actor, email, lang string) {
	req, err := h.Auth.CreatePasswordReset(ctx, email)
	if err != nil {
		h.log().Error("password reset", slog.Any("err", err))
		return
	}
	if req == nil {
		return
	}
	link := strings.TrimRight(h.PublicURL, "/") + "/reset-password?token=" + url.QueryEscape(req.Token)
	msg := devmail.Letter(devmail.KindPasswordReset, lang, req.User.Email, devmail.Data{Site: h.siteName(lang), Link: link})
	if err := h.Mail.Enqueue(ctx, msg); err != nil {
		h.log().Error("password reset mail", slog.Any("err", err))
		return
	}
	h.record(ctx, actor, audit.Event{Type: PasswordResetRequested, Target: req.User.Email})
}

// ResetPassword sets a new password with the token of a reset link; every
// session of the account ends and the token is spent.
func (h *Hub) ResetPassword(ctx context.Context, actor Actor, token, newPassword string) error {
	ip, _ := netip.ParseAddr(actor.IP)
	u, err := h.Auth.ResetPassword(ctx, token, newPassword, auth.Client{IP: ip})
	if err != nil {
		return err
	}
	h.log().Info("password reset by e-mail link", slog.String("user", u.Email))
	h.record(ctx, actor, audit.Event{Type: PasswordReset, Target: u.Email})
	return nil
}

// siteName is how letters in lang name the site: the name the owner gave it
// (SiteName), else the host of server.public_url.
func (h *Hub) siteName(lang string) string {
	if h.SiteName != nil {
		if name := h.SiteName(devmail.Lang(lang)); name != "" {
			return name
		}
	}
	if u, err := url.Parse(h.PublicURL); err == nil && u.Host != "" {
		return u.Host
	}
	return "devhub"
}

// Wait waits for the work use-cases left running after answering (reset
// mails being queued); serve and tests call it before closing the store.
func (h *Hub) Wait() { h.background.Wait() }

// afterAnswer runs do in the background, on ctx without its cancellation:
// the work a request starts whose answer must neither wait for it nor tell
// by its time whether there was anything to do (Wait waits for it). A panic
// in it is logged under what.
func (h *Hub) afterAnswer(ctx context.Context, what string, do func(ctx context.Context)) {
	h.background.Add(1)
	go func() {
		defer h.background.Done()
		defer func() {
			if p := recover(); p != nil {
				h.log().Error(what, slog.Any("panic", p))
			}
		}()
		do(context.WithoutCancel(ctx))
	}()
}

// accountEmail is the address a form that mails a link to an account
// names: one bare address.
func accountEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	if _, err := mail.ParseAddress(email); err != nil || strings.ContainsAny(email, "<>") {
		return "", store.Invalid("email", "invalid", "enter the e-mail address of your account")
	}
	return email, nil
}

// MailAdmins queues letter kind to every admin account (in the site's
// primary language); a failure is logged.
func (h *Hub) MailAdmins(ctx context.Context, kind devmail.Kind, d devmail.Data) {
	if h.Mail == nil {
		return
	}
	users, err := h.Auth.Users()
	if err != nil {
		h.log().Error("mail to admins", slog.Any("err", err))
		return
	}
	if d.Site == "" {
		d.Site = h.siteName(devmail.DefaultLang)
	}
	for _, u := range users {
		if !u.IsAdmin() {
			continue
		}
		if err := h.Mail.Enqueue(ctx, devmail.Letter(kind, devmail.DefaultLang, u.Email, d)); err != nil {
			h.log().Error("mail to admins", slog.String("to", u.Email), slog.Any("err", fmt.Errorf("%s: %w", kind, err)))
		}
	}
}

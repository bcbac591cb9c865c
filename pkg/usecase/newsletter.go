package usecase

import (
	"context"
	"log/slog"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/blog"
	devmail "github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/store"
)

// Audit events of the newsletter.
const (
	NewsletterConfirmed    = "newsletter.confirmed"
	NewsletterUnsubscribed = "newsletter.unsubscribed"
	NewsletterSent         = "newsletter.sent"
)

// NewsletterTick is how often the dispatcher looks for articles that went
// public without a save (a scheduled article whose time came).
const NewsletterTick = 30 * time.Second

// NewsletterMaxLate is how long after going public an article is still
// mailed: one that went public while mail was off, or longer ago, is old
// news and is not.
const NewsletterMaxLate = 3 * 24 * time.Hour

// NewsletterAvailable is whether the blog's newsletter works here: mail is
// configured and server.public_url names the site (its links are never
// built from a request's Host header).
func (h *Hub) NewsletterAvailable() bool {
	return h.Newsletter != nil && h.Mail != nil && h.PublicURL != ""
}

func (h *Hub) newsletterOff() error {
	return store.Refuse(store.KindNotFound, "the newsletter is not available on this site: mail is not configured")
}

// SubscribeNewsletter mails a confirmation link to email, in lang. The
// answer is the same whether or not the address is on the list: the
// address is looked up and the letter queued after the answer. Requests
// are throttled per client network.
func (h *Hub) SubscribeNewsletter(ctx context.Context, actor Actor, email, lang string) error {
	if !h.NewsletterAvailable() {
		return h.newsletterOff()
	}
	email = newsletter.NormalizeEmail(email)
	if !newsletter.ValidEmail(email) {
		return store.Invalid("email", "invalid", "enter an e-mail address")
	}
	ip, _ := netip.ParseAddr(actor.IP)
	if err := h.Newsletter.Allow(ip); err != nil {
		return err
	}
	lang = newsletter.Lang(lang)
	h.afterAnswer(ctx, "newsletter confirmation", func(ctx context.Context) {
		c, err := h.Newsletter.Subscribe(ctx, email, lang)
		if err != nil || c == nil {
			if err != nil {
				h.log().Error("newsletter subscribe", slog.Any("err", err))
			}
			return
		}
		l := newsletter.ConfirmLetter(c.Lang, newsletter.LetterData{Site: h.siteName(c.Lang),
			Link: h.newsletterLink("confirm", c.Token)})
		if err := h.Mail.Enqueue(ctx, devmail.Message{To: c.Email, Lang: l.Lang, Subject: l.Subject, Text: l.Text, HTML: l.HTML}); err != nil {
			h.log().Error("newsletter confirmation", slog.Any("err", err))
		}
	})
	return nil
}

// newsletterLink is the absolute address of a newsletter link with token.
func (h *Hub) newsletterLink(action, token string) string {
	return strings.TrimRight(h.PublicURL, "/") + "/api/newsletter/" + action + "?token=" + url.QueryEscape(token)
}

// ConfirmNewsletter follows a confirmation link; it returns the subscriber
// (for the page's language).
func (h *Hub) ConfirmNewsletter(ctx context.Context, actor Actor, token string) (*newsletter.Subscriber, error) {
	if h.Newsletter == nil {
		return nil, h.newsletterOff()
	}
	sub, err := h.Newsletter.Confirm(ctx, token)
	if err != nil {
		return nil, err
	}
	h.log().Info("newsletter subscription confirmed", slog.String("lang", sub.Lang))
	h.record(ctx, actor, audit.Event{Type: NewsletterConfirmed, Target: sub.Email})
	return sub, nil
}

// CheckNewsletterLink is the subscriber a confirmation (confirm) or
// unsubscribe link would act on, without acting: the page a GET of the
// link opens only asks.
func (h *Hub) CheckNewsletterLink(ctx context.Context, token string, confirm bool) (*newsletter.Subscriber, error) {
	if h.Newsletter == nil {
		return nil, h.newsletterOff()
	}
	purpose := newsletter.PurposeUnsubscribe
	if confirm {
		purpose = newsletter.PurposeConfirm
	}
	return h.Newsletter.Check(ctx, token, purpose)
}

// UnsubscribeNewsletter follows an unsubscribe link (from a letter, or its
// one-click List-Unsubscribe POST).
func (h *Hub) UnsubscribeNewsletter(ctx context.Context, actor Actor, token string) (*newsletter.Subscriber, error) {
	if h.Newsletter == nil {
		return nil, h.newsletterOff()
	}
	sub, err := h.Newsletter.Unsubscribe(ctx, token)
	if err != nil {
		return nil, err
	}
	h.log().Info("newsletter unsubscribed", slog.String("lang", sub.Lang))
	h.record(ctx, actor, audit.Event{Type: NewsletterUnsubscribed, Target: sub.Email})
	return sub, nil
}

// NewsletterCount counts the subscribers, for an admin or the owner.
func (h *Hub) NewsletterCount(actor Actor) (newsletter.Counts, error) {
	if !actor.Admin {
		return newsletter.Counts{}, store.Refuse(store.KindForbidden, "only an administrator may see the newsletter's subscribers")
	}
	if h.Newsletter == nil {
		return newsletter.Counts{ByLang: map[string]int{}}, nil
	}
	return h.Newsletter.Count()
}

// NewsletterSubscribers lists the subscribers, for an admin or the owner.
func (h *Hub) NewsletterSubscribers(actor Actor) ([]newsletter.Subscriber, error) {
	if !actor.Admin {
		return nil, store.Refuse(store.KindForbidden, "only an administrator may see the newsletter's subscribers")
	}
	if h.Newsletter == nil {
		return nil, nil
	}
	return h.Newsletter.Subscribers()
}

// wakeNewsletter tells the dispatcher an article was saved.
func (h *Hub) wakeNewsletter() {
	if h.Newsletter != nil {
		h.Newsletter.Wake()
	}
}

// DispatchNewsletter mails every article that is public now, went public
// since the newsletter began and at most NewsletterMaxLate ago, and was not
// dealt with yet, to the confirmed subscribers of its language — each
// article once (see newsletter.Service.Dispatch); an article whose
// newsletter switch is off is recorded as skipped, so switching it on later
// sends nothing. It returns how many articles it dealt with. With mail off
// it does nothing.
func (h *Hub) DispatchNewsletter(ctx context.Context) (int, error) {
	if !h.NewsletterAvailable() || h.Blog == nil {
		return 0, nil
	}
	since := h.Newsletter.Since()
	if late := h.Newsletter.Now().Add(-NewsletterMaxLate); late.After(since) {
		since = late
	}
	n := 0
	for _, sum := range h.Blog.All("", "", true) {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if sum.CreatedAt.Before(since) {
			continue
		}
		if sent, err := h.Newsletter.WasSent(sum.ID); err != nil || sent {
			if err != nil {
				return n, err
			}
			continue
		}
		a, err := h.Blog.Get(sum.ID)
		if err != nil || !h.Blog.Public(a) || a.CreatedAt.Before(since) {
			continue
		}
		done, err := h.dispatchArticle(ctx, a)
		if err != nil {
			return n, err
		}
		if done {
			n++
		}
	}
	if err := h.Newsletter.Expire(ctx); err != nil {
		h.log().Warn("newsletter: expiring unconfirmed subscriptions", slog.Any("err", err))
	}
	return n, nil
}

func (h *Hub) dispatchArticle(ctx context.Context, a *blog.Article) (bool, error) {
	link := strings.TrimRight(h.PublicURL, "/") + "/blog/" + strconv.FormatUint(a.ID, 10)
	site := h.siteName(a.Lang)
	recipients := 0
	done, err := h.Newsletter.Dispatch(ctx, a.ID, a.Lang, !a.SendsNewsletter(), func(tx *bolt.Tx, subs []newsletter.Subscriber) error {
		msgs := make([]devmail.Message, 0, len(subs))
		for _, sub := range subs {
			unsub := h.newsletterLink("unsubscribe", sub.UnsubToken)
			l := newsletter.ArticleLetter(sub.Lang, newsletter.LetterData{Site: site, Title: a.Name, Excerpt: a.Excerpt,
				Link: link, Unsubscribe: unsub})
			msgs = append(msgs, devmail.Message{To: sub.Email, Lang: l.Lang, Subject: l.Subject, Text: l.Text, HTML: l.HTML,
				Headers: map[string]string{
					"List-Unsubscribe":      "<" + unsub + ">",
					"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
				}})
		}
		recipients = len(msgs)
		return h.Mail.EnqueueTx(tx, msgs...)
	})
	if err != nil || !done {
		return done, err
	}
	h.Mail.Wake()
	h.log().Info("newsletter: article dealt with", slog.Uint64("article", a.ID), slog.Bool("mailed", a.SendsNewsletter()),
		slog.Int("recipients", recipients))
	if a.SendsNewsletter() {
		h.record(ctx, Owner(), audit.Event{Type: NewsletterSent, Target: articleTarget(a.ID),
			Details: map[string]string{"recipients": strconv.Itoa(recipients), "lang": newsletter.ArticleLang(a.Lang)}})
	}
	return true, nil
}

// StartNewsletter runs the dispatcher until ctx ends: at once (articles
// that went public while the server was down), whenever an article is
// saved, and every NewsletterTick (scheduled articles whose time came).
func (h *Hub) StartNewsletter(ctx context.Context) {
	if !h.NewsletterAvailable() {
		return
	}
	go func() {
		t := time.NewTicker(NewsletterTick)
		defer t.Stop()
		for {
			if _, err := h.DispatchNewsletter(ctx); err != nil && ctx.Err() == nil {
				h.log().Error("newsletter", slog.Any("err", err))
			}
			select {
			case <-ctx.Done():
				return
			case <-h.Newsletter.Woken():
			case <-t.C:
			}
		}
	}()
}

package server

import (
	"html/template"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/store"
)

// mountNewsletter binds the blog's newsletter: whether it is offered (mail
// on and server.public_url set — public, so the blog shows its subscribe
// box only then), subscribing, the confirmation and unsubscribe links of
// the letters (a plain GET from the mail answers a small page in the
// subscriber's language and changes nothing — mail scanners open every
// link of a letter and of its List-Unsubscribe header on their own — with
// a button that POSTs to the same URL, which confirms or unsubscribes; the
// unsubscribe URL also takes the RFC 8058 one-click POST, which mail
// providers send from elsewhere, so no origin check there), and the
// admin's count.
func (s *Server) mountNewsletter(app *fiber.App, api fiber.Router) {
	g := api.Group("/newsletter")
	g.Get("", func(c fiber.Ctx) error {
		return c.JSON(fiber.Map{"available": s.hub.NewsletterAvailable()})
	})
	g.Post("/subscribe", s.sameOrigin, s.subscribeNewsletter)
	g.Get("/confirm", s.newsletterLinkPage(true))
	g.Post("/confirm", s.newsletterLinkPage(true))
	g.Get("/unsubscribe", s.newsletterLinkPage(false))
	g.Post("/unsubscribe", s.unsubscribeOneClick)
	g.Get("/subscribers", s.requireAdmin, func(c fiber.Ctx) error {
		counts, err := s.hub.NewsletterCount(s.actor(c))
		if err != nil {
			return err
		}
		return c.JSON(counts)
	})
	// Confirmation letters still being queued finish before the store closes.
	app.Hooks().OnPostShutdown(func(error) error { s.hub.Wait(); return nil })
}

// subscribeNewsletter answers 202 whatever the address: whether it is on
// the list shows neither in the answer nor in its time.
func (s *Server) subscribeNewsletter(c fiber.Ctx) error {
	var in struct {
		Email string `json:"email"`
		Lang  string `json:"lang"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if err := s.hub.SubscribeNewsletter(c.Context(), s.actor(c), in.Email, in.Lang); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{
		"message": "check your mailbox: a link to confirm the subscription is on its way"})
}

// unsubscribeOneClick is the one-click unsubscribe of the List-Unsubscribe
// header: the token is in the URL, the body (List-Unsubscribe=One-Click)
// says nothing more.
func (s *Server) unsubscribeOneClick(c fiber.Ctx) error {
	if c.FormValue("List-Unsubscribe") != "One-Click" {
		// The button of the link's page: answered with a page.
		return s.newsletterLinkPage(false)(c)
	}
	if _, err := s.hub.UnsubscribeNewsletter(c.Context(), s.actor(c), c.Query("token")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": "unsubscribed"})
}

var newsletterPage = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;line-height:1.5;max-width:36em;margin:3em auto;padding:0 1em;color:#1f2328}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}a{color:#58a6ff}}</style></head>
<body><h1>{{.Title}}</h1><p>{{.Text}}</p>{{if .Button}}<form method="post" action="{{.Action}}"><p><button type="submit">{{.Button}}</button></p></form>{{end}}<p><a href="/blog">{{.Blog}}</a></p></body></html>
`))

// newsletterLinkPage answers a confirmation (confirm) or unsubscribe link:
// a GET only asks (a page with a button that POSTs to the same URL), the
// POST follows the link; either page says what it is about in the
// subscriber's language (for a link that does not work: the ?lang or the
// browser's language).
func (s *Server) newsletterLinkPage(confirm bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		// A HEAD (a link checker's) changes nothing.
		if c.Method() == fiber.MethodHead || c.Locals(headRetryKey) != nil {
			c.Type("html", "utf-8")
			return c.SendStatus(fiber.StatusOK)
		}
		ask := c.Method() == fiber.MethodGet
		token := c.Query("token")
		var sub *newsletter.Subscriber
		var err error
		outcome := newsletter.PageUnsubscribed
		switch {
		case ask:
			sub, err = s.hub.CheckNewsletterLink(c.Context(), token, confirm)
		case confirm:
			outcome = newsletter.PageConfirmed
			sub, err = s.hub.ConfirmNewsletter(c.Context(), s.actor(c), token)
		default:
			sub, err = s.hub.UnsubscribeNewsletter(c.Context(), s.actor(c), token)
		}
		status, lang, who := fiber.StatusOK, pageLang(c), ""
		if err != nil {
			if store.KindOf(err) != store.KindNotFound {
				return err
			}
			status, outcome, ask = fiber.StatusNotFound, newsletter.PageBadLink, false
		} else {
			lang, who = sub.Lang, sub.Email
		}
		title, text, blogLink := newsletter.PageText(outcome, lang, who)
		data := map[string]string{"Lang": newsletter.Lang(lang), "Blog": blogLink}
		if ask {
			title, text, data["Button"] = newsletter.AskText(confirm, lang, who)
			data["Action"] = c.Path() + "?token=" + url.QueryEscape(token)
		}
		data["Title"], data["Text"] = title, text
		var b strings.Builder
		if err := newsletterPage.Execute(&b, data); err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Type("html", "utf-8")
		return c.Status(status).SendString(b.String())
	}
}

// pageLang is the language a page is asked in: ?lang, else the first of
// Accept-Language.
func pageLang(c fiber.Ctx) string {
	if l := c.Query("lang"); l != "" {
		return l
	}
	al := c.Get(fiber.HeaderAcceptLanguage)
	if i := strings.IndexAny(al, ",;"); i >= 0 {
		al = al[:i]
	}
	return al
}

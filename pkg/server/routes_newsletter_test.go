package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/mail/smtptest"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/usecase"
)

// nlApp is the app with accounts, the blog and the newsletter, mail
// delivered to an SMTP server in the test process.
type nlApp struct {
	*authApp
	smtp  *smtptest.Server
	admin string
}

func newNewsletterApp(t *testing.T, mailOn bool) *nlApp {
	t.Helper()
	srv := smtptest.Start(t)
	a := newAuthApp(t, nil)
	b, err := blog.New(a.services.Store)
	if err != nil {
		t.Fatal(err)
	}
	nl, err := newsletter.New(a.services.Store)
	if err != nil {
		t.Fatal(err)
	}
	a.services.Blog, a.services.Newsletter = b, nl
	if mailOn {
		startMailQueue(t, a, srv)
	}
	a.remount(t, func(cfg *config.Config) {
		if mailOn {
			cfg.Server.PublicURL = "https://devhub.test"
		}
	})
	if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "admin@example.org", Name: "A", Password: "admin password 1", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	_, ans := a.login(t, "admin@example.org", "admin password 1")
	return &nlApp{authApp: a, smtp: srv, admin: ans.Tokens.AccessToken}
}

var nlConfirm = regexp.MustCompile(`https://devhub\.test(/api/newsletter/confirm\?token=[A-Za-z0-9_-]+)`)
var nlUnsub = regexp.MustCompile(`<https://devhub\.test(/api/newsletter/unsubscribe\?token=[A-Za-z0-9_-]+)>`)

// confirmPath is the path of the confirmation link in the n-th message.
func (na *nlApp) confirmPath(t *testing.T, n int) string {
	t.Helper()
	text, _, err := na.smtp.Wait(t, n, 10*time.Second)[n-1].Parts()
	if err != nil {
		t.Fatal(err)
	}
	m := nlConfirm.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no confirmation link in\n%s", text)
	}
	return m[1]
}

func TestNewsletterRoutes(t *testing.T) {
	na := newNewsletterApp(t, true)
	same := []string{"a link to confirm the subscription is on its way"}
	var confirm, unsub string
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "offered", URL: "/api/newsletter", ExpectedStatus: 200, ExpectedContent: []string{`"available":true`}},
		{Name: "subscribe", Method: "POST", URL: "/api/newsletter/subscribe", Body: `{"email":"ann@example.org","lang":"en"}`,
			ExpectedStatus: 202, ExpectedContent: same,
			AfterTest: func(t *testing.T, _ *http.Response, _ string) { confirm = na.confirmPath(t, 1) }},
		{Name: "not an address", Method: "POST", URL: "/api/newsletter/subscribe", Body: `{"email":"ann"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"email"`}},
		{Name: "a bad link: a page in the asked language", URL: "/api/newsletter/confirm?token=nope&lang=ru", NoHead: true,
			ExpectedStatus: 404, ExpectedContent: []string{"Ссылка не действует", `lang="ru"`}},
		{Name: "a link checker's HEAD confirms nothing", Method: "HEAD", URL: "/api/newsletter/confirm?token=" + "x", ExpectedStatus: 200},
	})
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "HEAD of the real link", Method: "HEAD", URL: confirm, ExpectedStatus: 200},
		{Name: "confirm from the mail", Method: "POST", URL: confirm, ExpectedStatus: 200,
			Headers:         map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			ExpectedContent: []string{"Subscription confirmed", "ann@example.org", `lang="en"`},
			ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}},
		{Name: "the link is spent", URL: confirm, NoHead: true, Headers: map[string]string{"Accept-Language": "en-GB,en;q=0.8"}, ExpectedStatus: 404, ExpectedContent: []string{"This link does not work"}},
		{Name: "an address on the list: the same answer", Method: "POST", URL: "/api/newsletter/subscribe",
			Body: `{"email":"ANN@example.org","lang":"uk"}`, ExpectedStatus: 202, ExpectedContent: same},
		{Name: "the count is the admin's", URL: "/api/newsletter/subscribers", ExpectedStatus: 401},
		{Name: "count", URL: "/api/newsletter/subscribers", Token: na.admin, ExpectedStatus: 200,
			ExpectedContent: []string{`"confirmed":1`, `"pending":0`, `"en":1`}},
		{Name: "an article without the newsletter", Method: "POST", URL: "/api/blog", Token: na.admin,
			Body:           `{"name":"Quiet","excerpt":"E","content":"x","category":"News","lang":"en","newsletter":false}`,
			ExpectedStatus: 201, ExpectedContent: []string{`"newsletter":false`}},
		{Name: "an article", Method: "POST", URL: "/api/blog", Token: na.admin,
			Body:           `{"name":"Loud","excerpt":"E","content":"x","category":"News","lang":"en"}`,
			ExpectedStatus: 201, ExpectedContent: []string{`"newsletter":true`}},
	})
	// The dispatcher serve runs, once.
	dispatcher := &usecase.Hub{Blog: na.services.Blog, Newsletter: na.services.Newsletter, Mail: na.services.Mail,
		PublicURL: "https://devhub.test", Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if n, err := dispatcher.DispatchNewsletter(context.Background()); err != nil || n != 2 {
		t.Fatalf("dispatch: %d, %v", n, err)
	}
	letter := na.smtp.Wait(t, 2, 10*time.Second)[1]
	if m := nlUnsub.FindStringSubmatch(letter.Header().Get("List-Unsubscribe")); m != nil {
		unsub = m[1]
	} else {
		t.Fatalf("no List-Unsubscribe in\n%s", letter.Raw)
	}
	if text, _, _ := letter.Parts(); !strings.Contains(text, "Loud") {
		t.Fatalf("the letter is not the article's:\n%s", text)
	}
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "one-click unsubscribe from another site", Method: "POST", URL: unsub, Body: "List-Unsubscribe=One-Click",
			Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "https://mail.example.net",
				"Sec-Fetch-Site": "cross-site"},
			ExpectedStatus: 200, ExpectedContent: []string{"unsubscribed"}},
		{Name: "spent", Method: "POST", URL: unsub, Body: "List-Unsubscribe=One-Click",
			Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, ExpectedStatus: 404},
		{Name: "the GET of a spent link", URL: unsub + "&lang=en", NoHead: true, ExpectedStatus: 404, ExpectedContent: []string{"This link does not work"}},
		{Name: "none left", URL: "/api/newsletter/subscribers", Token: na.admin, ExpectedStatus: 200, ExpectedContent: []string{`"confirmed":0`}},
	})
	// Subscribe again, confirm, and leave through the GET link of the mail.
	resp, body := na.call(t, "POST", "/api/newsletter/subscribe", `{"email":"ann@example.org","lang":"uk"}`)
	if resp.StatusCode != 202 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	confirm = na.confirmPath(t, 3)
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "confirm in Ukrainian", Method: "POST", URL: confirm, Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, ExpectedStatus: 200, ExpectedContent: []string{"Підписку підтверджено"}},
	})
	subs, _ := na.services.Newsletter.Subscribers()
	if len(subs) != 1 || subs[0].UnsubToken == "" {
		t.Fatalf("subscribers %+v", subs)
	}
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "unsubscribe from the mail's page", Method: "POST", URL: "/api/newsletter/unsubscribe?token=" + subs[0].UnsubToken,
			Headers:        map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			ExpectedStatus: 200, ExpectedContent: []string{"Ви відписалися"}},
	})
	// Only the article with the newsletter on was mailed.
	na.testApp.app.Shutdown()
	if n := len(na.smtp.Messages()); n != 3 {
		t.Fatalf("%d messages, want 3 (two confirmations, one article)", n)
	}
}

func TestNewsletterIsThrottledPerNetwork(t *testing.T) {
	na := newNewsletterApp(t, true)
	runScenarios(t, sameApp(na.testApp), limitScenarios("/api/newsletter/subscribe", newsletter.MaxPerNetwork, 202,
		func(i int) string { return `{"email":"n` + string(rune('a'+i)) + `@example.org"}` }, `{"email":"late@example.org"}`))
}

func TestNewsletterIsOffWithoutMail(t *testing.T) {
	na := newNewsletterApp(t, false)
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "not offered", URL: "/api/newsletter", ExpectedStatus: 200, ExpectedContent: []string{`"available":false`}},
		{Name: "refused clearly", Method: "POST", URL: "/api/newsletter/subscribe", Body: `{"email":"ann@example.org"}`,
			ExpectedStatus: 404, ExpectedContent: []string{"mail is not configured"}},
	})
	var out struct{ Available bool }
	_, body := na.call(t, "GET", "/api/newsletter", nil)
	if json.Unmarshal(body, &out) != nil || out.Available {
		t.Fatalf("%s", body)
	}
}

// Opening a newsletter link (a GET, which mail scanners and link previews
// send on their own for every link in a letter and in its
// List-Unsubscribe header) changes nothing: its page asks for a press of a
// button, a POST, which then confirms or unsubscribes.
func TestNewsletterLinksChangeNothingOnGet(t *testing.T) {
	na := newNewsletterApp(t, true)
	resp, body := na.call(t, "POST", "/api/newsletter/subscribe", `{"email":"ann@example.org","lang":"en"}`)
	if resp.StatusCode != 202 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	confirm := na.confirmPath(t, 1)
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	pending := []string{`"confirmed":0`, `"pending":1`}
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "a scanner opens the link", URL: confirm, NoHead: true, ExpectedStatus: 200,
			ExpectedContent: []string{`method="post"`, "Confirm the subscription"}, NotExpectedContent: []string{"Subscription confirmed"},
			ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}},
		{Name: "and again", URL: confirm, NoHead: true, ExpectedStatus: 200, ExpectedContent: []string{`method="post"`}},
		{Name: "still unconfirmed", URL: "/api/newsletter/subscribers", Token: na.admin, ExpectedStatus: 200, ExpectedContent: pending},
		{Name: "a bad link has no button", URL: "/api/newsletter/confirm?token=nope&lang=en", NoHead: true, ExpectedStatus: 404,
			ExpectedContent: []string{"This link does not work"}, NotExpectedContent: []string{`method="post"`}},
		{Name: "the button", Method: "POST", URL: confirm, Headers: form, Body: "", ExpectedStatus: 200,
			ExpectedContent: []string{"Subscription confirmed", "ann@example.org"}},
		{Name: "confirmed", URL: "/api/newsletter/subscribers", Token: na.admin, ExpectedStatus: 200,
			ExpectedContent: []string{`"confirmed":1`, `"pending":0`}},
		{Name: "the button is spent", Method: "POST", URL: confirm + "&lang=en", Headers: form, ExpectedStatus: 404,
			ExpectedContent: []string{"This link does not work"}},
	})
	subs, _ := na.services.Newsletter.Subscribers()
	if len(subs) != 1 || subs[0].UnsubToken == "" {
		t.Fatalf("subscribers %+v", subs)
	}
	unsub := "/api/newsletter/unsubscribe?token=" + subs[0].UnsubToken
	runScenarios(t, sameApp(na.testApp), []apiScenario{
		{Name: "a scanner opens the unsubscribe link", URL: unsub, NoHead: true, ExpectedStatus: 200,
			ExpectedContent: []string{`method="post"`, "Unsubscribe"}, NotExpectedContent: []string{"You are unsubscribed"}},
		{Name: "still subscribed", URL: "/api/newsletter/subscribers", Token: na.admin, ExpectedStatus: 200,
			ExpectedContent: []string{`"confirmed":1`}},
		{Name: "the page's button", Method: "POST", URL: unsub, Headers: form, ExpectedStatus: 200,
			ExpectedContent: []string{"You are unsubscribed", "ann@example.org"}},
		{Name: "gone", URL: "/api/newsletter/subscribers", Token: na.admin, ExpectedStatus: 200,
			ExpectedContent: []string{`"confirmed":0`}},
	})
}

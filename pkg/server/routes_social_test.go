package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store/storetest"
	"github.com/devhub/devhub/pkg/usecase"
)

// socialApp is the app with real accounts: admin, ann, bob (ann's friend),
// cat (a stranger to everyone) and dan (whom ann blocked), each signed in
// with the token "tok-<name>". Bob wrote ann socialSecret.
type socialApp struct {
	*testApp
	auth   *auth.Service
	social *social.Service
	events *events.Hub
	notify *notify.Service
	hub    *usecase.Hub
	clock  *testClock
	ids    map[string]uint64
}

const socialSecret = "the conversation of ann and bob"

func newSocialApp(t *testing.T, mutate func(*social.Options)) *socialApp {
	t.Helper()
	st := storetest.Open(t)
	cfg := config.Default()
	a := newTestAuth(t, st, cfg.Auth)
	var err error
	sa := &socialApp{auth: a, clock: &testClock{t: time.Now()}, ids: map[string]uint64{}, events: events.NewHub(events.Options{})}
	for _, name := range []string{"admin", "ann", "bob", "cat", "dan"} {
		role := auth.RoleUser
		if name == "admin" {
			role = auth.RoleAdmin
		}
		u, err := a.CreateUser(context.Background(), auth.NewUser{Email: name + "@example.com", Name: strings.ToUpper(name[:1]) + name[1:],
			Password: "correct horse battery", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		sa.ids[name] = u.ID
	}
	o := social.Options{FriendsOnly: true, Now: sa.clock.Now}
	if mutate != nil {
		mutate(&o)
	}
	if sa.social, err = social.New(st, o); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := sa.social.RequestFriend(ctx, sa.ids["ann"], sa.ids["bob"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.social.AnswerRequest(ctx, sa.ids["bob"], r.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := sa.social.Block(ctx, sa.ids["ann"], sa.ids["dan"]); err != nil {
		t.Fatal(err)
	}
	if _, err := sa.social.Send(ctx, sa.ids["bob"], sa.ids["ann"], socialSecret); err != nil {
		t.Fatal(err)
	}
	if sa.notify, err = notify.New(st, sa.events); err != nil {
		t.Fatal(err)
	}
	authenticate := func(tok string) (*auth.Principal, error) {
		name, ok := strings.CutPrefix(tok, "tok-")
		if !ok || sa.ids[name] == 0 {
			return nil, errors.New("bad token")
		}
		u, err := a.UserByID(sa.ids[name])
		if err != nil {
			return nil, err
		}
		return &auth.Principal{User: *u}, nil
	}
	sa.testApp = newTestApp(t, func(o *Options) {
		o.Services = &Services{Store: st, Auth: a, Authenticate: authenticate, Social: sa.social, Events: sa.events,
			Notify: sa.notify}
	})
	sa.hub = &usecase.Hub{Auth: a, Social: sa.social, Events: sa.events, Notify: sa.notify}
	return sa
}

func (sa *socialApp) id(name string) string { return strconv.FormatUint(sa.ids[name], 10) }

// send is one request of name (a guest when empty).
func (sa *socialApp) send(t *testing.T, name, method, path, body string) (*http.Response, string) {
	t.Helper()
	tok := ""
	if name != "" {
		tok = "tok-" + name
	}
	resp, raw := sa.do(t, jsonRequest(method, path, tok, body))
	return resp, string(raw)
}

// wantNotification checks that name's newest notification of kind holds
// every part.
func (sa *socialApp) wantNotification(t *testing.T, name, kind string, parts ...string) {
	t.Helper()
	page, err := sa.notify.List(sa.ids[name], 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range page.Items {
		if n.Kind != kind {
			continue
		}
		for _, p := range parts {
			if !strings.Contains(string(n.Data), p) {
				t.Fatalf("%s's %s notification lacks %s: %s", name, kind, p, n.Data)
			}
		}
		return
	}
	t.Fatalf("%s has no %s notification: %+v", name, kind, page.Items)
}

// The access matrix: every route for a guest, the account itself, a friend,
// a stranger, a blocked account and an admin.
func TestSocialAccessMatrix(t *testing.T) {
	sa := newSocialApp(t, nil)
	tok := func(n string) string { return "tok-" + n }
	ann, bob, cat, dan := sa.id("ann"), sa.id("bob"), sa.id("cat"), sa.id("dan")
	runScenarios(t, sameApp(sa.testApp), []apiScenario{
		// people search
		{Name: "search: guest", URL: "/api/users?search=bob", ExpectedStatus: 401},
		{Name: "search: by name, no e-mail", URL: "/api/users?search=BO", Token: tok("ann"), ExpectedStatus: 200,
			ExpectedContent: []string{`"name":"Bob"`, `"avatar":null`}, NotExpectedContent: []string{"bob@example.com", `"role"`}},
		{Name: "search: never oneself", URL: "/api/users?search=ann", Token: tok("ann"), ExpectedStatus: 200, ExpectedContent: []string{`[]`}},
		{Name: "search: blank finds no one", URL: "/api/users?search=%20", Token: tok("ann"), ExpectedStatus: 200, ExpectedContent: []string{`[]`}},
		{Name: "search: the blocked pair does not find the blocker", URL: "/api/users?search=ann", Token: tok("dan"), ExpectedStatus: 200,
			NotExpectedContent: []string{"Ann"}},
		{Name: "search: nor the blocker the blocked", URL: "/api/users?search=dan", Token: tok("ann"), ExpectedStatus: 200,
			NotExpectedContent: []string{"Dan"}},
		// friends lists
		{Name: "friends: guest", URL: "/api/friends", ExpectedStatus: 401},
		{Name: "friends: own lists", URL: "/api/friends", Token: tok("ann"), ExpectedStatus: 200,
			ExpectedContent: []string{`"friends":[{"user":{"id":` + bob, `"blocked":[{"user":{"id":` + dan}},
		{Name: "friends: a stranger's are empty", URL: "/api/friends", Token: tok("cat"), ExpectedStatus: 200,
			ExpectedContent: []string{`"friends":[]`, `"incoming":[]`}},
		// requests
		{Name: "request: guest", Method: "POST", URL: "/api/friends/requests", Body: `{"userId":` + cat + `}`, ExpectedStatus: 401},
		{Name: "request: oneself", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":` + ann + `}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"self"`}},
		{Name: "request: unknown account", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":999}`, ExpectedStatus: 404},
		{Name: "request: the contact form's id", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":0}`, ExpectedStatus: 404},
		{Name: "request: no userId", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{}`, ExpectedStatus: 400},
		{Name: "request: bad JSON", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":`, ExpectedStatus: 400},
		{Name: "request: a friend", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":` + bob + `}`, ExpectedStatus: 409},
		{Name: "request: the blocked cannot", Method: "POST", URL: "/api/friends/requests", Token: tok("dan"), Body: `{"userId":` + ann + `}`, ExpectedStatus: 403},
		{Name: "request: nor the blocker", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":` + dan + `}`, ExpectedStatus: 403},
		{Name: "request: a stranger", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":` + cat + `}`,
			ExpectedStatus: 201, ExpectedContent: []string{`"name":"Cat"`}},
		{Name: "request: twice", Method: "POST", URL: "/api/friends/requests", Token: tok("ann"), Body: `{"userId":` + cat + `}`, ExpectedStatus: 409},
		{Name: "request: back while one is pending", Method: "POST", URL: "/api/friends/requests", Token: tok("cat"), Body: `{"userId":` + ann + `}`, ExpectedStatus: 409},
		{Name: "incoming shows for its addressee", URL: "/api/friends", Token: tok("cat"), ExpectedStatus: 200,
			ExpectedContent: []string{`"incoming":[{"id":`, `"name":"Ann"`}},
		// blocks
		{Name: "block: guest", Method: "POST", URL: "/api/blocks/" + cat, ExpectedStatus: 401},
		{Name: "block: oneself", Method: "POST", URL: "/api/blocks/" + ann, Token: tok("ann"), ExpectedStatus: 400},
		{Name: "block: unknown", Method: "POST", URL: "/api/blocks/999", Token: tok("ann"), ExpectedStatus: 404},
		{Name: "block: bad id", Method: "POST", URL: "/api/blocks/x", Token: tok("ann"), ExpectedStatus: 400},
		{Name: "block: twice is no error", Method: "POST", URL: "/api/blocks/" + dan, Token: tok("ann"), ExpectedStatus: 204},
		{Name: "unblock: not blocked", Method: "DELETE", URL: "/api/blocks/" + cat, Token: tok("ann"), ExpectedStatus: 404},
		{Name: "unblock: the blocked cannot lift it", Method: "DELETE", URL: "/api/blocks/" + ann, Token: tok("dan"), ExpectedStatus: 404},
		// unfriend
		{Name: "unfriend: guest", Method: "DELETE", URL: "/api/friends/" + bob, ExpectedStatus: 401},
		{Name: "unfriend: not friends", Method: "DELETE", URL: "/api/friends/" + cat, Token: tok("ann"), ExpectedStatus: 404},
		// conversations
		{Name: "conversations: guest", URL: "/api/conversations", ExpectedStatus: 401},
		{Name: "conversations: the member's", URL: "/api/conversations", Token: tok("ann"), ExpectedStatus: 200,
			ExpectedContent: []string{socialSecret, `"unread":1`, `"kind":"direct"`}},
		{Name: "conversations: a stranger has none", URL: "/api/conversations", Token: tok("cat"), ExpectedStatus: 200, ExpectedContent: []string{`[]`}},
		{Name: "conversations: an admin sees only their own", URL: "/api/conversations", Token: tok("admin"), ExpectedStatus: 200,
			NotExpectedContent: []string{socialSecret}},
		{Name: "messages: guest", URL: "/api/conversations/" + bob + "/messages", ExpectedStatus: 401},
		{Name: "messages: a member reads", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"), ExpectedStatus: 200,
			ExpectedContent: []string{socialSecret, `"canSend":true`}},
		{Name: "messages: the friend reads", URL: "/api/conversations/" + ann + "/messages", Token: tok("bob"), ExpectedStatus: 200,
			ExpectedContent: []string{socialSecret}},
		{Name: "messages: a stranger naming a member reads their own (empty) conversation", URL: "/api/conversations/" + ann + "/messages",
			Token: tok("cat"), ExpectedStatus: 200, NotExpectedContent: []string{socialSecret}, ExpectedContent: []string{`"reason":"friends"`}},
		{Name: "messages: an admin cannot read others' conversation", URL: "/api/conversations/" + bob + "/messages", Token: tok("admin"),
			ExpectedStatus: 200, NotExpectedContent: []string{socialSecret}},
		{Name: "messages: the blocked pair", URL: "/api/conversations/" + ann + "/messages", Token: tok("dan"), ExpectedStatus: 200,
			ExpectedContent: []string{`"canSend":false`, `"reason":"blocked"`}},
		{Name: "messages: oneself", URL: "/api/conversations/" + ann + "/messages", Token: tok("ann"), ExpectedStatus: 400},
		{Name: "messages: unknown account", URL: "/api/conversations/999/messages", Token: tok("ann"), ExpectedStatus: 404},
		{Name: "messages: the contact form's, not an admin", URL: "/api/conversations/0/messages", Token: tok("ann"), ExpectedStatus: 404},
		{Name: "messages: the contact form's, an admin", URL: "/api/conversations/0/messages", Token: tok("admin"), ExpectedStatus: 200,
			ExpectedContent: []string{`"kind":"contact"`, `"canSend":false`}},
		{Name: "messages: bad before", URL: "/api/conversations/" + bob + "/messages?before=x", Token: tok("ann"), ExpectedStatus: 400},
		// sending
		{Name: "send: guest", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Body: `{"text":"hi"}`, ExpectedStatus: 401},
		{Name: "send: to a friend", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"), Body: `{"text":"hi bob"}`,
			ExpectedStatus: 201, ExpectedContent: []string{`"text":"hi bob"`, `"authorId":` + ann}},
		{Name: "send: empty", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"), Body: `{"text":""}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"required"`}},
		{Name: "send: blank", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"), Body: `{"text":" \n\t "}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"required"`}},
		{Name: "send: too long", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"),
			Body: `{"text":"` + strings.Repeat("ї", social.DefaultMaxLength+1) + `"}`, ExpectedStatus: 400, ExpectedContent: []string{`"too_long"`}},
		{Name: "send: at the limit", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"),
			Body: `{"text":"` + strings.Repeat("ї", social.DefaultMaxLength) + `"}`, ExpectedStatus: 201},
		{Name: "send: to a stranger (messages.from friends)", Method: "POST", URL: "/api/conversations/" + cat + "/messages", Token: tok("ann"),
			Body: `{"text":"hi"}`, ExpectedStatus: 403},
		{Name: "send: the blocked", Method: "POST", URL: "/api/conversations/" + ann + "/messages", Token: tok("dan"), Body: `{"text":"hi"}`, ExpectedStatus: 403},
		{Name: "send: to the blocked", Method: "POST", URL: "/api/conversations/" + dan + "/messages", Token: tok("ann"), Body: `{"text":"hi"}`, ExpectedStatus: 403},
		{Name: "send: oneself", Method: "POST", URL: "/api/conversations/" + ann + "/messages", Token: tok("ann"), Body: `{"text":"hi"}`, ExpectedStatus: 400},
		{Name: "send: unknown", Method: "POST", URL: "/api/conversations/999/messages", Token: tok("ann"), Body: `{"text":"hi"}`, ExpectedStatus: 404},
		{Name: "send: to the contact form's", Method: "POST", URL: "/api/conversations/0/messages", Token: tok("admin"), Body: `{"text":"hi"}`, ExpectedStatus: 403},
		{Name: "send: no JSON", Method: "POST", URL: "/api/conversations/" + bob + "/messages", Token: tok("ann"), Body: `text`, ExpectedStatus: 400},
		// read markers
		{Name: "read: guest", Method: "POST", URL: "/api/conversations/" + bob + "/read", ExpectedStatus: 401},
		{Name: "read: no conversation", Method: "POST", URL: "/api/conversations/" + cat + "/read", Token: tok("ann"), ExpectedStatus: 404},
		{Name: "read: a member", Method: "POST", URL: "/api/conversations/" + bob + "/read", Token: tok("ann"), ExpectedStatus: 200,
			ExpectedContent: []string{`"readUpTo":`}},
		{Name: "read: then nothing unread", URL: "/api/conversations", Token: tok("ann"), ExpectedStatus: 200, ExpectedContent: []string{`"unread":0`}},
	})
}

// Friend requests are answered by their addressee only and cancelled by
// their sender only; accepting makes friends who may then message.
func TestSocialFriendRequestFlow(t *testing.T) {
	sa := newSocialApp(t, nil)
	ann, cat := sa.id("ann"), sa.id("cat")
	_, body := sa.send(t, "ann", "POST", "/api/friends/requests", `{"userId":`+cat+`}`)
	var r struct{ ID uint64 }
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.ID == 0 {
		t.Fatalf("request: %s", body)
	}
	reqURL := "/api/friends/requests/" + strconv.FormatUint(r.ID, 10)
	sa.wantNotification(t, "cat", notify.KindFriendRequest, `"name":"Ann"`, `"url":"/profile?section=friends"`)
	runScenarios(t, sameApp(sa.testApp), []apiScenario{
		{Name: "the sender cannot accept", Method: "POST", URL: reqURL + "/accept", Token: "tok-ann", ExpectedStatus: 404},
		{Name: "a third account cannot accept", Method: "POST", URL: reqURL + "/accept", Token: "tok-bob", ExpectedStatus: 404},
		{Name: "an admin cannot accept", Method: "POST", URL: reqURL + "/accept", Token: "tok-admin", ExpectedStatus: 404},
		{Name: "guest", Method: "POST", URL: reqURL + "/accept", ExpectedStatus: 401},
		{Name: "the addressee cannot cancel", Method: "DELETE", URL: reqURL, Token: "tok-cat", ExpectedStatus: 404},
		{Name: "not yet friends: no messages", Method: "POST", URL: "/api/conversations/" + cat + "/messages", Token: "tok-ann",
			Body: `{"text":"hi"}`, ExpectedStatus: 403},
		{Name: "the addressee accepts", Method: "POST", URL: reqURL + "/accept", Token: "tok-cat", ExpectedStatus: 204},
		{Name: "once", Method: "POST", URL: reqURL + "/accept", Token: "tok-cat", ExpectedStatus: 404},
		{Name: "friends both ways", URL: "/api/friends", Token: "tok-ann", ExpectedStatus: 200, ExpectedContent: []string{`"name":"Cat"`}},
		{Name: "friends may message", Method: "POST", URL: "/api/conversations/" + cat + "/messages", Token: "tok-ann",
			Body: `{"text":"hi cat"}`, ExpectedStatus: 201, AfterTest: func(t *testing.T, _ *http.Response, _ string) {
				sa.wantNotification(t, "ann", notify.KindFriendAccepted, `"name":"Cat"`)
				sa.wantNotification(t, "cat", notify.KindDM, `"text":"hi cat"`, `"url":"/profile?section=messages&with=`+ann+`"`)
			}},
		{Name: "unfriend", Method: "DELETE", URL: "/api/friends/" + ann, Token: "tok-cat", ExpectedStatus: 204},
		{Name: "no longer", Method: "POST", URL: "/api/conversations/" + cat + "/messages", Token: "tok-ann",
			Body: `{"text":"hi"}`, ExpectedStatus: 403},
	})
	// Cancel and decline.
	for _, tc := range []struct{ name, who, method, suffix string }{
		{"cancel by the sender", "ann", "DELETE", ""},
		{"decline by the addressee", "cat", "POST", "/decline"},
	} {
		_, body := sa.send(t, "ann", "POST", "/api/friends/requests", `{"userId":`+cat+`}`)
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatal(err)
		}
		url := "/api/friends/requests/" + strconv.FormatUint(r.ID, 10) + tc.suffix
		if resp, body := sa.send(t, tc.who, tc.method, url, ""); resp.StatusCode != 204 {
			t.Fatalf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
		if _, body := sa.send(t, "cat", "GET", "/api/friends", ""); !strings.Contains(body, `"incoming":[]`) || !strings.Contains(body, `"friends":[]`) {
			t.Fatalf("%s left: %s", tc.name, body)
		}
	}
	// Blocking ends a pending request and the friendship.
	sa.send(t, "ann", "POST", "/api/friends/requests", `{"userId":`+cat+`}`)
	if resp, _ := sa.send(t, "cat", "POST", "/api/blocks/"+ann, ""); resp.StatusCode != 204 {
		t.Fatal("block", resp.StatusCode)
	}
	if _, body := sa.send(t, "ann", "GET", "/api/friends", ""); !strings.Contains(body, `"outgoing":[]`) {
		t.Fatalf("request outlived the block: %s", body)
	}
	if resp, _ := sa.send(t, "cat", "DELETE", "/api/blocks/"+ann, ""); resp.StatusCode != 204 {
		t.Fatal("unblock", resp.StatusCode)
	}
	if resp, _ := sa.send(t, "ann", "POST", "/api/friends/requests", `{"userId":`+cat+`}`); resp.StatusCode != 201 {
		t.Fatal("request after unblock", resp.StatusCode)
	}
}

// messages.from: anyone lets strangers write; a block still stops them.
func TestSocialMessagesFromAnyone(t *testing.T) {
	sa := newSocialApp(t, func(o *social.Options) { o.FriendsOnly = false })
	runScenarios(t, sameApp(sa.testApp), []apiScenario{
		{Name: "a stranger", Method: "POST", URL: "/api/conversations/" + sa.id("cat") + "/messages", Token: "tok-ann",
			Body: `{"text":"hello"}`, ExpectedStatus: 201},
		{Name: "the blocked", Method: "POST", URL: "/api/conversations/" + sa.id("ann") + "/messages", Token: "tok-dan",
			Body: `{"text":"hello"}`, ExpectedStatus: 403},
		{Name: "the stranger answers", Method: "POST", URL: "/api/conversations/" + sa.id("ann") + "/messages", Token: "tok-cat",
			Body: `{"text":"hello back"}`, ExpectedStatus: 201},
	})
}

// Text is kept and answered as the text sent, whatever it looks like.
func TestSocialMessageTextStaysText(t *testing.T) {
	sa := newSocialApp(t, nil)
	for _, text := range []string{`<script>alert(1)</script>`, `<img src=x onerror=alert(1)>`, `"quotes" & 'apostrophes'`,
		`javascript:alert(1)`, "line\nbreak", "\u202eright-to-left"} {
		raw, _ := json.Marshal(map[string]string{"text": text})
		resp, body := sa.send(t, "ann", "POST", "/api/conversations/"+sa.id("bob")+"/messages", string(raw))
		if resp.StatusCode != 201 {
			t.Fatalf("%q: %d %s", text, resp.StatusCode, body)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("content type %q", ct)
		}
		var m usecase.DirectMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil || m.Text != text {
			t.Fatalf("%q came back as %q (%v)", text, m.Text, err)
		}
	}
}

// A sender over messages.per_minute is refused with 429 and Retry-After.
func TestSocialMessageRate(t *testing.T) {
	sa := newSocialApp(t, func(o *social.Options) { o.PerMinute = 2 })
	url := "/api/conversations/" + sa.id("bob") + "/messages"
	scen := apiScenario{Method: "POST", URL: url, Token: "tok-ann", Body: `{"text":"hi"}`, ExpectedStatus: 201}
	over := scen
	over.Name, over.ExpectedStatus, over.ExpectedContent = "over the rate", 429, []string{`"status":429`}
	over.AfterTest = func(t *testing.T, resp *http.Response, _ string) {
		if resp.Header.Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
	}
	other := apiScenario{Name: "another account is not held", Method: "POST", URL: "/api/conversations/" + sa.id("ann") + "/messages",
		Token: "tok-bob", Body: `{"text":"hi"}`, ExpectedStatus: 201}
	runScenarios(t, sameApp(sa.testApp), []apiScenario{scen, scen, over, other})
	sa.clock.Advance(time.Minute)
	runScenarios(t, sameApp(sa.testApp), []apiScenario{scen})
}

// Paging goes backwards; read markers never move back; only the author
// deletes a message, and it goes from both sides.
func TestSocialPagingReadDelete(t *testing.T) {
	sa := newSocialApp(t, nil)
	bob, ann := sa.id("bob"), sa.id("ann")
	var ids []uint64
	for i := range 5 {
		_, body := sa.send(t, "ann", "POST", "/api/conversations/"+bob+"/messages", fmt.Sprintf(`{"text":"m%d"}`, i))
		var m usecase.DirectMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	page := func(name, query string) usecase.MessagePage {
		_, body := sa.send(t, name, "GET", "/api/conversations/"+map[string]string{"ann": bob, "bob": ann}[name]+"/messages"+query, "")
		var p usecase.MessagePage
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatal(body)
		}
		return p
	}
	p := page("ann", "?limit=2")
	if len(p.Messages) != 2 || p.Messages[0].Text != "m3" || p.Messages[1].Text != "m4" || !p.HasMore {
		t.Fatalf("first page %+v", p)
	}
	p = page("ann", "?limit=10&before="+strconv.FormatUint(p.Messages[0].ID, 10))
	if len(p.Messages) != 4 || p.Messages[0].Text != socialSecret || p.Messages[3].Text != "m2" || p.HasMore {
		t.Fatalf("second page %+v", p)
	}
	// Bob has five unread; he reads up to the third.
	_, body := sa.send(t, "bob", "GET", "/api/conversations", "")
	if !strings.Contains(body, `"unread":5`) {
		t.Fatalf("bob's unread: %s", body)
	}
	sa.send(t, "bob", "POST", "/api/conversations/"+ann+"/read", fmt.Sprintf(`{"upTo":%d}`, ids[2]))
	_, body = sa.send(t, "bob", "GET", "/api/conversations", "")
	if !strings.Contains(body, `"unread":2`) {
		t.Fatalf("after reading three: %s", body)
	}
	_, body = sa.send(t, "bob", "POST", "/api/conversations/"+ann+"/read", fmt.Sprintf(`{"upTo":%d}`, ids[0]))
	if !strings.Contains(body, fmt.Sprintf(`"readUpTo":%d`, ids[2])) {
		t.Fatalf("marker moved back: %s", body)
	}
	if p := page("ann", ""); p.OtherReadUpTo != ids[2] {
		t.Fatalf("ann sees bob's marker at %d, want %d", p.OtherReadUpTo, ids[2])
	}
	del := func(name, peer string, id uint64) int {
		resp, _ := sa.send(t, name, "DELETE", "/api/conversations/"+peer+"/messages/"+strconv.FormatUint(id, 10), "")
		return resp.StatusCode
	}
	if got := del("bob", ann, ids[4]); got != 403 {
		t.Fatalf("bob deleting ann's message: %d", got)
	}
	if got := del("cat", ann, ids[4]); got != 404 {
		t.Fatalf("a stranger deleting: %d", got)
	}
	if got := del("admin", ann, ids[4]); got != 404 {
		t.Fatalf("an admin deleting: %d", got)
	}
	if got := del("", bob, ids[4]); got != 401 {
		t.Fatalf("a guest deleting: %d", got)
	}
	if got := del("ann", bob, ids[4]); got != 204 {
		t.Fatalf("ann deleting her own: %d", got)
	}
	if got := del("ann", bob, ids[4]); got != 404 {
		t.Fatalf("deleting twice: %d", got)
	}
	if p := page("bob", ""); strings.Contains(fmt.Sprint(p.Messages), "m4") {
		t.Fatalf("deleted message still shown to bob: %+v", p.Messages)
	}
}

// Live delivery: both accounts' streams receive a message, its read marker
// and its deletion; a third account's stream receives none of them.
func TestSocialLiveEvents(t *testing.T) {
	sa := newSocialApp(t, nil)
	streams := map[string]*events.Stream{}
	for _, n := range []string{"ann", "bob", "cat", "admin"} {
		st, err := sa.events.Subscribe(events.Sub{UserID: sa.ids[n]})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		streams[n] = st
	}
	_, body := sa.send(t, "ann", "POST", "/api/conversations/"+sa.id("bob")+"/messages", `{"text":"live"}`)
	var m usecase.DirectMessage
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	sa.send(t, "bob", "POST", "/api/conversations/"+sa.id("ann")+"/read", "")
	sa.send(t, "ann", "DELETE", "/api/conversations/"+sa.id("bob")+"/messages/"+strconv.FormatUint(m.ID, 10), "")
	// next is the stream's next event of this feature (presence and
	// notifications come too).
	next := func(st *events.Stream) (events.Event, bool) {
		for {
			select {
			case ev := <-st.C():
				if ev.Type == "presence" || strings.HasPrefix(ev.Type, "notification") {
					continue
				}
				return *ev, true
			case <-time.After(5 * time.Second):
				return events.Event{}, false
			}
		}
	}
	for _, n := range []string{"ann", "bob"} {
		for _, want := range []string{usecase.EventDMMessage, usecase.EventDMRead, usecase.EventDMDeleted} {
			ev, ok := next(streams[n])
			if !ok || ev.Type != want {
				t.Fatalf("%s got %q, want %s", n, ev.Type, want)
			}
		}
	}
	for _, n := range []string{"cat", "admin"} {
		for len(streams[n].C()) > 0 {
			if ev := <-streams[n].C(); strings.HasPrefix(ev.Type, "dm.") || strings.HasPrefix(ev.Type, "friend.") {
				t.Fatalf("%s received %s %s", n, ev.Type, ev.Data)
			}
		}
	}
}

// contactApp answers challenges and solves them the way the browser does.
func (sa *socialApp) solved(t *testing.T) string {
	t.Helper()
	resp, body := sa.send(t, "", "GET", "/api/contact/challenge", "")
	if resp.StatusCode != 200 {
		t.Fatalf("challenge: %d %s", resp.StatusCode, body)
	}
	var c social.Challenge
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	sol, ok := social.SolveChallenge(c)
	if !ok {
		t.Fatal("unsolvable challenge")
	}
	return sol
}

func contactBody(altcha string, edit func(map[string]string)) string {
	in := map[string]string{"name": "Visitor", "email": "visitor@example.org", "message": "Hello, owner <b>!</b>", "altcha": altcha}
	if edit != nil {
		edit(in)
	}
	raw, _ := json.Marshal(in)
	return string(raw)
}

// The contact form: guests write, the message lands in the admins'
// contact conversation only; the spam guards refuse what they should.
func TestSocialContact(t *testing.T) {
	sa := newSocialApp(t, func(o *social.Options) { o.ContactPerHour = 6; o.PowMaxNumber = 2000 })
	used := sa.solved(t)
	tampered := func() string {
		raw, _ := base64.StdEncoding.DecodeString(sa.solved(t))
		var sol social.Solution
		json.Unmarshal(raw, &sol)
		sol.Number++
		raw, _ = json.Marshal(sol)
		return base64.StdEncoding.EncodeToString(raw)
	}()
	forged := func() string {
		raw, _ := json.Marshal(social.Solution{Algorithm: "SHA-256", Salt: "abc?expires=99999999999", Number: 1,
			Challenge: "ignored", Signature: "00"})
		return base64.StdEncoding.EncodeToString(raw)
	}()
	runScenarios(t, sameApp(sa.testApp), []apiScenario{
		{Name: "challenge for a guest", URL: "/api/contact/challenge", ExpectedStatus: 200, NoHead: true,
			ExpectedContent: []string{`"algorithm":"SHA-256"`, `"signature"`}, ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}},
		{Name: "a guest writes", Method: "POST", URL: "/api/contact", Body: contactBody(used, nil), ExpectedStatus: 201,
			ExpectedContent: []string{`"received":true`}},
		{Name: "the same solution again", Method: "POST", URL: "/api/contact", Body: contactBody(used, nil), ExpectedStatus: 400,
			ExpectedContent: []string{`"altcha"`}},
		{Name: "a wrong number", Method: "POST", URL: "/api/contact", Body: contactBody(tampered, nil), ExpectedStatus: 400,
			ExpectedContent: []string{`"altcha"`}},
		{Name: "a challenge the server did not sign", Method: "POST", URL: "/api/contact", Body: contactBody(forged, nil), ExpectedStatus: 400},
		{Name: "not base64", Method: "POST", URL: "/api/contact", Body: contactBody("%%%", nil), ExpectedStatus: 400},
		{Name: "fields missing", Method: "POST", URL: "/api/contact", Body: `{}`, ExpectedStatus: 400,
			ExpectedContent: []string{`"name"`, `"email"`, `"message"`, `"altcha"`}},
		{Name: "a bad e-mail", Method: "POST", URL: "/api/contact", Body: contactBody("x", func(m map[string]string) { m["email"] = "not-mail" }),
			ExpectedStatus: 400, ExpectedContent: []string{`"email":{"code":"invalid"`}},
		{Name: "too long", Method: "POST", URL: "/api/contact",
			Body:           contactBody("x", func(m map[string]string) { m["message"] = strings.Repeat("a", social.DefaultContactMaxLength+1) }),
			ExpectedStatus: 400, ExpectedContent: []string{`"too_long"`}},
		{Name: "over the body limit", Method: "POST", URL: "/api/contact",
			Body: contactBody("x", func(m map[string]string) { m["message"] = strings.Repeat("a", contactBodyLimit) }), ExpectedStatus: 413},
	})
	// The message is in the admins' contact conversation, nowhere else.
	_, body := sa.send(t, "admin", "GET", "/api/conversations", "")
	if !strings.Contains(body, `"kind":"contact"`) || !strings.Contains(body, `"email":"visitor@example.org"`) || !strings.Contains(body, `"unread":1`) {
		t.Fatalf("admin's conversations: %s", body)
	}
	for _, n := range []string{"ann", "bob"} {
		if _, body := sa.send(t, n, "GET", "/api/conversations", ""); strings.Contains(body, "visitor@") {
			t.Fatalf("%s sees the contact message: %s", n, body)
		}
	}
	// The hidden field: the same answer, nothing kept.
	resp, body := sa.send(t, "", "POST", "/api/contact", contactBody(sa.solved(t), func(m map[string]string) {
		m["website"] = "http://spam.example"
		m["message"] = "buy now"
	}))
	if resp.StatusCode != 201 || !strings.Contains(body, `"received":true`) {
		t.Fatalf("honeypot answer: %d %s", resp.StatusCode, body)
	}
	if _, body := sa.send(t, "admin", "GET", "/api/conversations/0/messages", ""); strings.Contains(body, "buy now") {
		t.Fatalf("honeypot message kept: %s", body)
	}
	// An expired challenge.
	old := sa.solved(t)
	sa.clock.Advance(social.DefaultPowTTL + time.Minute)
	if resp, body := sa.send(t, "", "POST", "/api/contact", contactBody(old, nil)); resp.StatusCode != 400 || !strings.Contains(body, `"expired"`) {
		t.Fatalf("expired: %d %s", resp.StatusCode, body)
	}
	// The admin reads and deletes; the rate per network holds.
	if resp, _ := sa.send(t, "admin", "POST", "/api/conversations/0/read", ""); resp.StatusCode != 200 {
		t.Fatal("admin read marker", resp.StatusCode)
	}
	var p usecase.MessagePage
	_, body = sa.send(t, "admin", "GET", "/api/conversations/0/messages", "")
	json.Unmarshal([]byte(body), &p)
	if len(p.Messages) != 1 || p.Messages[0].Sender == nil || p.Messages[0].Text != "Hello, owner <b>!</b>" {
		t.Fatalf("contact page: %s", body)
	}
	del := "/api/conversations/0/messages/" + strconv.FormatUint(p.Messages[0].ID, 10)
	if resp, _ := sa.send(t, "ann", "DELETE", del, ""); resp.StatusCode != 404 {
		t.Fatal("a user deleting a contact message", resp.StatusCode)
	}
	if resp, _ := sa.send(t, "admin", "DELETE", del, ""); resp.StatusCode != 204 {
		t.Fatal("an admin deleting a contact message", resp.StatusCode)
	}
	var last *http.Response
	for range 8 {
		last, body = sa.send(t, "", "POST", "/api/contact", contactBody(sa.solved(t), nil))
	}
	if last.StatusCode != 429 || last.Header.Get("Retry-After") == "" {
		t.Fatalf("rate per network: %d %s", last.StatusCode, body)
	}
}

// Deleting an account removes its friendships, requests, blocks and the
// messages it wrote; what others wrote to it stays theirs.
func TestSocialAccountDeletion(t *testing.T) {
	sa := newSocialApp(t, nil)
	ctx := context.Background()
	sa.send(t, "ann", "POST", "/api/conversations/"+sa.id("bob")+"/messages", `{"text":"from ann"}`)
	sa.send(t, "ann", "POST", "/api/friends/requests", `{"userId":`+sa.id("cat")+`}`)
	if _, err := sa.hub.DeleteAccount(ctx, usecase.Owner(), "ann@example.com", false); err != nil {
		t.Fatal(err)
	}
	_, body := sa.send(t, "bob", "GET", "/api/friends", "")
	if !strings.Contains(body, `"friends":[]`) {
		t.Fatalf("bob still has ann as a friend: %s", body)
	}
	if _, body := sa.send(t, "cat", "GET", "/api/friends", ""); !strings.Contains(body, `"incoming":[]`) {
		t.Fatalf("ann's request outlived her: %s", body)
	}
	if sa.social.Blocked(sa.ids["ann"], sa.ids["dan"]) {
		t.Fatal("ann's block outlived her")
	}
	resp, body := sa.send(t, "bob", "GET", "/api/conversations/"+sa.id("ann")+"/messages", "")
	if resp.StatusCode != 200 || strings.Contains(body, "from ann") || !strings.Contains(body, socialSecret) ||
		!strings.Contains(body, `"deleted":true`) || !strings.Contains(body, `"canSend":false`) {
		t.Fatalf("bob's conversation with the deleted account: %d %s", resp.StatusCode, body)
	}
	if resp, _ := sa.send(t, "bob", "POST", "/api/conversations/"+sa.id("ann")+"/messages", `{"text":"?"}`); resp.StatusCode != 404 {
		t.Fatal("writing to a deleted account", resp.StatusCode)
	}
}

package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// liveApp is the app with real accounts, the event hub, the chat room and
// notifications, and three accounts: ann and bob (users), root (admin).
type liveApp struct {
	*testApp
	auth   *auth.Service
	hub    *events.Hub
	notify *notify.Service
	audit  *audit.Service
	chat   *chat.Service
	tok    map[string]string
	id     map[string]uint64
}

func newLiveApp(t *testing.T, mutate func(*config.Config)) *liveApp {
	t.Helper()
	st := storetest.Open(t)
	cfg := config.Default()
	cfg.Auth.JWTSecret = authTestSecret
	cfg.Events.Heartbeat = time.Second
	if mutate != nil {
		mutate(&cfg)
	}
	a := newTestAuth(t, st, cfg.Auth)
	var err error
	la := &liveApp{auth: a, tok: map[string]string{}, id: map[string]uint64{}}
	la.hub = events.NewHub(eventsOptions(cfg.Events, nil))
	t.Cleanup(la.hub.Close)
	if la.notify, err = notify.New(st, la.hub); err != nil {
		t.Fatal(err)
	}
	if la.audit, err = audit.New(st, 0, nil); err != nil {
		t.Fatal(err)
	}
	if la.chat, err = chat.New(st, chat.Options{MaxMessages: cfg.Chat.MaxMessages, MaxBytes: cfg.Chat.MaxBytes,
		MaxLength: cfg.Chat.MaxLength, RatePerMinute: cfg.Chat.RatePerMinute}); err != nil {
		t.Fatal(err)
	}
	la.testApp = newTestApp(t, func(o *Options) {
		o.Config = cfg
		o.Services = &Services{Store: st, Auth: a, Authenticate: a.Authenticate, Audit: la.audit,
			Events: la.hub, Notify: la.notify, Chat: la.chat}
	})
	for _, u := range []struct{ name, role string }{{"ann", auth.RoleUser}, {"bob", auth.RoleUser}, {"root", auth.RoleAdmin}} {
		email := u.name + "@example.com"
		created, err := a.CreateUser(context.Background(), auth.NewUser{Email: email, Name: u.name, Password: "correct horse battery", Role: u.role})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Login(context.Background(), email, "correct horse battery", auth.Client{})
		if err != nil {
			t.Fatal(err)
		}
		la.tok[u.name], la.id[u.name] = res.Tokens.AccessToken, created.ID
	}
	return la
}

// sseEvent is one event read from a stream.
type sseEvent struct {
	ID   string
	Type string
	Data string
}

// sseClient reads one open stream.
type sseClient struct {
	resp   *http.Response
	events chan sseEvent
}

// openStream opens GET /api/events on the listening app base with token
// and the extra headers; it fails the test unless the answer is 200.
func openStream(t *testing.T, base, token string, hdr map[string]string) *sseClient {
	t.Helper()
	resp, err := streamRequest(t, base, token, hdr)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	c := &sseClient{resp: resp, events: make(chan sseEvent, 256)}
	go func() {
		defer close(c.events)
		r := bufio.NewReader(resp.Body)
		var ev sseEvent
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case line == "":
				if ev.Type != "" {
					c.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Type = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.Data = line[6:]
			}
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return c
}

func streamRequest(t *testing.T, base, token string, hdr map[string]string) (*http.Response, error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/api/events", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
}

// next waits for the next event of a type in types (others are skipped) and
// fails the test when the stream ends or none comes within 10 s.
func (c *sseClient) next(t *testing.T, types ...string) sseEvent {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				t.Fatalf("stream ended, waiting for %v", types)
			}
			for _, typ := range types {
				if ev.Type == typ {
					return ev
				}
			}
		case <-deadline:
			t.Fatalf("no %v event", types)
		}
	}
}

// ended waits for the stream to end and returns the types it sent last.
func (c *sseClient) ended(t *testing.T) []string {
	t.Helper()
	var seen []string
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				return seen
			}
			seen = append(seen, ev.Type)
		case <-deadline:
			t.Fatalf("stream still open; saw %v", seen)
		}
	}
}

func (la *liveApp) post(t *testing.T, base, token, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, b := overTCP(t, req)
	return resp.StatusCode, string(b)
}

func TestEventStreamFiltering(t *testing.T) {
	la := newLiveApp(t, nil)
	base := la.listen(t)
	ann := openStream(t, base, la.tok["ann"], nil)
	if ct := ann.resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") ||
		ann.resp.Header.Get("Cache-Control") != "private, no-cache, no-transform" || ann.resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("headers %v", ann.resp.Header)
	}
	bob := openStream(t, base, la.tok["bob"], map[string]string{"Accept-Encoding": "gzip, br"})
	if bob.resp.Header.Get("Content-Encoding") != "" {
		t.Fatal("the stream was compressed")
	}
	// bob sees ann arrive and himself.
	if ev := bob.next(t, "presence"); !strings.Contains(ev.Data, `"online":true`) {
		t.Fatalf("presence %s", ev.Data)
	}
	// A notification for ann alone, then a chat message for everyone.
	if err := la.notify.Add(context.Background(), la.id["ann"], notify.KindDM, map[string]string{"secret": "for ann"}); err != nil {
		t.Fatal(err)
	}
	la.hub.Publish("dm.message", []uint64{la.id["ann"]}, map[string]string{"text": "for ann"})
	if code, body := la.post(t, base, la.tok["bob"], "/api/chat/messages", `{"text":"hi all <b>"}`); code != http.StatusCreated {
		t.Fatalf("post %d %s", code, body)
	}
	if ev := ann.next(t, "notification"); !strings.Contains(ev.Data, "for ann") {
		t.Fatalf("ann's notification %s", ev.Data)
	}
	ann.next(t, "dm.message")
	var m chat.Message
	if err := json.Unmarshal([]byte(ann.next(t, "chat.message").Data), &m); err != nil || m.Text != "hi all <b>" || m.Author.Name != "bob" {
		t.Fatalf("ann's chat message %+v %v", m, err)
	}
	// bob receives the chat message and nothing addressed to ann, which was sent before it.
	if ev := bob.next(t, "chat.message", "notification", "dm.message"); ev.Type != "chat.message" {
		t.Fatalf("bob received ann's %s: %s", ev.Type, ev.Data)
	}
}

func TestEventStreamResume(t *testing.T) {
	la := newLiveApp(t, func(c *config.Config) { c.Events.Buffer = 4 })
	base := la.listen(t)
	first := openStream(t, base, la.tok["ann"], nil)
	la.hub.Publish("one", []uint64{la.id["ann"]}, 1)
	la.hub.Publish("bobs", []uint64{la.id["bob"]}, 2)
	la.hub.Publish("two", nil, 3)
	one := first.next(t, "one")
	first.resp.Body.Close()

	t.Run("missed events come first, only the user's", func(t *testing.T) {
		c := openStream(t, base, la.tok["ann"], map[string]string{"Last-Event-ID": one.ID})
		if ev := c.next(t, "two", "bobs", "resync"); ev.Type != "two" {
			t.Fatalf("got %s", ev.Type)
		}
	})
	t.Run("an id that is not one of ours asks for a resync", func(t *testing.T) {
		c := openStream(t, base, la.tok["ann"], map[string]string{"Last-Event-ID": "garbage"})
		c.next(t, "resync")
	})
	t.Run("a gap older than the buffer asks for a resync", func(t *testing.T) {
		for i := range 5 {
			la.hub.Publish("filler", nil, i)
		}
		c := openStream(t, base, la.tok["ann"], map[string]string{"Last-Event-ID": one.ID})
		if ev := c.next(t, "resync", "two", "filler"); ev.Type != "resync" {
			t.Fatalf("got %s before resync", ev.Type)
		}
	})
}

func TestEventStreamTokenExpiry(t *testing.T) {
	la := newLiveApp(t, func(c *config.Config) { c.Auth.AccessTTL = 2 * time.Second })
	base := la.listen(t)
	c := openStream(t, base, la.tok["ann"], nil)
	seen := c.ended(t)
	if len(seen) == 0 || seen[len(seen)-1] != "reauth" {
		t.Fatalf("stream ended after %v, want reauth last", seen)
	}
	// The expired token opens no new stream.
	resp, err := streamRequest(t, base, la.tok["ann"], nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("expired token: %d", resp.StatusCode)
	}
}

// A session ended while its stream is open (here: every session revoked)
// ends the stream at the next heartbeat, not only when the token expires.
func TestEventStreamEndsWithItsSession(t *testing.T) {
	la := newLiveApp(t, nil)
	base := la.listen(t)
	c := openStream(t, base, la.tok["ann"], nil)
	if _, err := la.auth.RevokeSessions(context.Background(), "ann@example.com"); err != nil {
		t.Fatal(err)
	}
	seen := c.ended(t)
	if len(seen) == 0 || seen[len(seen)-1] != "reauth" {
		t.Fatalf("stream ended after %v, want reauth last", seen)
	}
}

func TestEventStreamLimits(t *testing.T) {
	la := newLiveApp(t, func(c *config.Config) { c.Events.MaxStreamsPerUser = 2; c.Events.MaxStreams = 3 })
	base := la.listen(t)
	a1, a2 := openStream(t, base, la.tok["ann"], nil), openStream(t, base, la.tok["ann"], nil)
	tests := []struct {
		name, user string
	}{
		{"third stream of one account", "ann"},
		{"fourth stream in all", "root"},
	}
	openStream(t, base, la.tok["bob"], nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := streamRequest(t, base, la.tok[tt.user], nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
				!strings.Contains(string(body), `"status":429`) {
				t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, body)
			}
		})
	}
	la.hub.Publish("still", nil, 0)
	a1.next(t, "still")
	a2.next(t, "still")
	// Guests have no stream.
	resp, _ := streamRequest(t, base, "", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("guest: %d", resp.StatusCode)
	}
}

func TestEventStreamSlowReaderDropped(t *testing.T) {
	la := newLiveApp(t, nil)
	base := la.listen(t)
	conn := dialApp(t, base)
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n", la.tok["ann"])
	waitFor(t, "ann online", func() bool { return la.hub.IsOnline(la.id["ann"]) })
	// The client reads nothing; events pile up until the hub drops it.
	big := strings.Repeat("x", 64<<10)
	for i := 0; la.hub.IsOnline(la.id["ann"]); i++ {
		if i > 20000 {
			t.Fatal("a stream that reads nothing was never dropped")
		}
		la.hub.Publish("big", []uint64{la.id["ann"]}, big)
	}
	// Its connection is closed: what was sent can be read, then it ends (a
	// stream that ended on its own would leave the connection open for the
	// next request).
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	n, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("connection still open after %d bytes", n)
	}
}

func TestEventStreamShutdown(t *testing.T) {
	la := newLiveApp(t, nil)
	base := la.listen(t)
	c := openStream(t, base, la.tok["ann"], nil)
	waitFor(t, "the stream open", func() bool { return la.hub.Streams() == 1 })
	la.hub.Close()
	if seen := c.ended(t); len(seen) == 0 || seen[len(seen)-1] != "bye" {
		t.Fatalf("stream ended after %v, want bye", seen)
	}
}

func TestChatRoutes(t *testing.T) {
	la := newLiveApp(t, func(c *config.Config) { c.Chat.MaxLength = 20; c.Chat.RatePerMinute = 3 })
	tokAnn, tokBob, tokRoot := la.tok["ann"], la.tok["bob"], la.tok["root"]
	bobID := strconv.FormatUint(la.id["bob"], 10)
	same := func(*testing.T) *testApp { return la.testApp }
	runScenarios(t, same, []apiScenario{
		{Name: "guest reads nothing", URL: "/api/chat/messages", ExpectedStatus: 401},
		{Name: "guest posts nothing", Method: "POST", URL: "/api/chat/messages", Body: `{"text":"hi"}`, ExpectedStatus: 401},
		{Name: "user posts", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":"  hello @bob  "}`,
			ExpectedStatus: 201, ExpectedContent: []string{`"text":"hello @bob"`, `"author":{"id":`, `"name":"ann"`}},
		{Name: "markup stays text", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":"<img src=x onerror>"}`,
			ExpectedStatus: 201, NotExpectedContent: []string{"<img"}, AfterTest: func(t *testing.T, _ *http.Response, body string) {
				var m chat.Message
				if json.Unmarshal([]byte(body), &m) != nil || m.Text != "<img src=x onerror>" {
					t.Fatalf("text %q", m.Text)
				}
			}},
		{Name: "empty is ignored", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":"   \n"}`, ExpectedStatus: 204},
		{Name: "too long", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":"123456789012345678901"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"text":{"code":"too_long"`}},
		{Name: "not json", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":`, ExpectedStatus: 400},
		{Name: "user over the rate", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":"third"}`, ExpectedStatus: 201},
		{Name: "user over the rate", Method: "POST", URL: "/api/chat/messages", Token: tokAnn, Body: `{"text":"fourth"}`,
			ExpectedStatus: 429, ExpectedHeaders: map[string]string{"Retry-After": "20"}},
		{Name: "history", URL: "/api/chat/messages?limit=2", Token: tokBob, ExpectedStatus: 200,
			ExpectedContent: []string{`"text":"third"`, `"next":`}, NotExpectedContent: []string{"hello"}},
		{Name: "older page", URL: "/api/chat/messages?before=2", Token: tokBob, ExpectedStatus: 200,
			ExpectedContent: []string{"hello @bob"}, NotExpectedContent: []string{"third", `"next"`}},
		{Name: "bad before", URL: "/api/chat/messages?before=x", Token: tokBob, ExpectedStatus: 400},
		{Name: "user may not delete", Method: "DELETE", URL: "/api/chat/messages/1", Token: tokBob, ExpectedStatus: 403},
		{Name: "admin deletes", Method: "DELETE", URL: "/api/chat/messages/1", Token: tokRoot, ExpectedStatus: 204},
		{Name: "deleted is gone", Method: "DELETE", URL: "/api/chat/messages/1", Token: tokRoot, ExpectedStatus: 404},
		{Name: "no such id", Method: "DELETE", URL: "/api/chat/messages/abc", Token: tokRoot, ExpectedStatus: 404},
		{Name: "user may not mute", Method: "POST", URL: "/api/chat/mutes", Token: tokAnn, Body: `{"userId":` + bobID + `,"minutes":5}`, ExpectedStatus: 403},
		{Name: "mute needs minutes", Method: "POST", URL: "/api/chat/mutes", Token: tokRoot, Body: `{"userId":` + bobID + `}`, ExpectedStatus: 400},
		{Name: "mute of nobody", Method: "POST", URL: "/api/chat/mutes", Token: tokRoot, Body: `{"userId":999,"minutes":5}`, ExpectedStatus: 404},
		{Name: "admin mutes bob", Method: "POST", URL: "/api/chat/mutes", Token: tokRoot, Body: `{"userId":` + bobID + `,"minutes":5}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"until":"`}},
		{Name: "muted bob may not post", Method: "POST", URL: "/api/chat/mutes", Token: tokBob, Body: `{"userId":1,"minutes":0}`, ExpectedStatus: 403},
		{Name: "muted bob's post", Method: "POST", URL: "/api/chat/messages", Token: tokBob, Body: `{"text":"let me"}`,
			ExpectedStatus: 403, ExpectedContent: []string{"muted"}},
		{Name: "mute lifted", Method: "POST", URL: "/api/chat/mutes", Token: tokRoot, Body: `{"userId":` + bobID + `,"minutes":0}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"until":null`}},
		{Name: "bob posts again", Method: "POST", URL: "/api/chat/messages", Token: tokBob, Body: `{"text":"thanks"}`, ExpectedStatus: 201},
		{Name: "who is online", URL: "/api/chat/online", Token: tokBob, ExpectedStatus: 200, ExpectedContent: []string{`"users":[]`}},
	})
	// The deletion and the mutes are in the audit log, with what was deleted.
	evs, _, err := la.audit.List(context.Background(), audit.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range evs {
		types = append(types, e.Type)
		if e.Type == "chat.deleted" && (e.Actor != "root@example.com" || e.Details["text"] != "hello @bob") {
			t.Fatalf("audit %+v", e)
		}
	}
	if got := strings.Join(types, ","); got != "chat.muted,chat.muted,chat.deleted" {
		t.Fatalf("audit %s", got)
	}
	// bob was mentioned.
	if p, _ := la.notify.List(la.id["bob"], 0, 0); len(p.Items) != 1 || p.Items[0].Kind != notify.KindMention {
		t.Fatalf("bob's notifications %+v", p)
	}
}

func TestNotificationRoutes(t *testing.T) {
	la := newLiveApp(t, nil)
	ctx := context.Background()
	for range 3 {
		la.notify.Add(ctx, la.id["ann"], notify.KindForumReply, map[string]int{"thread": 1})
	}
	la.notify.Add(ctx, la.id["bob"], notify.KindDM, nil)
	tok := la.tok["ann"]
	same := func(*testing.T) *testApp { return la.testApp }
	runScenarios(t, same, []apiScenario{
		{Name: "guest", URL: "/api/notifications", ExpectedStatus: 401},
		{Name: "list", URL: "/api/notifications", Token: tok, ExpectedStatus: 200,
			ExpectedContent: []string{`"unread":3`, `"kind":"forum.reply"`}, NotExpectedContent: []string{"dm.message"}},
		{Name: "page", URL: "/api/notifications?limit=2", Token: tok, ExpectedStatus: 200, ExpectedContent: []string{`"next":2`}},
		{Name: "read nothing named", Method: "POST", URL: "/api/notifications/read", Token: tok, Body: `{}`, ExpectedStatus: 400},
		{Name: "read one", Method: "POST", URL: "/api/notifications/read", Token: tok, Body: `{"ids":[1]}`,
			ExpectedStatus: 200, ExpectedContent: []string{`{"unread":2}`}},
		{Name: "another's id is no read", Method: "POST", URL: "/api/notifications/read", Token: la.tok["bob"], Body: `{"ids":[2,3]}`,
			ExpectedStatus: 200, ExpectedContent: []string{`{"unread":1}`}},
		{Name: "read all", Method: "POST", URL: "/api/notifications/read", Token: tok, Body: `{"all":true}`,
			ExpectedStatus: 200, ExpectedContent: []string{`{"unread":0}`}},
		{Name: "settings", URL: "/api/notifications/settings", Token: tok, ExpectedStatus: 200, ExpectedContent: []string{`"mention":true`}},
		{Name: "unknown kind", Method: "PATCH", URL: "/api/notifications/settings", Token: tok, Body: `{"spam":false}`, ExpectedStatus: 400},
		{Name: "not a boolean", Method: "PATCH", URL: "/api/notifications/settings", Token: tok, Body: `{"mention":"no"}`, ExpectedStatus: 400},
		{Name: "turn mentions off", Method: "PATCH", URL: "/api/notifications/settings", Token: tok, Body: `{"mention":false}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"mention":false`, `"dm.message":true`}},
	})
}

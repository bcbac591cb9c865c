package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// discussApp is the app with real accounts, a blog with one article,
// comments and the forum, and notifications; tokens of an admin, two users
// ("alice", "bob") and a blocked account, each signed in from its own address.
type discussApp struct {
	*testApp
	auth    *auth.Service
	discuss *discuss.Service
	notify  *notify.Service
	clock   *time.Time
	ids     map[string]uint64
	tokens  map[string]string
}

func newDiscussApp(t *testing.T, mutate func(*discuss.Options)) *discussApp {
	t.Helper()
	st := storetest.Open(t)
	cfg := config.Default()
	cfg.Auth.JWTSecret = authTestSecret
	authSvc := newTestAuth(t, st, cfg.Auth)
	b, err := blog.New(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Create(context.Background(), blog.Input{Name: "First", Excerpt: "e", Category: "Go", Content: "body"}); err != nil {
		t.Fatal(err)
	}
	opts := discuss.DefaultOptions()
	opts.NewAccountAge = 0
	if mutate != nil {
		mutate(&opts)
	}
	d, err := discuss.New(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	clock := &now
	d.SetClock(func() time.Time { return *clock })
	n, err := notify.New(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	auditSvc, err := audit.New(st, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	da := &discussApp{auth: authSvc, discuss: d, notify: n, clock: clock, ids: map[string]uint64{}, tokens: map[string]string{}}
	for i, name := range []string{"admin", "alice", "bob", "mallory"} {
		role := auth.RoleUser
		if name == "admin" {
			role = auth.RoleAdmin
		}
		u, err := authSvc.CreateUser(context.Background(), auth.NewUser{Email: name + "@example.com", Name: name, Password: "correct horse battery", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		res, err := authSvc.Login(context.Background(), u.Email, "correct horse battery", auth.Client{})
		if err != nil {
			t.Fatal(err)
		}
		da.ids[name], da.tokens[name] = u.ID, res.Tokens.AccessToken
		_ = i
	}
	if _, err := d.BlockUser(context.Background(), da.ids["mallory"], "mallory"); err != nil {
		t.Fatal(err)
	}
	da.testApp = newTestApp(t, func(o *Options) {
		o.Config = cfg
		o.Services = &Services{Store: st, Auth: authSvc, Authenticate: authSvc.Authenticate, Blog: b, Discuss: d, Notify: n, Audit: auditSvc}
	})
	return da
}

// call sends one request as who ("" is a guest) from address ip and
// decodes the answer into out when given.
func (da *discussApp) call(t *testing.T, who, method, path, body string, out any) int {
	t.Helper()
	resp, raw := da.do(t, jsonRequest(method, path, da.tokens[who], body))
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return resp.StatusCode
}

func (da *discussApp) mustCall(t *testing.T, who, method, path, body string, want int, out any) {
	t.Helper()
	if got := da.call(t, who, method, path, body, out); got != want {
		t.Fatalf("%s %s as %q: status %d, want %d", method, path, who, got, want)
	}
}

// startedThread is the answer to starting a thread: the thread and its
// first post.
type startedThread struct {
	Thread discuss.Thread
	Posts  []discuss.Post
}

// startThread starts a thread in category cat as who, from the JSON body.
func (da *discussApp) startThread(t *testing.T, who string, cat uint64, body string) startedThread {
	t.Helper()
	var v startedThread
	da.mustCall(t, who, "POST", fmt.Sprintf("/api/forum/categories/%d/threads", cat), body, 201, &v)
	return v
}

// category adds a forum category and returns its id.
func (da *discussApp) category(t *testing.T) uint64 {
	t.Helper()
	var c discuss.Category
	da.mustCall(t, "admin", "POST", "/api/forum/categories", `{"name":"General","names":{"uk":"Загальне"}}`, 201, &c)
	return c.ID
}

func (da *discussApp) notifications(t *testing.T, who, kind string) int {
	t.Helper()
	page, err := da.notify.List(da.ids[who], 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range page.Items {
		if it.Kind == kind {
			n++
		}
	}
	return n
}

// Who may do what with comments: a table over every comment route.
func TestDiscussCommentAccess(t *testing.T) {
	da := newDiscussApp(t, nil)
	var first discuss.Comment
	// alice's first comment waits (moderation first); the admin's is published.
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"Hello **world**"}`, 201, &first)
	if first.Status != discuss.Pending {
		t.Fatalf("first comment status %q", first.Status)
	}
	var adminC discuss.Comment
	da.mustCall(t, "admin", "POST", "/api/blog/1/comments", `{"content":"welcome"}`, 201, &adminC)
	id := fmt.Sprint(first.ID)
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "guest reads published only", URL: "/api/blog/1/comments", ExpectedStatus: 200,
			ExpectedContent: []string{`"welcome`}, NotExpectedContent: []string{"Hello"}},
		{Name: "author sees own pending", URL: "/api/blog/1/comments", Token: da.tokens["alice"], ExpectedStatus: 200,
			ExpectedContent: []string{`\u003cstrong\u003eworld`, `"status":"pending"`}},
		{Name: "other user does not", URL: "/api/blog/1/comments", Token: da.tokens["bob"], ExpectedStatus: 200,
			NotExpectedContent: []string{"Hello"}},
		{Name: "admin sees pending", URL: "/api/blog/1/comments", Token: da.tokens["admin"], ExpectedStatus: 200,
			ExpectedContent: []string{"Hello"}},
		{Name: "unknown article", URL: "/api/blog/99/comments", ExpectedStatus: 404},
		{Name: "guest cannot post", Method: "POST", URL: "/api/blog/1/comments", Body: `{"content":"x"}`, ExpectedStatus: 401},
		{Name: "blocked account refused", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["mallory"], Body: `{"content":"x"}`, ExpectedStatus: 403},
		{Name: "empty refused", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["bob"], Body: `{"content":"   "}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"content"`, `"required"`}},
		{Name: "bad JSON", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["bob"], Body: `{"content":`, ExpectedStatus: 400},
		{Name: "on unknown article", Method: "POST", URL: "/api/blog/99/comments", Token: da.tokens["bob"], Body: `{"content":"x"}`, ExpectedStatus: 404},
		{Name: "reply to unknown parent", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["bob"], Body: `{"content":"x","parentId":999}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"parentId"`}},
		{Name: "others cannot approve", Method: "POST", URL: "/api/comments/" + id + "/approve", Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "guest cannot approve", Method: "POST", URL: "/api/comments/" + id + "/approve", ExpectedStatus: 401},
		{Name: "other user cannot edit", Method: "PATCH", URL: "/api/comments/" + id, Token: da.tokens["bob"], Body: `{"content":"x"}`, ExpectedStatus: 404},
		{Name: "other user cannot delete a published one", Method: "DELETE", URL: fmt.Sprintf("/api/comments/%d", adminC.ID), Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "author edits", Method: "PATCH", URL: "/api/comments/" + id, Token: da.tokens["alice"], Body: `{"content":"edited"}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"content":"edited"`, `"editedAt"`}},
		{Name: "admin approves", Method: "POST", URL: "/api/comments/" + id + "/approve", Token: da.tokens["admin"], ExpectedStatus: 200,
			ExpectedContent: []string{`"status":"published"`}},
		{Name: "guest now reads it", URL: "/api/blog/1/comments", ExpectedStatus: 200, ExpectedContent: []string{"edited"}},
		{Name: "counts", URL: "/api/comments/counts?ids=1,2", ExpectedStatus: 200, ExpectedContent: []string{`"1":2`, `"2":0`}},
		{Name: "counts bad ids", URL: "/api/comments/counts?ids=1,x", ExpectedStatus: 400},
		{Name: "admin hides", Method: "POST", URL: "/api/comments/" + id + "/hide", Token: da.tokens["admin"], ExpectedStatus: 200,
			ExpectedContent: []string{`"status":"hidden"`}},
		{Name: "hidden gone for its author", URL: "/api/blog/1/comments", Token: da.tokens["alice"], ExpectedStatus: 200, NotExpectedContent: []string{"edited"}},
		{Name: "user cannot close", Method: "PUT", URL: "/api/blog/1/comments/closed", Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "admin closes", Method: "PUT", URL: "/api/blog/1/comments/closed", Token: da.tokens["admin"], ExpectedStatus: 204},
		{Name: "closed is said", URL: "/api/blog/1/comments", ExpectedStatus: 200, ExpectedContent: []string{`"closed":true`}},
		{Name: "closed refuses users", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["bob"], Body: `{"content":"x"}`, ExpectedStatus: 403},
		{Name: "admin reopens", Method: "DELETE", URL: "/api/blog/1/comments/closed", Token: da.tokens["admin"], ExpectedStatus: 204},
		{Name: "admin deletes any", Method: "DELETE", URL: "/api/comments/" + id, Token: da.tokens["admin"], ExpectedStatus: 204},
		{Name: "deleted is gone", Method: "DELETE", URL: "/api/comments/" + id, Token: da.tokens["admin"], ExpectedStatus: 404},
		{Name: "queue is admins'", URL: "/api/moderation/queue", Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "blocks are admins'", URL: "/api/moderation/blocks", Token: da.tokens["admin"], ExpectedStatus: 200, ExpectedContent: []string{`"name":"mallory"`}},
		{Name: "an admin cannot be blocked", Method: "PUT", URL: fmt.Sprintf("/api/moderation/blocks/%d", da.ids["admin"]), Token: da.tokens["admin"], ExpectedStatus: 409},
		{Name: "user cannot block", Method: "PUT", URL: fmt.Sprintf("/api/moderation/blocks/%d", da.ids["bob"]), Token: da.tokens["alice"], ExpectedStatus: 403},
		{Name: "unblock", Method: "DELETE", URL: fmt.Sprintf("/api/moderation/blocks/%d", da.ids["mallory"]), Token: da.tokens["admin"], ExpectedStatus: 204},
		{Name: "unblocked may post", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["mallory"], Body: `{"content":"sorry"}`, ExpectedStatus: 201},
	})
}

// Replies go one level deep, the reply notifies the parent's author once
// published, and a new comment notifies the admins.
func TestDiscussCommentRepliesAndNotifications(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) { o.Comments.Moderation = discuss.ModeNone })
	var top, reply discuss.Comment
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"top"}`, 201, &top)
	da.mustCall(t, "bob", "POST", "/api/blog/1/comments", fmt.Sprintf(`{"content":"reply","parentId":%d}`, top.ID), 201, &reply)
	if reply.ParentID == nil || *reply.ParentID != top.ID {
		t.Fatalf("reply parent %v", reply.ParentID)
	}
	if got := da.call(t, "alice", "POST", "/api/blog/1/comments", fmt.Sprintf(`{"content":"deeper","parentId":%d}`, reply.ID), nil); got != 400 {
		t.Fatalf("reply to a reply: %d, want 400", got)
	}
	if n := da.notifications(t, "alice", notify.KindCommentReply); n != 1 {
		t.Fatalf("alice has %d comment.reply notifications, want 1", n)
	}
	if n := da.notifications(t, "admin", notify.KindCommentNew); n != 2 {
		t.Fatalf("admin has %d comment.new notifications, want 2", n)
	}
	// Deleting the top comment takes its replies.
	da.mustCall(t, "alice", "DELETE", fmt.Sprintf("/api/comments/%d", top.ID), "", 204, nil)
	var list discuss.Comments
	da.mustCall(t, "", "GET", "/api/blog/1/comments", "", 200, &list)
	if len(list.Comments) != 0 {
		t.Fatalf("comments left: %+v", list.Comments)
	}
}

// Moderation modes decide a new item's status.
// Deleting an article deletes its comments: none stays waiting in the
// moderation queue for an article that is gone.
func TestDiscussArticleDeletionTakesItsComments(t *testing.T) {
	da := newDiscussApp(t, nil)
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"first!"}`, 201, nil)
	var queue struct{ Items []json.RawMessage }
	da.mustCall(t, "admin", "GET", "/api/moderation/queue", "", 200, &queue)
	if len(queue.Items) != 1 {
		t.Fatalf("queue before: %d items", len(queue.Items))
	}
	da.mustCall(t, "admin", "DELETE", "/api/blog/1", "", 204, nil)
	queue.Items = nil
	da.mustCall(t, "admin", "GET", "/api/moderation/queue", "", 200, &queue)
	if len(queue.Items) != 0 {
		t.Fatalf("the deleted article's comment still waits: %d items", len(queue.Items))
	}
	da.mustCall(t, "alice", "GET", "/api/blog/1/comments", "", 404, nil)
}

func TestDiscussModerationModes(t *testing.T) {
	tests := []struct {
		mode         discuss.Mode
		first, after discuss.Status
	}{
		{discuss.ModeFirst, discuss.Pending, discuss.Published},
		{discuss.ModeAll, discuss.Pending, discuss.Pending},
		{discuss.ModeNone, discuss.Published, discuss.Published},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			da := newDiscussApp(t, func(o *discuss.Options) { o.Comments.Moderation = tt.mode; o.Forum.Moderation = tt.mode })
			var c discuss.Comment
			da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"one"}`, 201, &c)
			if c.Status != tt.first {
				t.Fatalf("first: %s, want %s", c.Status, tt.first)
			}
			if c.Status == discuss.Pending {
				var q struct{ Items []discuss.QueueItem }
				da.mustCall(t, "admin", "GET", "/api/moderation/queue", "", 200, &q)
				if len(q.Items) != 1 || q.Items[0].Kind != "comment" || q.Items[0].ID != c.ID {
					t.Fatalf("queue %+v", q.Items)
				}
				da.mustCall(t, "admin", "POST", fmt.Sprintf("/api/comments/%d/approve", c.ID), "", 200, nil)
			}
			// The forum shares the trust an approved comment earned.
			cat := da.category(t)
			v := da.startThread(t, "alice", cat, `{"title":"T","content":"c"}`)
			if v.Thread.Status != tt.after {
				t.Fatalf("after approval: %s, want %s", v.Thread.Status, tt.after)
			}
		})
	}
}

// Rates per account and per network answer 429 with Retry-After; the link
// cap and the size limit are 400s naming the field.
func TestDiscussSpamGuards(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) {
		o.Comments.Moderation = discuss.ModeNone
		o.RatePerUser, o.RatePerNetwork = 2, 3
		o.Comments.MaxBytes, o.Comments.MaxLinks = 100, 2
	})
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "too many links", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["alice"],
			Body: `{"content":"https://a.example https://b.example https://c.example"}`, ExpectedStatus: 400, ExpectedContent: []string{"too_many_links"}},
		{Name: "too long", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["alice"],
			Body: `{"content":"` + strings.Repeat("a", 101) + `"}`, ExpectedStatus: 400, ExpectedContent: []string{"too_long"}},
		{Name: "1st", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["alice"], Body: `{"content":"1"}`, ExpectedStatus: 201},
		{Name: "2nd", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["alice"], Body: `{"content":"2"}`, ExpectedStatus: 201},
		{Name: "3rd per user", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["alice"], Body: `{"content":"3"}`,
			ExpectedStatus: 429, AfterTest: func(t *testing.T, resp *http.Response, _ string) {
				if resp.Header.Get("Retry-After") == "" {
					t.Error("no Retry-After")
				}
			}},
		{Name: "another user, same network", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["bob"], Body: `{"content":"b"}`, ExpectedStatus: 201},
		{Name: "network spent", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["bob"], Body: `{"content":"b2"}`, ExpectedStatus: 429},
		{Name: "admins are not limited", Method: "POST", URL: "/api/blog/1/comments", Token: da.tokens["admin"], Body: `{"content":"a"}`, ExpectedStatus: 201},
	})
	// A minute later the rate is earned back.
	*da.clock = da.clock.Add(time.Minute)
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"later"}`, 201, nil)
}

// New accounts may post fewer links.
func TestDiscussNewAccountLinkCap(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) {
		o.Comments.Moderation = discuss.ModeNone
		o.NewAccountAge, o.NewAccountMaxLinks = time.Hour, 0
	})
	if got := da.call(t, "alice", "POST", "/api/blog/1/comments", `{"content":"https://a.example"}`, nil); got != 400 {
		t.Fatalf("new account's link: %d, want 400", got)
	}
	*da.clock = da.clock.Add(2 * time.Hour)
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"https://a.example"}`, 201, nil)
}

// An author edits for 15 minutes, not after.
func TestDiscussEditWindow(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) {
		o.Comments.Moderation = discuss.ModeNone
		o.Forum.Moderation = discuss.ModeNone
	})
	var c discuss.Comment
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"v1"}`, 201, &c)
	cat := da.category(t)
	v := da.startThread(t, "alice", cat, `{"title":"T","content":"p1"}`)
	post := v.Posts[0].ID
	*da.clock = da.clock.Add(14 * time.Minute)
	da.mustCall(t, "alice", "PATCH", fmt.Sprintf("/api/comments/%d", c.ID), `{"content":"v2"}`, 200, nil)
	da.mustCall(t, "alice", "PATCH", fmt.Sprintf("/api/forum/posts/%d", post), `{"content":"p2"}`, 200, nil)
	*da.clock = da.clock.Add(2 * time.Minute)
	da.mustCall(t, "alice", "PATCH", fmt.Sprintf("/api/comments/%d", c.ID), `{"content":"v3"}`, 403, nil)
	da.mustCall(t, "alice", "PATCH", fmt.Sprintf("/api/forum/posts/%d", post), `{"content":"p3"}`, 403, nil)
	// Deleting their own stays possible.
	da.mustCall(t, "alice", "DELETE", fmt.Sprintf("/api/comments/%d", c.ID), "", 204, nil)
}

// Visitors' text through the API is rendered safely.
func TestDiscussXSS(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) {
		o.Comments.Moderation = discuss.ModeNone
		o.Forum.Moderation = discuss.ModeNone
	})
	cat := da.category(t)
	for _, md := range []string{"<script>alert(1)</script>", `<img src=x onerror="alert(1)">`, "[x](javascript:alert(1))",
		"[x](JaVaScRiPt:alert(1))", "<javascript:alert(1)>", "![p](data:image/svg+xml;base64,PHN2Zz4=)", `<a href="https://e.example" onclick="x">a</a>`} {
		body, _ := json.Marshal(map[string]string{"content": md, "title": md})
		var c discuss.Comment
		da.mustCall(t, "alice", "POST", "/api/blog/1/comments", string(body), 201, &c)
		v := da.startThread(t, "alice", cat, string(body))
		*da.clock = da.clock.Add(time.Minute)
		for _, html := range []string{c.HTML, v.Posts[0].HTML} {
			lower := strings.ToLower(html)
			for _, bad := range []string{"<script", "<img", "onerror", `href="javascript`, "onclick", "svg+xml"} {
				if strings.Contains(lower, bad) {
					t.Errorf("%q rendered with %q: %s", md, bad, html)
				}
			}
		}
	}
	var c discuss.Comment
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"[site](https://e.example)"}`, 201, &c)
	if !strings.Contains(c.HTML, `rel="nofollow ugc noopener"`) {
		t.Fatalf("link without rel: %s", c.HTML)
	}
}

// Who may do what on the forum.
func TestDiscussForumAccess(t *testing.T) {
	da := newDiscussApp(t, nil)
	cat := da.category(t)
	pending := da.startThread(t, "alice", cat, `{"title":"Held thread","content":"hi"}`)
	adminThread := da.startThread(t, "admin", cat, `{"title":"Rules","content":"be kind"}`)
	c, held, open := fmt.Sprint(cat), fmt.Sprint(pending.Thread.ID), fmt.Sprint(adminThread.Thread.ID)
	heldPost := fmt.Sprint(pending.Posts[0].ID)
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "guest lists categories", URL: "/api/forum/categories", ExpectedStatus: 200, ExpectedContent: []string{`"uk":"Загальне"`, `"threads":1`}},
		{Name: "user cannot add a category", Method: "POST", URL: "/api/forum/categories", Token: da.tokens["alice"], Body: `{"name":"x"}`, ExpectedStatus: 403},
		{Name: "guest cannot add a category", Method: "POST", URL: "/api/forum/categories", Body: `{"name":"x"}`, ExpectedStatus: 401},
		{Name: "category needs a name", Method: "POST", URL: "/api/forum/categories", Token: da.tokens["admin"], Body: `{"name":" "}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"name"`}},
		{Name: "guest lists published threads", URL: "/api/forum/categories/" + c + "/threads", ExpectedStatus: 200,
			ExpectedContent: []string{"Rules", `"total":1`}, NotExpectedContent: []string{"Held thread"}},
		{Name: "author sees own held thread", URL: "/api/forum/categories/" + c + "/threads", Token: da.tokens["alice"], ExpectedStatus: 200,
			ExpectedContent: []string{"Held thread"}},
		{Name: "bad sort", URL: "/api/forum/categories/" + c + "/threads?sort=best", ExpectedStatus: 400},
		{Name: "unknown category", URL: "/api/forum/categories/99/threads", ExpectedStatus: 404},
		{Name: "held thread is 404 to guests", URL: "/api/forum/threads/" + held, ExpectedStatus: 404},
		{Name: "held thread is 404 to others", URL: "/api/forum/threads/" + held, Token: da.tokens["bob"], ExpectedStatus: 404},
		{Name: "others cannot reply to it", Method: "POST", URL: "/api/forum/threads/" + held + "/posts", Token: da.tokens["bob"], Body: `{"content":"x"}`, ExpectedStatus: 404},
		{Name: "its author reads it", URL: "/api/forum/threads/" + held, Token: da.tokens["alice"], ExpectedStatus: 200, ExpectedContent: []string{`"following":true`}},
		{Name: "guest reads a thread", URL: "/api/forum/threads/" + open, ExpectedStatus: 200, ExpectedContent: []string{"be kind", `"following":false`}},
		{Name: "guest cannot start", Method: "POST", URL: "/api/forum/categories/" + c + "/threads", Body: `{"title":"x","content":"y"}`, ExpectedStatus: 401},
		{Name: "blocked cannot start", Method: "POST", URL: "/api/forum/categories/" + c + "/threads", Token: da.tokens["mallory"], Body: `{"title":"x","content":"y"}`, ExpectedStatus: 403},
		{Name: "title required", Method: "POST", URL: "/api/forum/categories/" + c + "/threads", Token: da.tokens["bob"], Body: `{"content":"y"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"title"`}},
		{Name: "blocked cannot reply", Method: "POST", URL: "/api/forum/threads/" + open + "/posts", Token: da.tokens["mallory"], Body: `{"content":"x"}`, ExpectedStatus: 403},
		{Name: "guest cannot reply", Method: "POST", URL: "/api/forum/threads/" + open + "/posts", Body: `{"content":"x"}`, ExpectedStatus: 401},
		{Name: "user cannot pin", Method: "PATCH", URL: "/api/forum/threads/" + open, Token: da.tokens["bob"], Body: `{"pinned":true}`, ExpectedStatus: 403},
		{Name: "admin locks", Method: "PATCH", URL: "/api/forum/threads/" + open, Token: da.tokens["admin"], Body: `{"locked":true,"pinned":true}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"locked":true`, `"pinned":true`}},
		{Name: "locked refuses users", Method: "POST", URL: "/api/forum/threads/" + open + "/posts", Token: da.tokens["bob"], Body: `{"content":"x"}`, ExpectedStatus: 403},
		{Name: "locked takes admins", Method: "POST", URL: "/api/forum/threads/" + open + "/posts", Token: da.tokens["admin"], Body: `{"content":"noted"}`, ExpectedStatus: 201},
		{Name: "flags need a field", Method: "PATCH", URL: "/api/forum/threads/" + open, Token: da.tokens["admin"], Body: `{}`, ExpectedStatus: 400},
		{Name: "user cannot approve", Method: "POST", URL: "/api/forum/posts/" + heldPost + "/approve", Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "queue lists the held post", URL: "/api/moderation/queue", Token: da.tokens["admin"], ExpectedStatus: 200,
			ExpectedContent: []string{`"kind":"post"`, `"threadTitle":"Held thread"`}},
		{Name: "admin approves", Method: "POST", URL: "/api/forum/posts/" + heldPost + "/approve", Token: da.tokens["admin"], ExpectedStatus: 200},
		{Name: "now public", URL: "/api/forum/threads/" + held, ExpectedStatus: 200, ExpectedContent: []string{`"status":"published"`}},
		{Name: "other user cannot delete", Method: "DELETE", URL: "/api/forum/posts/" + heldPost, Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "other user cannot edit", Method: "PATCH", URL: "/api/forum/posts/" + heldPost, Token: da.tokens["bob"], Body: `{"content":"x"}`, ExpectedStatus: 403},
		{Name: "user cannot delete a thread", Method: "DELETE", URL: "/api/forum/threads/" + held, Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "guest cannot follow", Method: "PUT", URL: "/api/forum/threads/" + open + "/follow", ExpectedStatus: 401},
		{Name: "user follows", Method: "PUT", URL: "/api/forum/threads/" + open + "/follow", Token: da.tokens["bob"], ExpectedStatus: 204},
		{Name: "follow unknown", Method: "PUT", URL: "/api/forum/threads/99/follow", Token: da.tokens["bob"], ExpectedStatus: 404},
		{Name: "author deletes own first post and so the thread", Method: "DELETE", URL: "/api/forum/posts/" + heldPost, Token: da.tokens["alice"], ExpectedStatus: 204},
		{Name: "thread gone", URL: "/api/forum/threads/" + held, ExpectedStatus: 404},
		{Name: "admin deletes a thread", Method: "DELETE", URL: "/api/forum/threads/" + open, Token: da.tokens["admin"], ExpectedStatus: 204},
		{Name: "user cannot delete a category", Method: "DELETE", URL: "/api/forum/categories/" + c, Token: da.tokens["bob"], ExpectedStatus: 403},
		{Name: "admin renames a category", Method: "PATCH", URL: "/api/forum/categories/" + c, Token: da.tokens["admin"], Body: `{"name":"Talk"}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"name":"Talk"`, `"uk":"Загальне"`}},
		{Name: "admin deletes a category", Method: "DELETE", URL: "/api/forum/categories/" + c, Token: da.tokens["admin"], ExpectedStatus: 204},
		{Name: "search needs words", URL: "/api/forum/search", ExpectedStatus: 400},
	})
}

// Followers (the starter by default) are notified of published replies,
// never of their own; a held reply notifies once approved.
func TestDiscussFollowNotifications(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) { o.Forum.Moderation = discuss.ModeFirst })
	cat := da.category(t)
	v := da.startThread(t, "admin", cat, `{"title":"News","content":"x"}`)
	path := fmt.Sprintf("/api/forum/threads/%d", v.Thread.ID)
	da.mustCall(t, "alice", "PUT", path+"/follow", "", 204, nil)
	var held discuss.Post
	da.mustCall(t, "bob", "POST", path+"/posts", `{"content":"first reply"}`, 201, &held)
	if held.Status != discuss.Pending || da.notifications(t, "admin", notify.KindForumReply) != 0 {
		t.Fatalf("held reply announced (status %s)", held.Status)
	}
	da.mustCall(t, "admin", "POST", fmt.Sprintf("/api/forum/posts/%d/approve", held.ID), "", 200, nil)
	for who, want := range map[string]int{"admin": 1, "alice": 1, "bob": 0} {
		if n := da.notifications(t, who, notify.KindForumReply); n != want {
			t.Errorf("%s: %d forum.reply notifications, want %d", who, n, want)
		}
	}
	da.mustCall(t, "alice", "DELETE", path+"/follow", "", 204, nil)
	da.mustCall(t, "bob", "POST", path+"/posts", `{"content":"second"}`, 201, nil)
	if n := da.notifications(t, "alice", notify.KindForumReply); n != 1 {
		t.Errorf("alice unfollowed but has %d notifications", n)
	}
	if n := da.notifications(t, "admin", notify.KindForumReply); n != 2 {
		t.Errorf("starter has %d notifications, want 2", n)
	}
	var tv struct{ Thread discuss.Thread }
	da.mustCall(t, "", "GET", path, "", 200, &tv)
	if tv.Thread.Replies != 2 {
		t.Errorf("replies %d, want 2", tv.Thread.Replies)
	}
}

// Sorting, paging and search.
func TestDiscussForumListing(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) {
		o.Forum.Moderation = discuss.ModeNone
		o.RatePerUser = 0
		o.RatePerNetwork = 0
	})
	cat := da.category(t)
	ids := map[string]uint64{}
	for _, title := range []string{"Backup tips", "Emulator cores", "Tips for backup scripts"} {
		v := da.startThread(t, "alice", cat, fmt.Sprintf(`{"title":%q,"content":"about restore"}`, title))
		ids[title] = v.Thread.ID
		*da.clock = da.clock.Add(time.Minute)
	}
	da.mustCall(t, "bob", "POST", fmt.Sprintf("/api/forum/threads/%d/posts", ids["Backup tips"]), `{"content":"nice"}`, 201, nil)
	list := func(q string) []string {
		var out struct{ Threads []discuss.Thread }
		da.mustCall(t, "", "GET", q, "", 200, &out)
		var titles []string
		for _, th := range out.Threads {
			titles = append(titles, th.Title)
		}
		return titles
	}
	base := fmt.Sprintf("/api/forum/categories/%d/threads", cat)
	tests := []struct{ url, want string }{
		{base, "Tips for backup scripts,Emulator cores,Backup tips"},
		{base + "?sort=active", "Backup tips,Tips for backup scripts,Emulator cores"},
		{base + "?limit=1&page=2", "Emulator cores"},
		{"/api/forum/search?q=backup+tips", "Backup tips,Tips for backup scripts"},
		{"/api/forum/search?q=restore", "Tips for backup scripts,Emulator cores,Backup tips"},
		{"/api/forum/search?q=nice", "Backup tips"},
		{"/api/forum/search?q=nothing", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(list(tt.url), ","); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.url, got, tt.want)
		}
	}
	da.mustCall(t, "admin", "PATCH", fmt.Sprintf("/api/forum/threads/%d", ids["Emulator cores"]), `{"pinned":true}`, 200, nil)
	if got := strings.Join(list(base), ","); got != "Emulator cores,Tips for backup scripts,Backup tips" {
		t.Errorf("pinned first: %q", got)
	}
}

// Threads and posts page 20 at a time, and a limit above 100 is taken as
// none given (20), neither capped nor refused.
func TestDiscussForumPagingRule(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) {
		o.Forum.Moderation = discuss.ModeNone
		o.RatePerUser = 0
		o.RatePerNetwork = 0
	})
	cat := da.category(t)
	var first startedThread
	for i := range 21 {
		v := da.startThread(t, "alice", cat, fmt.Sprintf(`{"title":"Thread %d","content":"about it"}`, i))
		if i == 0 {
			first = v
		} else {
			da.mustCall(t, "bob", "POST", fmt.Sprintf("/api/forum/threads/%d/posts", first.Thread.ID), `{"content":"reply"}`, 201, nil)
		}
		*da.clock = da.clock.Add(time.Minute)
	}
	threads := fmt.Sprintf("/api/forum/categories/%d/threads", cat)
	posts := fmt.Sprintf("/api/forum/threads/%d", first.Thread.ID)
	for _, tt := range []struct {
		url          string
		items, total int
	}{
		{threads, 20, 21},
		{threads + "?page=2", 1, 21},
		{threads + "?limit=100", 21, 21},
		{threads + "?limit=101", 20, 21},
		{threads + "?limit=101&page=2", 1, 21},
		{posts, 20, 21},
		{posts + "?page=2", 1, 21},
		{posts + "?limit=101", 20, 21},
		{posts + "?limit=100", 21, 21},
	} {
		var out struct {
			Threads, Posts []json.RawMessage
			Total          int
		}
		da.mustCall(t, "", "GET", tt.url, "", 200, &out)
		if got := len(out.Threads) + len(out.Posts); got != tt.items || out.Total != tt.total {
			t.Errorf("%s: %d items of %d, want %d of %d", tt.url, got, out.Total, tt.items, tt.total)
		}
	}
}

// The Atom feed carries the newest published threads as escaped text.
func TestDiscussForumFeed(t *testing.T) {
	da := newDiscussApp(t, nil)
	cat := da.category(t)
	da.startThread(t, "admin", cat, `{"title":"<b>Hello</b>","content":"<script>x</script>"}`)
	da.startThread(t, "alice", cat, `{"title":"Held","content":"x"}`)
	resp, body := da.do(t, httptest.NewRequest("GET", "/forum/feed.xml", nil))
	out := string(body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/atom+xml") {
		t.Fatalf("feed: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.Contains(out, "&lt;b&gt;Hello&lt;/b&gt;") || strings.Contains(out, "<b>") || strings.Contains(out, "<script") {
		t.Fatalf("feed not escaped:\n%s", out)
	}
	if strings.Contains(out, "Held") {
		t.Fatalf("feed lists a held thread:\n%s", out)
	}
}

// Blocking an account hides what it has waiting.
func TestDiscussBlockHidesPending(t *testing.T) {
	da := newDiscussApp(t, nil)
	var c discuss.Comment
	da.mustCall(t, "bob", "POST", "/api/blog/1/comments", `{"content":"spam"}`, 201, &c)
	da.mustCall(t, "admin", "PUT", fmt.Sprintf("/api/moderation/blocks/%d", da.ids["bob"]), "", 204, nil)
	var q struct{ Items []discuss.QueueItem }
	da.mustCall(t, "admin", "GET", "/api/moderation/queue", "", 200, &q)
	if len(q.Items) != 0 {
		t.Fatalf("queue after block: %+v", q.Items)
	}
	if got := da.call(t, "bob", "POST", "/api/blog/1/comments", `{"content":"again"}`, nil); got != 403 {
		t.Fatalf("blocked comment: %d", got)
	}
}

// Deleting an account keeps what it published with the author shown as a
// deleted account, and removes what still waited.
func TestDiscussAccountDeletion(t *testing.T) {
	da := newDiscussApp(t, func(o *discuss.Options) { o.Comments.Moderation = discuss.ModeAll })
	var published, held discuss.Comment
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"kept"}`, 201, &published)
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"waiting"}`, 201, &held)
	da.mustCall(t, "admin", "POST", fmt.Sprintf("/api/comments/%d/approve", published.ID), "", 200, nil)
	cat := da.category(t)
	v := da.startThread(t, "admin", cat, `{"title":"T","content":"x"}`)
	da.mustCall(t, "alice", "PUT", fmt.Sprintf("/api/forum/threads/%d/follow", v.Thread.ID), "", 204, nil)

	da.mustCall(t, "admin", "DELETE", fmt.Sprintf("/api/auth/admin/users/%d", da.ids["alice"]), "", 204, nil)
	var list discuss.Comments
	da.mustCall(t, "admin", "GET", "/api/blog/1/comments", "", 200, &list)
	if len(list.Comments) != 1 || list.Comments[0].Content != "kept" || list.Comments[0].Author != (discuss.Author{}) {
		t.Fatalf("after deletion: %+v", list.Comments)
	}
	if f, _ := da.discuss.Followers(v.Thread.ID); len(f) != 1 {
		t.Fatalf("followers after deletion: %v", f)
	}
}

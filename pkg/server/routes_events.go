package server

import (
	"bufio"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/golang-jwt/jwt/v5"
	"github.com/valyala/fasthttp"

	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/store"
)

// The live event stream, GET /api/events (text/event-stream).
//
// A signed-in client holds one stream per tab, authenticated by its access
// token in the Authorization header. The stream carries only the events
// addressed to its account (events.Hub). Each event is written as
// "id: N\nevent: TYPE\ndata: JSON\n\n"; a comment line (": hb") is written
// every events.heartbeat so that a closed client is noticed (fasthttp learns
// of a closed socket only by writing to it) and proxies keep the line open.
// Beside the hub's event types the stream itself sends:
//   - resync: the Last-Event-ID the client sent is older than the events
//     kept (or from an earlier run of the server); reload what is shown.
//   - reauth: the access token expired; the stream ends, and the client
//     reconnects with a fresh token.
//   - bye: the server is stopping; reconnect in a moment.
//
// Pitfalls this follows (measured): the writer never touches fiber.Ctx (it
// is reused once the handler returns), it keeps the connection and the
// request's Done channel instead; "no-transform" keeps the compressing
// middleware off the stream; a stream the hub drops as too slow has its
// connection closed (OnDrop), since its writer may be blocked writing to a
// client that does not read; and server.write_timeout, when set, is lifted
// for this path, or it would cut every stream.

// eventsPath is the stream's path.
const eventsPath = "/api/events"

// streamWriteTimeout replaces server.write_timeout on the stream.
const streamWriteTimeout = 365 * 24 * time.Hour

// mountLive registers the event stream, the chat room and the
// notifications.
func (s *Server) mountLive(app *fiber.App, api fiber.Router) {
	api.Get("/events", s.requireUser, s.eventStream)
	if s.cfg.Server.WriteTimeout > 0 {
		prev := app.Server().HeaderReceived
		app.Server().HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
			if string(h.RequestURI()) == eventsPath || strings.HasPrefix(string(h.RequestURI()), eventsPath+"?") {
				return fasthttp.RequestConfig{WriteTimeout: streamWriteTimeout}
			}
			if prev != nil {
				return prev(h)
			}
			return fasthttp.RequestConfig{}
		}
	}
	api.Get("/chat/messages", s.requireUser, s.chatHistory)
	api.Post("/chat/messages", s.requireUser, s.chatPost)
	api.Delete("/chat/messages/:id", s.requireAdmin, s.chatDelete)
	api.Get("/chat/online", s.requireUser, s.chatOnline)
	api.Post("/chat/mutes", s.requireAdmin, s.chatMute)
	api.Get("/notifications", s.requireUser, s.notificationList)
	api.Post("/notifications/read", s.requireUser, s.notificationsRead)
	api.Get("/notifications/settings", s.requireUser, s.notificationSettings)
	api.Patch("/notifications/settings", s.requireUser, s.setNotificationSettings)
}

func (s *Server) eventStream(c fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache, no-transform")
	c.Set("X-Accel-Buffering", "no")
	if c.Method() == fiber.MethodHead {
		return c.SendStatus(fiber.StatusOK)
	}
	sub := events.Sub{UserID: currentUser(c).ID}
	if raw := c.Get("Last-Event-ID"); raw != "" {
		sub.Resume = true
		n, err := strconv.ParseUint(strings.TrimSpace(raw), 10, 64)
		if err != nil {
			n = math.MaxUint64 // not one of ours: resync
		}
		sub.LastID = n
	}
	conn := c.RequestCtx().Conn()
	sub.OnDrop = func() { conn.Close() }
	st, err := s.hub.Events.Subscribe(sub)
	if err != nil {
		return err
	}
	token := strings.Clone(bearerToken(c))
	w := streamWriter{st: st, done: c.RequestCtx().Done(), expires: tokenExpiry(token),
		heartbeat: s.cfg.Events.Heartbeat, valid: func() bool {
			_, err := s.svc.Authenticate(token)
			return err == nil
		}}
	return c.SendStreamWriter(w.run)
}

// tokenExpiry is when the (already verified) access token expires; a token
// without a readable expiry is held to the longest access lifetime.
func tokenExpiry(token string) time.Time {
	var claims jwt.RegisteredClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &claims); err == nil && claims.ExpiresAt != nil {
		return claims.ExpiresAt.Time
	}
	return time.Now().Add(time.Hour)
}

// streamWriter writes one stream; it holds copies of what it needs, never
// the request.
type streamWriter struct {
	st        *events.Stream
	done      <-chan struct{}
	expires   time.Time
	heartbeat time.Duration
	// valid checks the token again at every heartbeat: a session ended
	// meanwhile (sign-out, a new password, a revoked session, a deleted
	// account) ends the stream then, not only when the token expires.
	valid func() bool
}

func (sw streamWriter) run(w *bufio.Writer) {
	defer sw.st.Close()
	if sw.heartbeat <= 0 {
		sw.heartbeat = 15 * time.Second
	}
	w.WriteString("retry: 2000\n: connected\n\n")
	if sw.st.Resync {
		w.WriteString("event: resync\ndata: {}\n\n")
	}
	for _, ev := range sw.st.Backlog {
		w.Write(ev.Frame())
	}
	if w.Flush() != nil {
		return
	}
	expiry := time.NewTimer(time.Until(sw.expires))
	defer expiry.Stop()
	beat := time.NewTicker(sw.heartbeat)
	defer beat.Stop()
	for {
		select {
		case ev := <-sw.st.C():
			w.Write(ev.Frame())
		more:
			for range 64 { // what else is waiting goes in the same write
				select {
				case ev := <-sw.st.C():
					w.Write(ev.Frame())
				default:
					break more
				}
			}
		case <-beat.C:
			if sw.valid != nil && !sw.valid() {
				w.WriteString("event: reauth\ndata: {}\n\n")
				w.Flush()
				return
			}
			w.WriteString(": hb\n\n")
		case <-expiry.C:
			w.WriteString("event: reauth\ndata: {}\n\n")
			w.Flush()
			return
		case <-sw.st.Done():
			if sw.st.Reason() == events.ReasonShutdown {
				w.WriteString("event: bye\ndata: {}\n\n")
				w.Flush()
			}
			return
		case <-sw.done:
			w.WriteString("event: bye\ndata: {}\n\n")
			w.Flush()
			return
		}
		if w.Flush() != nil {
			return
		}
	}
}

// uintParam is the path parameter name as an id; anything else is a 404.
func uintParam(c fiber.Ctx, name string) (uint64, error) {
	n, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil || n == 0 {
		return 0, store.ErrNotFound
	}
	return n, nil
}

func (s *Server) chatHistory(c fiber.Ctx) error {
	var v store.Validator
	before, limit := queryID(c, "before", &v), queryInt(c, "limit", &v)
	if err := v.Err(); err != nil {
		return err
	}
	page, err := s.hub.ChatHistory(s.actor(c), before, limit)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(page)
}

func (s *Server) chatPost(c fiber.Ctx) error {
	var in struct {
		Text string `json:"text"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	m, err := s.hub.PostChat(c.Context(), s.actor(c), in.Text)
	if err != nil {
		return err
	}
	if m == nil {
		return c.SendStatus(fiber.StatusNoContent) // empty: ignored
	}
	return c.Status(fiber.StatusCreated).JSON(m)
}

func (s *Server) chatDelete(c fiber.Ctx) error {
	id, err := uintParam(c, "id")
	if err != nil {
		return err
	}
	if err := s.hub.DeleteChatMessage(c.Context(), s.actor(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) chatOnline(c fiber.Ctx) error {
	users, err := s.hub.ChatOnline(s.actor(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"users": users})
}

func (s *Server) chatMute(c fiber.Ctx) error {
	var in struct {
		UserID  uint64 `json:"userId"`
		Minutes *int64 `json:"minutes"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	var v store.Validator
	if in.UserID == 0 {
		v.Add("userId", "required", "userId is required")
	}
	if in.Minutes == nil || *in.Minutes < 0 || *in.Minutes > int64(365*24*60) {
		v.Add("minutes", "invalid", "minutes must be from 0 (lift the mute) to 525600 (a year)")
	}
	if err := v.Err(); err != nil {
		return err
	}
	until, err := s.hub.MuteChat(c.Context(), s.actor(c), in.UserID, time.Duration(*in.Minutes)*time.Minute)
	if err != nil {
		return err
	}
	out := fiber.Map{"userId": in.UserID, "until": nil}
	if !until.IsZero() {
		out["until"] = until
	}
	return c.JSON(out)
}

func (s *Server) notificationList(c fiber.Ctx) error {
	var v store.Validator
	before, limit := queryID(c, "before", &v), queryInt(c, "limit", &v)
	if err := v.Err(); err != nil {
		return err
	}
	page, err := s.hub.Notifications(s.actor(c), before, limit)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(page)
}

func (s *Server) notificationsRead(c fiber.Ctx) error {
	var in struct {
		IDs []uint64 `json:"ids"`
		All bool     `json:"all"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if !in.All && len(in.IDs) == 0 {
		return store.Invalid("ids", "required", `name the notifications to mark read ({"ids":[…]}) or all of them ({"all":true})`)
	}
	if len(in.IDs) > notify.MaxPerUser {
		return store.Invalid("ids", "too_long", "at most "+strconv.Itoa(notify.MaxPerUser)+" ids at once")
	}
	unread, err := s.hub.ReadNotifications(s.actor(c), in.IDs, in.All)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"unread": unread})
}

func (s *Server) notificationSettings(c fiber.Ctx) error {
	set, err := s.hub.NotificationSettings(s.actor(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(set)
}

func (s *Server) setNotificationSettings(c fiber.Ctx) error {
	var in notify.Settings
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	set, err := s.hub.SetNotificationSettings(s.actor(c), in)
	if err != nil {
		return err
	}
	return c.JSON(set)
}

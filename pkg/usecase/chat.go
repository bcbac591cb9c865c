package usecase

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/store"
)

// Audit event types of the chat room.
const (
	AuditChatDeleted = "chat.deleted"
	AuditChatMuted   = "chat.muted"
)

// Live event types of the chat room (their data: a chat.Message; {id};
// {userId, until}; PresenceChange).
const (
	EventChatMessage = "chat.message"
	EventChatDeleted = "chat.deleted"
	EventChatMuted   = "chat.muted"
	EventPresence    = "presence"
)

// mentionExcerpt is how much of a message a mention's notification quotes.
const mentionExcerpt = 200

func requireAccount(actor Actor) error {
	if actor.UserID == 0 {
		return store.Refuse(store.KindForbidden, "this needs a signed-in account")
	}
	return nil
}

// author is the actor as the chat names them: their account's display
// name (its e-mail's local part when it has none).
func (h *Hub) author(actor Actor) (chat.Author, error) {
	u, err := h.Auth.UserByID(actor.UserID)
	if err != nil {
		return chat.Author{}, err
	}
	name := u.Name
	if strings.TrimSpace(name) == "" {
		name, _, _ = strings.Cut(u.Email, "@")
	}
	return chat.Author{ID: u.ID, Name: name}, nil
}

// ChatHistory is a page of the room's history for a signed-in account.
func (h *Hub) ChatHistory(actor Actor, before uint64, limit int) (chat.Page, error) {
	if err := requireAccount(actor); err != nil {
		return chat.Page{}, err
	}
	page, err := h.Chat.History(before, limit)
	if err == nil {
		h.avatarLookup().messages(page.Messages)
	}
	return page, err
}

// PostChat posts text to the room as the actor, sends it live to every
// signed-in user and notifies the accounts it mentions by @name (not the
// author). Text that is empty once trimmed is ignored: it returns nil and
// no error.
func (h *Hub) PostChat(ctx context.Context, actor Actor, text string) (*chat.Message, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	a, err := h.author(actor)
	if err != nil {
		return nil, err
	}
	m, err := h.Chat.Post(ctx, a, text)
	if errors.Is(err, chat.ErrEmpty) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m.Author.AvatarURL = h.avatarLookup().of(m.Author.ID)
	h.Events.Publish(EventChatMessage, nil, m)
	h.notifyMentions(context.WithoutCancel(ctx), m)
	return m, nil
}

// notifyMentions sends a "mention" notification to each account m names
// as @name (a display name, compared without case), except its author and
// an account that blocked the author or that the author blocked.
func (h *Hub) notifyMentions(ctx context.Context, m *chat.Message) {
	if !strings.Contains(m.Text, "@") || h.Notify == nil {
		return
	}
	users, err := h.Auth.Users()
	if err != nil {
		h.log().Warn("chat mentions", slog.Any("err", err))
		return
	}
	for _, u := range users {
		if u.ID == m.Author.ID || !chat.Mentioned(m.Text, u.Name) || h.Blocked(ctx, u.ID, m.Author.ID) {
			continue
		}
		data := map[string]any{"where": "chat", "messageId": m.ID, "by": m.Author,
			"text": text.Truncate(m.Text, mentionExcerpt)}
		if err := h.Notify.Add(ctx, u.ID, notify.KindMention, data); err != nil {
			h.log().Warn("chat mention", slog.Uint64("user", u.ID), slog.Any("err", err))
		}
	}
}

// DeleteChatMessage removes message id from the room for an admin (or the
// owner): it disappears live for everyone, and the audit log keeps who
// deleted what.
func (h *Hub) DeleteChatMessage(ctx context.Context, actor Actor, id uint64) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	m, err := h.Chat.Delete(ctx, id)
	if err != nil {
		return err
	}
	h.Events.Publish(EventChatDeleted, nil, map[string]uint64{"id": m.ID})
	h.log().Info("chat message deleted", slog.Uint64("id", m.ID), slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: AuditChatDeleted, Target: "chat message " + strconv.FormatUint(m.ID, 10),
		Details: map[string]string{"author": m.Author.Name, "authorId": strconv.FormatUint(m.Author.ID, 10),
			"text": text.Truncate(m.Text, mentionExcerpt), "postedAt": m.CreatedAt.Format(time.RFC3339)}})
	return nil
}

// MuteChat keeps account userID from posting in the room for d (0 lifts
// the mute), for an admin or the owner; the account is told live.
func (h *Hub) MuteChat(ctx context.Context, actor Actor, userID uint64, d time.Duration) (time.Time, error) {
	if err := requireAdmin(actor); err != nil {
		return time.Time{}, err
	}
	u, err := h.Auth.UserByID(userID)
	if err != nil {
		return time.Time{}, err
	}
	until, err := h.Chat.Mute(ctx, u.ID, d)
	if err != nil {
		return time.Time{}, err
	}
	var untilJSON *time.Time
	if !until.IsZero() {
		untilJSON = &until
	}
	h.Events.Publish(EventChatMuted, []uint64{u.ID}, map[string]any{"userId": u.ID, "until": untilJSON})
	h.record(ctx, actor, audit.Event{Type: AuditChatMuted, Target: u.Email,
		Details: map[string]string{"for": d.String()}})
	return until, nil
}

// PresenceChange is the data of a "presence" event.
type PresenceChange struct {
	User   chat.Author `json:"user"`
	Online bool        `json:"online"`
}

// PresenceChanged tells every signed-in user that userID came online or
// went offline (events.Hub.WatchPresence), except the accounts it blocked
// or that blocked it.
func (h *Hub) PresenceChanged(userID uint64, online bool) {
	a, err := h.author(Actor{UserID: userID})
	if err != nil {
		return // an account deleted meanwhile
	}
	var to []uint64 // every signed-in user, unless blocks leave some out
	if h.Social != nil {
		to = []uint64{}
		for _, id := range h.Events.Online() {
			if !h.Blocked(context.Background(), id, userID) {
				to = append(to, id)
			}
		}
	}
	h.Events.Publish(EventPresence, to, PresenceChange{User: a, Online: online})
}

// ChatOnline lists the signed-in accounts with an open event stream, by
// name, for a signed-in account: not those it blocked or that blocked it.
func (h *Hub) ChatOnline(actor Actor) ([]chat.Author, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	out := []chat.Author{}
	for _, id := range h.Events.Online() {
		if id != actor.UserID && h.Blocked(context.Background(), actor.UserID, id) {
			continue
		}
		if a, err := h.author(Actor{UserID: id}); err == nil {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y chat.Author) int {
		if c := strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name)); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return out, nil
}

package usecase

import (
	"context"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store"
)

// Live event types of friends and direct messages.
const (
	EventFriendRequest = "friend.request"
	EventDMMessage     = "dm.message"
	EventDMRead        = "dm.read"
	EventDMDeleted     = "dm.deleted"
)

// Where a notification leads in the site: the profile's Friends section,
// or the conversation with an account (0: the contact form's).
const friendsURL = "/profile?section=friends"

func conversationURL(peer uint64) string {
	return "/profile?section=messages&with=" + strconv.FormatUint(peer, 10)
}

// MaxPeople is how many accounts a people search returns.
const MaxPeople = 20

// Person is an account as other people see it: never its e-mail or role.
// Deleted is set for an account that no longer exists (its name is empty).
type Person struct {
	ID      uint64  `json:"id"`
	Name    string  `json:"name"`
	Avatar  *string `json:"avatar"`
	Deleted bool    `json:"deleted,omitempty"`
}

// Friend is a friend, or an account the viewer blocked, and since when.
type Friend struct {
	User  Person    `json:"user"`
	Since time.Time `json:"since"`
}

// FriendRequest is a request as one side sees it: User is the other side.
type FriendRequest struct {
	ID        uint64    `json:"id"`
	User      Person    `json:"user"`
	CreatedAt time.Time `json:"createdAt"`
}

// Friends is the viewer's friends, requests both ways and blocks.
type Friends struct {
	Friends  []Friend        `json:"friends"`
	Incoming []FriendRequest `json:"incoming"`
	Outgoing []FriendRequest `json:"outgoing"`
	Blocked  []Friend        `json:"blocked"`
}

// FriendRequestEvent is the data of a friend.request event.
type FriendRequestEvent struct {
	ID     uint64 `json:"id"`
	Status string `json:"status"` // pending, accepted, declined, cancelled
	From   Person `json:"from"`
	To     Person `json:"to"`
}

// DirectMessage is a message as its conversation shows it.
type DirectMessage struct {
	ID          uint64         `json:"id"`
	AuthorID    uint64         `json:"authorId"`
	RecipientID uint64         `json:"recipientId"`
	Text        string         `json:"text"`
	CreatedAt   time.Time      `json:"createdAt"`
	Sender      *social.Sender `json:"sender,omitempty"`
}

// Conversation is one entry of the viewer's conversation list. Kind
// "contact" is the contact form's conversation (admins only; User.ID 0).
type Conversation struct {
	Kind          string         `json:"kind"`
	User          Person         `json:"user"`
	LastMessage   *DirectMessage `json:"lastMessage"`
	Unread        int            `json:"unread"`
	ReadUpTo      uint64         `json:"readUpTo"`
	OtherReadUpTo uint64         `json:"otherReadUpTo"`
}

// MessagePage is a page of one conversation, oldest first.
type MessagePage struct {
	User          Person          `json:"user"`
	Kind          string          `json:"kind"`
	Messages      []DirectMessage `json:"messages"`
	HasMore       bool            `json:"hasMore"`
	ReadUpTo      uint64          `json:"readUpTo"`
	OtherReadUpTo uint64          `json:"otherReadUpTo"`
	// CanSend says whether the viewer may write here now, and Reason why
	// not.
	CanSend bool   `json:"canSend"`
	Reason  string `json:"reason,omitempty"`
}

// ReadEvent is the data of a dm.read event: reader read the conversation
// with peer up to message UpTo.
type ReadEvent struct {
	ReaderID uint64 `json:"readerId"`
	PeerID   uint64 `json:"peerId"`
	UpTo     uint64 `json:"upTo"`
}

// Conversation kinds.
const (
	KindDirect  = "direct"
	KindContact = "contact"
)

// person is the account id as others see it.
func (h *Hub) person(id uint64) Person {
	u, err := h.Auth.UserByID(id)
	if err != nil {
		return Person{ID: id, Deleted: true}
	}
	return Person{ID: u.ID, Name: u.Name, Avatar: h.avatarOf(u.AvatarURL)}
}

// existing is the account id for a request naming it: not found when there
// is none (or it is the contact form's conversation).
func (h *Hub) existing(id uint64) (Person, error) {
	if id == social.ContactPeer {
		return Person{}, store.ErrNotFound
	}
	u, err := h.Auth.UserByID(id)
	if err != nil {
		return Person{}, err
	}
	return Person{ID: u.ID, Name: u.Name, Avatar: h.avatarOf(u.AvatarURL)}, nil
}

// Blocked reports whether either of accounts a and b blocked the other:
// then neither may request, message or mention the other, nor see the
// other's presence. Other areas (chat mentions, presence) ask here.
func (h *Hub) Blocked(_ context.Context, a, b uint64) bool {
	return h.Social != nil && h.Social.Blocked(a, b)
}

// SearchPeople finds accounts whose name contains every word of q (case
// and script insensitive), leaving out the actor and accounts either side
// blocked. A blank q finds no one.
func (h *Hub) SearchPeople(ctx context.Context, actor Actor, q string) ([]Person, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	out := []Person{}
	terms := text.Words(q)
	if len(terms) == 0 {
		return out, nil
	}
	users, err := h.Auth.Users()
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if u.ID == actor.UserID || !text.ContainsAll(text.Fold(u.Name), terms) || h.Blocked(ctx, actor.UserID, u.ID) {
			continue
		}
		out = append(out, Person{ID: u.ID, Name: u.Name, Avatar: h.avatarOf(u.AvatarURL)})
		if len(out) == MaxPeople {
			break
		}
	}
	return out, nil
}

// Friends is the actor's friends, requests and blocks.
func (h *Hub) Friends(_ context.Context, actor Actor) (*Friends, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	g, err := h.Social.Graph(actor.UserID)
	if err != nil {
		return nil, err
	}
	out := &Friends{Friends: []Friend{}, Incoming: []FriendRequest{}, Outgoing: []FriendRequest{}, Blocked: []Friend{}}
	for _, l := range g.Friends {
		out.Friends = append(out.Friends, Friend{User: h.person(l.Other), Since: l.Since})
	}
	for _, l := range g.Blocked {
		out.Blocked = append(out.Blocked, Friend{User: h.person(l.Other), Since: l.Since})
	}
	for _, l := range g.Incoming {
		out.Incoming = append(out.Incoming, FriendRequest{ID: l.RequestID, User: h.person(l.Other), CreatedAt: l.Since})
	}
	for _, l := range g.Outgoing {
		out.Outgoing = append(out.Outgoing, FriendRequest{ID: l.RequestID, User: h.person(l.Other), CreatedAt: l.Since})
	}
	return out, nil
}

// RequestFriend sends the actor's friend request to account userID, who
// is notified.
func (h *Hub) RequestFriend(ctx context.Context, actor Actor, userID uint64) (*FriendRequest, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	to, err := h.existing(userID)
	if err != nil {
		return nil, err
	}
	r, err := h.Social.RequestFriend(ctx, actor.UserID, userID)
	if err != nil {
		return nil, err
	}
	from := h.person(actor.UserID)
	h.publish(EventFriendRequest, []uint64{actor.UserID, userID}, FriendRequestEvent{ID: r.ID, Status: "pending", From: from, To: to})
	h.notify(ctx, userID, notify.KindFriendRequest, map[string]any{"requestId": r.ID, "by": from, "url": friendsURL})
	return &FriendRequest{ID: r.ID, User: to, CreatedAt: r.CreatedAt}, nil
}

// AnswerFriendRequest accepts or declines request id addressed to the
// actor; an accepted request notifies its sender.
func (h *Hub) AnswerFriendRequest(ctx context.Context, actor Actor, id uint64, accept bool) error {
	if err := requireAccount(actor); err != nil {
		return err
	}
	r, err := h.Social.AnswerRequest(ctx, actor.UserID, id, accept)
	if err != nil {
		return err
	}
	status := "declined"
	if accept {
		status = "accepted"
		h.notify(ctx, r.From, notify.KindFriendAccepted, map[string]any{"by": h.person(r.To), "url": friendsURL})
	}
	h.publish(EventFriendRequest, []uint64{r.From, r.To}, FriendRequestEvent{ID: r.ID, Status: status, From: h.person(r.From), To: h.person(r.To)})
	return nil
}

// CancelFriendRequest withdraws request id the actor sent.
func (h *Hub) CancelFriendRequest(ctx context.Context, actor Actor, id uint64) error {
	if err := requireAccount(actor); err != nil {
		return err
	}
	r, err := h.Social.CancelRequest(ctx, actor.UserID, id)
	if err != nil {
		return err
	}
	h.publish(EventFriendRequest, []uint64{r.From, r.To}, FriendRequestEvent{ID: r.ID, Status: "cancelled", From: h.person(r.From), To: h.person(r.To)})
	return nil
}

// Unfriend ends the actor's friendship with userID.
func (h *Hub) Unfriend(ctx context.Context, actor Actor, userID uint64) error {
	if err := requireAccount(actor); err != nil {
		return err
	}
	return h.Social.Unfriend(ctx, actor.UserID, userID)
}

// Block makes the actor block account userID (see social.Service.Block).
// The blocked account is told nothing.
func (h *Hub) Block(ctx context.Context, actor Actor, userID uint64) error {
	if err := requireAccount(actor); err != nil {
		return err
	}
	if userID != actor.UserID {
		if _, err := h.existing(userID); err != nil {
			return err
		}
	}
	return h.Social.Block(ctx, actor.UserID, userID)
}

// Unblock lifts the actor's block of userID.
func (h *Hub) Unblock(ctx context.Context, actor Actor, userID uint64) error {
	if err := requireAccount(actor); err != nil {
		return err
	}
	return h.Social.Unblock(ctx, actor.UserID, userID)
}

func toDirect(m social.Message) DirectMessage {
	return DirectMessage{ID: m.ID, AuthorID: m.From, RecipientID: m.To, Text: m.Text, CreatedAt: m.CreatedAt, Sender: m.Sender}
}

// contactPerson is the contact form's conversation partner.
func contactPerson() Person { return Person{ID: social.ContactPeer} }

// Conversations is the actor's conversation list, latest first; an admin's
// also holds the contact form's conversation once someone wrote.
func (h *Hub) Conversations(_ context.Context, actor Actor) ([]Conversation, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	list, err := h.Social.Conversations(actor.UserID)
	if err != nil {
		return nil, err
	}
	out := make([]Conversation, 0, len(list)+1)
	if actor.Admin {
		sum, err := h.Social.ContactSummary(actor.UserID)
		if err != nil {
			return nil, err
		}
		if sum != nil {
			out = append(out, h.conversation(KindContact, contactPerson(), *sum))
		}
	}
	for _, sum := range list {
		out = append(out, h.conversation(KindDirect, h.person(sum.Other), sum))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastMessage.ID > out[j].LastMessage.ID })
	return out, nil
}

func (h *Hub) conversation(kind string, p Person, sum social.Summary) Conversation {
	last := toDirect(*sum.Last)
	return Conversation{Kind: kind, User: p, LastMessage: &last, Unread: sum.Unread, ReadUpTo: sum.ReadUpTo, OtherReadUpTo: sum.OtherReadUpTo}
}

// peer resolves the conversation partner userID for the actor: an existing
// account, or the contact form's conversation for an admin. Anyone else
// asking for the contact conversation finds nothing there.
func (h *Hub) peer(actor Actor, userID uint64) (Person, string, error) {
	if err := requireAccount(actor); err != nil {
		return Person{}, "", err
	}
	if userID == social.ContactPeer {
		if !actor.Admin {
			return Person{}, "", store.ErrNotFound
		}
		return contactPerson(), KindContact, nil
	}
	if userID == actor.UserID {
		return Person{}, "", store.Invalid("userId", "self", "you cannot message yourself")
	}
	if p, err := h.existing(userID); err == nil {
		return p, KindDirect, nil
	}
	// A deleted account's conversation can still be read and cleaned up.
	return Person{ID: userID, Deleted: true}, KindDirect, nil
}

// ConversationMessages is a page of the actor's conversation with userID:
// the limit messages before message id before (0: the newest). Only the
// two members read it; there is no way to name anyone else's.
func (h *Hub) ConversationMessages(_ context.Context, actor Actor, userID, before uint64, limit int) (*MessagePage, error) {
	p, kind, err := h.peer(actor, userID)
	if err != nil {
		return nil, err
	}
	msgs, more, err := h.Social.Messages(actor.UserID, userID, before, limit)
	if err != nil {
		return nil, err
	}
	if p.Deleted && len(msgs) == 0 && before == 0 {
		return nil, store.ErrNotFound
	}
	out := &MessagePage{User: p, Kind: kind, Messages: make([]DirectMessage, 0, len(msgs)), HasMore: more}
	for _, m := range msgs {
		out.Messages = append(out.Messages, toDirect(m))
	}
	out.ReadUpTo, out.OtherReadUpTo = h.Social.ReadMarkers(actor.UserID, userID)
	switch {
	case kind == KindContact:
		out.Reason = "contact"
	case p.Deleted:
		out.Reason = "deleted"
	default:
		if err := h.Social.CanSend(actor.UserID, userID); err != nil {
			out.Reason = reason(err)
		} else {
			out.CanSend = true
		}
	}
	return out, nil
}

// reason names why a message may not be sent, for the page to explain.
func reason(err error) string {
	if strings.Contains(err.Error(), "friends") {
		return "friends"
	}
	return "blocked"
}

// SendMessage sends the actor's message text to account userID; both
// users' open tabs receive it and the recipient is notified.
func (h *Hub) SendMessage(ctx context.Context, actor Actor, userID uint64, msg string) (*DirectMessage, error) {
	p, kind, err := h.peer(actor, userID)
	if err != nil {
		return nil, err
	}
	if kind == KindContact {
		return nil, store.Refuse(store.KindForbidden, "contact form messages are answered by e-mail")
	}
	if p.Deleted {
		return nil, store.ErrNotFound
	}
	m, err := h.Social.Send(ctx, actor.UserID, userID, msg)
	if err != nil {
		return nil, err
	}
	dm := toDirect(*m)
	h.publish(EventDMMessage, []uint64{actor.UserID, userID}, dm)
	h.notify(ctx, userID, notify.KindDM, map[string]any{"by": h.person(actor.UserID), "messageId": m.ID,
		"text": text.Truncate(m.Text, 200), "url": conversationURL(actor.UserID)})
	return &dm, nil
}

// MarkConversationRead moves the actor's read marker in the conversation
// with userID up to message upTo (0: the newest) and tells both users'
// tabs.
func (h *Hub) MarkConversationRead(ctx context.Context, actor Actor, userID, upTo uint64) (uint64, error) {
	if _, _, err := h.peer(actor, userID); err != nil {
		return 0, err
	}
	at, err := h.Social.MarkRead(ctx, actor.UserID, userID, upTo)
	if err != nil {
		return 0, err
	}
	to := []uint64{actor.UserID}
	if userID != social.ContactPeer {
		to = append(to, userID)
	}
	h.publish(EventDMRead, to, ReadEvent{ReaderID: actor.UserID, PeerID: userID, UpTo: at})
	return at, nil
}

// DeleteDirectMessage deletes the actor's own message id from the
// conversation with userID (an admin, any message of the contact form's
// conversation); it disappears from both users' tabs.
func (h *Hub) DeleteDirectMessage(ctx context.Context, actor Actor, userID, id uint64) error {
	_, kind, err := h.peer(actor, userID)
	if err != nil {
		return err
	}
	m, err := h.Social.DeleteMessage(ctx, actor.UserID, userID, id, kind == KindContact)
	if err != nil {
		return err
	}
	to := []uint64{actor.UserID}
	if kind == KindContact {
		to = h.adminIDs()
	} else {
		to = append(to, userID)
	}
	h.publish(EventDMDeleted, to, toDirect(*m))
	return nil
}

// adminIDs are the accounts that read the contact form's conversation.
func (h *Hub) adminIDs() []uint64 {
	users, err := h.Auth.Users()
	if err != nil {
		h.log().Warn("list admins", slog.Any("err", err))
		return nil
	}
	var out []uint64
	for _, u := range users {
		if u.Role == auth.RoleAdmin {
			out = append(out, u.ID)
		}
	}
	return out
}

// ContactChallenge is a fresh proof-of-work challenge for the contact form.
func (h *Hub) ContactChallenge() social.Challenge { return h.Social.NewChallenge() }

// Contact takes a message from the contact form (anyone, guests too): it
// lands in the admins' contact conversation, and is handed to ContactMail
// when that is set.
func (h *Hub) Contact(ctx context.Context, actor Actor, in social.ContactInput) error {
	m, err := h.Social.Contact(ctx, in)
	if err != nil || m == nil {
		return err
	}
	h.log().Info("contact message", slog.Uint64("id", m.ID), slog.String("ip", actor.IP))
	admins := h.adminIDs()
	dm := toDirect(*m)
	h.publish(EventDMMessage, admins, dm)
	for _, id := range admins {
		h.notify(ctx, id, notify.KindDM, map[string]any{"by": Person{Name: m.Sender.Name}, "messageId": m.ID,
			"sender": m.Sender, "text": text.Truncate(m.Text, 200), "url": conversationURL(social.ContactPeer)})
	}
	if h.ContactMail != nil {
		if err := h.ContactMail(context.WithoutCancel(ctx), *m); err != nil {
			h.log().Warn("contact message not mailed", slog.Uint64("id", m.ID), slog.Any("err", err))
		}
	}
	return nil
}

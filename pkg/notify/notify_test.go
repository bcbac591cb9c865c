package notify

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func newService(t *testing.T) (*Service, *events.Hub) {
	t.Helper()
	hub := events.NewHub(events.Options{Queue: 1024})
	s, err := New(storetest.Open(t), hub)
	if err != nil {
		t.Fatal(err)
	}
	return s, hub
}

func listen(t *testing.T, hub *events.Hub, user uint64) *events.Stream {
	t.Helper()
	st, err := hub.Subscribe(events.Sub{UserID: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

func next(t *testing.T, st *events.Stream) events.Event {
	t.Helper()
	select {
	case ev := <-st.C():
		return *ev
	default:
		t.Fatal("no event published")
		return events.Event{}
	}
}

func TestAddStoresAndPublishes(t *testing.T) {
	s, hub := newService(t)
	ctx := context.Background()
	mine, other := listen(t, hub, 1), listen(t, hub, 2)
	if err := s.Add(ctx, 1, KindMention, map[string]any{"by": "ann", "text": "<b>hi</b>"}); err != nil {
		t.Fatal(err)
	}
	ev := next(t, mine)
	var got struct {
		Notification Notification `json:"notification"`
		Unread       int          `json:"unread"`
	}
	if err := json.Unmarshal(ev.Data, &got); err != nil {
		t.Fatal(err)
	}
	var data map[string]string
	if err := json.Unmarshal(got.Notification.Data, &data); err != nil {
		t.Fatal(err)
	}
	if ev.Type != EventNew || got.Unread != 1 || got.Notification.Kind != KindMention || data["text"] != "<b>hi</b>" {
		t.Fatalf("event %s %s", ev.Type, ev.Data)
	}
	select {
	case ev := <-other.C():
		t.Fatalf("another user received %s", ev.Data)
	default:
	}
	p, err := s.List(1, 0, 0)
	if err != nil || len(p.Items) != 1 || p.Unread != 1 || p.Items[0].Read {
		t.Fatalf("list %+v %v", p, err)
	}
	if p, _ := s.List(2, 0, 0); len(p.Items) != 0 || p.Items == nil {
		t.Fatalf("another user's list %+v", p)
	}
}

func TestAddRefusesBadInput(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	tests := []struct {
		name string
		kind string
		data any
	}{
		{"unknown kind", "nope", nil},
		{"data too large", KindDM, strings.Repeat("x", MaxDataBytes)},
		{"data not encodable", KindDM, func() {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Add(ctx, 1, tt.kind, tt.data); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Add(cancelled, 1, KindDM, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if n, _ := s.Unread(1); n != 0 {
		t.Fatalf("%d stored after refusals", n)
	}
}

func TestPagingAndRetention(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	for i := range MaxPerUser + 5 {
		if err := s.Add(ctx, 1, KindForumReply, i); err != nil {
			t.Fatal(err)
		}
	}
	var all []Notification
	before := uint64(0)
	for pages := 0; ; pages++ {
		p, err := s.List(1, before, 40)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Items...)
		if p.Next == 0 {
			break
		}
		before = p.Next
		if pages > 100 {
			t.Fatal("paging does not end")
		}
	}
	if len(all) != MaxPerUser {
		t.Fatalf("kept %d, want %d", len(all), MaxPerUser)
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID != all[i-1].ID-1 {
			t.Fatalf("page order broken at %d: %d after %d", i, all[i].ID, all[i-1].ID)
		}
	}
	if all[0].ID != MaxPerUser+5 || string(all[len(all)-1].Data) != "5" {
		t.Fatalf("kept %d..%s, want the newest", all[0].ID, all[len(all)-1].Data)
	}
}

func TestMarkRead(t *testing.T) {
	s, hub := newService(t)
	ctx := context.Background()
	for range 3 {
		if err := s.Add(ctx, 1, KindDM, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add(ctx, 2, KindDM, nil); err != nil {
		t.Fatal(err)
	}
	st := listen(t, hub, 1)
	// ids 1 and 2 are user 1's; 99 is nobody's; user 2's id 1 is another key space.
	n, err := s.MarkRead(1, []uint64{1, 2, 2, 99}, false)
	if err != nil || n != 1 {
		t.Fatalf("unread %d, %v", n, err)
	}
	if ev := next(t, st); ev.Type != EventRead || string(ev.Data) != `{"unread":1}` {
		t.Fatalf("event %s %s", ev.Type, ev.Data)
	}
	if n, _ := s.Unread(2); n != 1 {
		t.Fatalf("user 2 unread %d", n)
	}
	if n, err := s.MarkRead(1, nil, true); err != nil || n != 0 {
		t.Fatalf("all: %d %v", n, err)
	}
	p, _ := s.List(1, 0, 0)
	for _, it := range p.Items {
		if !it.Read {
			t.Fatalf("%d unread after all read", it.ID)
		}
	}
	if n, err := s.MarkRead(7, nil, true); err != nil || n != 0 {
		t.Fatalf("a user without notifications: %d %v", n, err)
	}
}

func TestSettings(t *testing.T) {
	s, hub := newService(t)
	ctx := context.Background()
	got, err := s.Settings(1)
	if err != nil || len(got) != len(Kinds)+1 || !got[KindMention] || got[SettingEmailDigest] {
		t.Fatalf("defaults %v %v", got, err)
	}
	var verr *store.ValidationError
	if _, err := s.SetSettings(1, Settings{KindMention: false, "bogus": true}); !errors.As(err, &verr) {
		t.Fatalf("unknown kind: %v", err)
	}
	if got, _ := s.Settings(1); !got[KindMention] {
		t.Fatal("a refused change changed something")
	}
	got, err = s.SetSettings(1, Settings{KindMention: false})
	if err != nil || got[KindMention] || !got[KindDM] {
		t.Fatalf("after off %v %v", got, err)
	}
	st := listen(t, hub, 1)
	if err := s.Add(ctx, 1, KindMention, nil); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Unread(1); n != 0 {
		t.Fatal("a kind turned off was stored")
	}
	select {
	case ev := <-st.C():
		t.Fatalf("a kind turned off was published: %s", ev.Data)
	default:
	}
	if other, _ := s.Settings(2); !other[KindMention] {
		t.Fatal("one user's setting changed another's")
	}
	if got, _ := s.SetSettings(1, Settings{KindMention: true}); !got[KindMention] {
		t.Fatal("could not turn a kind back on")
	}
	if err := s.Add(ctx, 1, KindMention, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteUser(1); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Unread(1); n != 0 {
		t.Fatal("notifications kept after the account was deleted")
	}
}

func TestNilServiceStoresNothing(t *testing.T) {
	var s *Service
	if err := s.Add(context.Background(), 1, KindDM, nil); err != nil {
		t.Fatal(err)
	}
}

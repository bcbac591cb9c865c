package social

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/netip"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func newService(t *testing.T, o Options) *Service {
	t.Helper()
	s, err := New(storetest.Open(t), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A challenge made by ALTCHA's own library (altcha-lib v1, createChallenge
// with hmacKey "devhub-test-key", number 4242, salt "0a1b2c3d4e5f",
// expires 2000000000) hashes and signs the same here, so the browser's
// solver and this server speak one scheme.
func TestPowMatchesALTCHA(t *testing.T) {
	const (
		salt      = "0a1b2c3d4e5f?expires=2000000000&"
		challenge = "4b0a5e7610b6e332ce50996c820636bc7b8563ecc8c3618d4d57eb734e635eb2"
		signature = "39f6a577290eef00c5c47d4a7087e0c25d15d29dd52426a3b935fec82b7edba9"
	)
	if got := powHash(salt, 4242); got != challenge {
		t.Fatalf("challenge %s, want %s", got, challenge)
	}
	s := &Service{hmacKey: []byte("devhub-test-key")}
	if got := s.sign(challenge); got != signature {
		t.Fatalf("signature %s, want %s", got, signature)
	}
}

func TestContactSolutions(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { return now }
	s := newService(t, Options{PowMaxNumber: 500, ContactPerHour: 100, Now: clock})
	in := func(altcha string) ContactInput {
		return ContactInput{Name: "V", Email: "v@example.org", Message: "hi", Altcha: altcha, IP: netip.MustParseAddr("192.0.2.1")}
	}
	solve := func() string {
		sol, ok := SolveChallenge(s.NewChallenge())
		if !ok {
			t.Fatal("unsolvable")
		}
		return sol
	}
	edit := func(payload string, f func(*Solution)) string {
		raw, _ := base64.StdEncoding.DecodeString(payload)
		var sol Solution
		json.Unmarshal(raw, &sol)
		f(&sol)
		raw, _ = json.Marshal(sol)
		return base64.StdEncoding.EncodeToString(raw)
	}
	good := solve()
	for _, tc := range []struct {
		name   string
		altcha string
		code   string
	}{
		{"wrong number", edit(solve(), func(s *Solution) { s.Number++ }), "invalid"},
		{"negative number", edit(solve(), func(s *Solution) { s.Number = -1 }), "invalid"},
		{"other algorithm", edit(solve(), func(s *Solution) { s.Algorithm = "SHA-1" }), "invalid"},
		{"salt with a later expiry", edit(solve(), func(s *Solution) { s.Salt += "expires=9999999999" }), "invalid"},
		{"signature of another challenge", edit(solve(), func(s *Solution) { s.Signature = s.Challenge }), "invalid"},
		{"not JSON", base64.StdEncoding.EncodeToString([]byte("nope")), "invalid"},
		{"good", good, ""},
		{"good twice", good, "invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Contact(context.Background(), in(tc.altcha))
			var verr *store.ValidationError
			switch {
			case tc.code == "" && err != nil:
				t.Fatal(err)
			case tc.code != "" && (!errors.As(err, &verr) || verr.Fields["altcha"].Code != tc.code):
				t.Fatalf("err %v, want altcha %s", err, tc.code)
			}
		})
	}
	late := solve()
	now = now.Add(DefaultPowTTL + time.Second)
	var verr *store.ValidationError
	if _, err := s.Contact(context.Background(), in(late)); !errors.As(err, &verr) || verr.Fields["altcha"].Code != "expired" {
		t.Fatalf("expired: %v", err)
	}
	// Spent challenges that expired are swept when another is spent.
	if _, err := s.Contact(context.Background(), in(solve())); err != nil {
		t.Fatal(err)
	}
	n := 0
	s.st.View(func(tx *bolt.Tx) error { n = tx.Bucket(bucketPow).Stats().KeyN; return nil })
	if n != 1 {
		t.Fatalf("%d spent challenges kept, want 1", n)
	}
}

func TestMessagesPagingAndSummaries(t *testing.T) {
	s := newService(t, Options{PerMinute: 1000})
	ctx := context.Background()
	var ids []uint64
	for i := range 7 {
		from, to := uint64(1), uint64(2)
		if i%2 == 1 {
			from, to = 2, 1
		}
		m, err := s.Send(ctx, from, to, "m")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	// Another pair's conversation never mixes in.
	if _, err := s.Send(ctx, 1, 3, "other"); err != nil {
		t.Fatal(err)
	}
	var got []uint64
	before := uint64(0)
	for {
		page, more, err := s.Messages(2, 1, before, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(page) - 1; i >= 0; i-- {
			got = append(got, page[i].ID)
		}
		if !more {
			break
		}
		before = page[0].ID
	}
	if len(got) != 7 || got[0] != ids[6] || got[6] != ids[0] {
		t.Fatalf("pages %v, ids %v", got, ids)
	}
	// Writing reads what came before: 2 has only 1's last message unread.
	list, err := s.Conversations(2)
	if err != nil || len(list) != 1 || list[0].Unread != 1 || list[0].Other != 1 || list[0].OtherReadUpTo != ids[6] {
		t.Fatalf("2's conversations %+v %v", list, err)
	}
	list, _ = s.Conversations(1)
	if len(list) != 2 || list[0].Other != 3 || list[1].Unread != 0 {
		t.Fatalf("1's conversations %+v", list)
	}
}

func TestDeleteUserKeepsOthersWords(t *testing.T) {
	s := newService(t, Options{PerMinute: 1000})
	ctx := context.Background()
	r, _ := s.RequestFriend(ctx, 1, 2)
	s.AnswerRequest(ctx, 2, r.ID, true)
	s.RequestFriend(ctx, 1, 3)
	s.Block(ctx, 4, 1)
	s.Send(ctx, 1, 2, "from 1")
	s.Send(ctx, 2, 1, "from 2")
	if err := s.DeleteUser(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for _, u := range []uint64{2, 3, 4} {
		g, _ := s.Graph(u)
		if len(g.Friends)+len(g.Incoming)+len(g.Outgoing)+len(g.Blocked) != 0 {
			t.Fatalf("%d still relates to the deleted account: %+v", u, g)
		}
	}
	msgs, _, _ := s.Messages(2, 1, 0, 10)
	if len(msgs) != 1 || msgs[0].Text != "from 2" {
		t.Fatalf("2's conversation after the deletion: %+v", msgs)
	}
	if _, err := s.Request(r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("request kept: %v", err)
	}
}

// One account's friend requests are bounded per hour, cancelled ones too:
// asking, cancelling and asking again cannot flood another's notifications.
func TestFriendRequestRate(t *testing.T) {
	s := newService(t, Options{})
	ctx := context.Background()
	for i := range FriendRequestsPerHour {
		r, err := s.RequestFriend(ctx, 1, 2)
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		if _, err := s.CancelRequest(ctx, 1, r.ID); err != nil {
			t.Fatalf("cancel %d: %v", i+1, err)
		}
	}
	_, err := s.RequestFriend(ctx, 1, 3)
	var r *store.Refusal
	if !errors.As(err, &r) || r.Kind != store.KindRateLimited || r.RetryAfter <= 0 {
		t.Fatalf("one request over the hour's bound: %v", err)
	}
	if _, err := s.RequestFriend(ctx, 4, 3); err != nil {
		t.Fatalf("another account is not bound by the first one's requests: %v", err)
	}
}

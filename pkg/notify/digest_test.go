package notify

import (
	"context"
	"testing"
)

// A digest carries each unread notification once: read ones are left
// out, the ones already carried are not carried again, and an account
// that turned the digest off gets none.
func TestTakeUndigested(t *testing.T) {
	ctx := context.Background()
	type step struct {
		add      int  // notifications added first
		readAll  bool // then all marked read
		digestOn *bool
		want     int // notifications the digest takes
	}
	on, off := true, false
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"nothing yet", []step{{digestOn: &on, want: 0}}},
		{"off until turned on", []step{{add: 2, want: 0}, {digestOn: &on, want: 2}, {want: 0}}},
		{"new ones once", []step{{digestOn: &on, add: 3, want: 3}, {want: 0}, {add: 1, want: 1}}},
		{"read ones are left out", []step{{digestOn: &on, add: 2, readAll: true, want: 0}, {add: 1, want: 1}}},
		{"turned off", []step{{digestOn: &on}, {add: 2, digestOn: &off, want: 0}, {digestOn: &on, want: 2}, {want: 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t)
			for i, st := range tc.steps {
				for range st.add {
					if err := s.Add(ctx, 7, KindMention, map[string]any{"by": map[string]string{"name": "Ann"}}); err != nil {
						t.Fatal(err)
					}
				}
				if st.readAll {
					if _, err := s.MarkRead(7, nil, true); err != nil {
						t.Fatal(err)
					}
				}
				if st.digestOn != nil {
					if _, err := s.SetSettings(7, Settings{SettingEmailDigest: *st.digestOn}); err != nil {
						t.Fatal(err)
					}
				}
				got, err := s.TakeUndigested(7)
				if err != nil || len(got) != st.want {
					t.Fatalf("step %d: %d taken (%v), want %d", i+1, len(got), err, st.want)
				}
				for j := 1; j < len(got); j++ {
					if got[j].ID <= got[j-1].ID {
						t.Fatalf("step %d: not oldest first", i+1)
					}
				}
			}
			if other, _ := s.TakeUndigested(8); len(other) != 0 {
				t.Fatal("another account's notifications were taken")
			}
		})
	}
}

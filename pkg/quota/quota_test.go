package quota

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/devhub/devhub/pkg/store/storetest"
)

func ptr(n int64) *int64 { return &n }

func TestParseBytes(t *testing.T) {
	cases := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"1048576", 1 << 20, false},
		{"10GiB", 10 << 30, false},
		{"10 gib", 10 << 30, false},
		{"500MB", 500e6, false},
		{"1.5G", 3 << 29, false},
		{"2T", 2 << 40, false},
		{"64k", 64 << 10, false},
		{"unlimited", Unlimited, false},
		{"", 0, true},
		{"GiB", 0, true},
		{"10 parsecs", 0, true},
		{"-5", 0, true},
		{"1e30", 0, true},
		{"99999999999TB", 0, true},
	}
	for _, tc := range cases {
		got, err := ParseBytes(tc.in)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestLimit(t *testing.T) {
	cases := []struct {
		name     string
		defaults Amount
		admin    bool
		override Override
		user     uint64
		want     Limit
	}{
		{"defaults", Amount{Bytes: 100, Files: 5}, false, Override{}, 2, Limit{ptr(100), ptr(5)}},
		{"zero default is unlimited", Amount{Bytes: 0, Files: 5}, false, Override{}, 2, Limit{nil, ptr(5)}},
		{"admin unlimited", Amount{Bytes: 100, Files: 5}, true, Override{}, 2, Limit{}},
		{"admin with an override", Amount{Bytes: 100, Files: 5}, true, Override{Bytes: ptr(50)}, 2, Limit{ptr(50), nil}},
		{"override lifts one", Amount{Bytes: 100, Files: 5}, false, Override{Files: ptr(Unlimited)}, 2, Limit{ptr(100), nil}},
		{"override of zero", Amount{Bytes: 100, Files: 5}, false, Override{Bytes: ptr(0)}, 2, Limit{ptr(0), ptr(5)}},
		{"the CLI owner is never limited", Amount{Bytes: 100, Files: 5}, false, Override{Bytes: ptr(1)}, 0, Limit{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(storetest.Open(t), tc.defaults, func(uint64) bool { return tc.admin })
			if err != nil {
				t.Fatal(err)
			}
			if err := s.SetOverride(t.Context(), tc.user, tc.override); err != nil {
				t.Fatal(err)
			}
			got, err := s.Limit(tc.user)
			if err != nil {
				t.Fatal(err)
			}
			if !eq(got.Bytes, tc.want.Bytes) || !eq(got.Files, tc.want.Files) {
				t.Fatalf("limit %v/%v, want %v/%v", show(got.Bytes), show(got.Files), show(tc.want.Bytes), show(tc.want.Files))
			}
		})
	}
}

func eq(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
func show(p *int64) any {
	if p == nil {
		return "unlimited"
	}
	return *p
}

// TestWithinSerialises: twenty writers of 10 bytes each race for a quota
// of 100; exactly ten fit, and the refusals carry the figures.
func TestWithinSerialises(t *testing.T) {
	s, err := New(storetest.Open(t), Amount{Bytes: 100}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var stored int64
	s.AddMeter(func(uint64) Amount { mu.Lock(); defer mu.Unlock(); return Amount{Bytes: stored} })
	var wg sync.WaitGroup
	var okN, refused int
	var rmu sync.Mutex
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Within(7, Amount{Bytes: 10, Files: 1}, func() error {
				mu.Lock()
				stored += 10
				mu.Unlock()
				return nil
			})
			rmu.Lock()
			defer rmu.Unlock()
			var qe *ExceededError
			switch {
			case err == nil:
				okN++
			case errors.As(err, &qe) && errors.Is(err, ErrExceeded) && qe.Used.Bytes == 100 && *qe.Limit.Bytes == 100:
				refused++
			default:
				t.Errorf("unexpected %v", err)
			}
		}()
	}
	wg.Wait()
	if okN != 10 || refused != 10 || stored != 100 {
		t.Fatalf("%d fitted, %d refused, %d stored", okN, refused, stored)
	}
}

// A cancelled context stores no override.
func TestSetOverrideHonoursCancel(t *testing.T) {
	s, err := New(storetest.Open(t), Amount{Bytes: 100}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.SetOverride(ctx, 1, Override{Bytes: ptr(5)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("override after cancel: %v", err)
	}
	if o, err := s.Override(1); err != nil || o.Bytes != nil || o.Files != nil {
		t.Fatalf("after a cancelled override: %+v %v", o, err)
	}
}

package gamecontrols

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func TestValidate(t *testing.T) {
	many := map[string]int{}
	for i := 0; i <= MaxBindings; i++ {
		many[fmt.Sprintf("Key%d", i)] = 0
	}
	cases := []struct {
		name  string
		m     Mapping
		field string // "" = valid
	}{
		{"empty (defaults)", Mapping{}, ""},
		{"keys and pad", Mapping{Keys: map[string]int{"KeyK": 8, "ArrowUp": 4}, Gamepad: map[string]int{"0": 8, "15": 7, "31": 11}}, ""},
		{"key code with a dash", Mapping{Keys: map[string]int{"Key-K": 8}}, "keys"},
		{"empty key code", Mapping{Keys: map[string]int{"": 8}}, "keys"},
		{"button id past R", Mapping{Keys: map[string]int{"KeyK": 12}}, "keys"},
		{"negative button id", Mapping{Gamepad: map[string]int{"1": -1}}, "gamepad"},
		{"pad index not a number", Mapping{Gamepad: map[string]int{"A": 8}}, "gamepad"},
		{"pad index with a leading zero", Mapping{Gamepad: map[string]int{"01": 8}}, "gamepad"},
		{"pad index past 31", Mapping{Gamepad: map[string]int{"32": 8}}, "gamepad"},
		{"too many keys", Mapping{Keys: many}, "keys"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.m.Validate()
			var verr *store.ValidationError
			switch {
			case tc.field == "" && err != nil:
				t.Fatalf("want valid, got %v", err)
			case tc.field != "" && !errors.As(err, &verr):
				t.Fatalf("want a validation error on %s, got %v", tc.field, err)
			case tc.field != "":
				if _, ok := verr.Fields[tc.field]; !ok {
					t.Fatalf("want an error on %s, got %v", tc.field, err)
				}
			}
		})
	}
}

func TestPutGetReset(t *testing.T) {
	s, err := New(storetest.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := s.Get(1, "nes")
	if err != nil || m.Keys != nil || m.Gamepad != nil || m.UpdatedAt != nil {
		t.Fatalf("nothing saved: %+v %v", m, err)
	}
	saved, err := s.Put(ctx, 1, "nes", Mapping{Keys: map[string]int{"KeyK": 8}, Gamepad: map[string]int{"2": 8}})
	if err != nil || saved.UpdatedAt == nil {
		t.Fatalf("put: %+v %v", saved, err)
	}
	got, err := s.Get(1, "nes")
	if err != nil || got.Keys["KeyK"] != 8 || got.Gamepad["2"] != 8 || got.UpdatedAt == nil {
		t.Fatalf("get: %+v %v", got, err)
	}
	// Another console and another user see nothing of it.
	for _, who := range []struct {
		user    uint64
		console string
	}{{1, "snes"}, {2, "nes"}} {
		if m, _ := s.Get(who.user, who.console); m.Keys != nil {
			t.Fatalf("user %d %s sees %+v", who.user, who.console, m)
		}
	}
	// A refused mapping leaves the saved one.
	if _, err := s.Put(ctx, 1, "nes", Mapping{Keys: map[string]int{"KeyK": 99}}); err == nil {
		t.Fatal("bad mapping stored")
	}
	if got, _ := s.Get(1, "nes"); got.Keys["KeyK"] != 8 {
		t.Fatalf("after a refused put: %+v", got)
	}
	if err := s.Reset(ctx, 1, "nes"); err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(ctx, 1, "nes"); err != nil {
		t.Fatalf("reset twice: %v", err)
	}
	if got, _ := s.Get(1, "nes"); got.Keys != nil || got.UpdatedAt != nil {
		t.Fatalf("after reset: %+v", got)
	}
	for _, bad := range []string{"", "NES", "../x", "nes/1"} {
		if _, err := s.Get(1, bad); !errors.Is(err, ErrBadConsole) {
			t.Errorf("console %q: %v", bad, err)
		}
		if _, err := s.Put(ctx, 1, bad, Mapping{}); !errors.Is(err, ErrBadConsole) {
			t.Errorf("put console %q: %v", bad, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Put(cancelled, 1, "nes", Mapping{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
}

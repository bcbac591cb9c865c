package paging

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/devhub/devhub/pkg/store"
)

func TestOffset(t *testing.T) {
	tests := []struct {
		name              string
		page, limit, want int
	}{
		{"first page", 1, 20, 0},
		{"third page", 3, 20, 40},
		{"page 0 counts as 1", 0, 20, 0},
		{"negative page counts as 1", -5, 20, 0},
		{"no limit", 7, 0, 0},
		{"the last offset that fits", MaxOffset/10 + 1, 10, MaxOffset / 10 * 10},
		{"one page further", MaxOffset/10 + 2, 10, MaxOffset},
		{"the largest page number", math.MaxInt, 2, MaxOffset},
		{"the largest page and limit", math.MaxInt, math.MaxInt, MaxOffset},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Offset(tc.page, tc.limit); got != tc.want {
				t.Fatalf("Offset(%d, %d) = %d, want %d", tc.page, tc.limit, got, tc.want)
			}
		})
	}
}

func TestRuleNormalize(t *testing.T) {
	blog := Rule{Default: 5, Max: 50, Strict: true}
	downloads := Rule{Default: 20, Max: 100, Over: Refuse, Strict: true}
	roms := Rule{Default: 100, Max: 500}
	forum := Rule{Default: 20, Max: 100, Over: Reset}
	all := Rule{}
	tests := []struct {
		name    string
		rule    Rule
		q, want Query
		field   string // the field refused, "" when valid
	}{
		{"defaults", blog, Query{}, Query{1, 5}, ""},
		{"as asked", blog, Query{3, 7}, Query{3, 7}, ""},
		{"capped", blog, Query{1, 1000}, Query{1, 50}, ""},
		{"at the cap", downloads, Query{1, 100}, Query{1, 100}, ""},
		{"over the max refused", downloads, Query{1, 101}, Query{1, 101}, "limit"},
		{"strict negative page", blog, Query{-1, 0}, Query{1, 5}, "page"},
		{"strict negative limit", blog, Query{1, -3}, Query{1, -3}, "limit"},
		{"lenient negative page", roms, Query{-4, 0}, Query{1, 100}, ""},
		{"lenient negative limit", roms, Query{1, -4}, Query{1, 100}, ""},
		{"lenient cap", roms, Query{2, 100000}, Query{2, 500}, ""},
		{"reset over the max", forum, Query{1, 101}, Query{1, 20}, ""},
		{"reset keeps the max", forum, Query{1, 100}, Query{1, 100}, ""},
		{"no default is the whole list", all, Query{}, Query{1, 0}, ""},
		{"no max", all, Query{2, 1 << 40}, Query{2, 1 << 40}, ""},
		{"absurd page kept", roms, Query{1<<56 + 1, 256}, Query{1<<56 + 1, 256}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.rule.Normalize(tc.q)
			if tc.field == "" {
				if err != nil || got != tc.want {
					t.Fatalf("Normalize(%+v) = %+v, %v; want %+v", tc.q, got, err, tc.want)
				}
				return
			}
			var ve *store.ValidationError
			if !errors.As(err, &ve) || ve.Fields[tc.field].Code != "invalid" {
				t.Fatalf("Normalize(%+v) error = %v; want %s refused", tc.q, err, tc.field)
			}
		})
	}
}

func TestRefusedLimitSaysTheRange(t *testing.T) {
	_, err := Rule{Default: 20, Max: 100, Over: Refuse, Strict: true}.Normalize(Query{Limit: 101})
	var ve *store.ValidationError
	if !errors.As(err, &ve) || ve.Fields["limit"].Message != "limit must be between 1 and 100" {
		t.Fatalf("error = %#v", err)
	}
}

func TestCut(t *testing.T) {
	list := []int{1, 2, 3, 4, 5, 6, 7}
	tests := []struct {
		name  string
		q     Query
		items []int
	}{
		{"first page", Query{1, 3}, []int{1, 2, 3}},
		{"last, short page", Query{3, 3}, []int{7}},
		{"past the end", Query{4, 3}, []int{}},
		{"absurd page", Query{math.MaxInt, 3}, []int{}},
		{"whole list", Query{1, 0}, list},
		{"larger than the list", Query{1, 100}, list},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Cut(list, tc.q)
			if !slices.Equal(p.Items, tc.items) || p.Items == nil || p.Total != len(list) || p.Page != tc.q.Page || p.Limit != tc.q.Limit {
				t.Fatalf("Cut(%+v) = %+v, want items %v of %d", tc.q, p, tc.items, len(list))
			}
			added := Start[int](tc.q)
			for _, x := range list {
				added.Add(x)
			}
			if !slices.Equal(added.Items, p.Items) || added.Total != p.Total {
				t.Fatalf("Add over %+v = %+v, want %+v", tc.q, added, p)
			}
		})
	}
}

func TestSize(t *testing.T) {
	r := Rule{Default: 100, Max: 100, Over: Cap}
	for limit, want := range map[int]int{-1: 100, 0: 100, 1: 1, 100: 100, 101: 100} {
		if got := r.Size(limit); got != want {
			t.Errorf("Size(%d) = %d, want %d", limit, got, want)
		}
	}
	if got := (Rule{Default: 20, Max: 50, Over: Refuse, Strict: true}).Size(80); got != 50 {
		t.Errorf("a refusing rule's Size(80) = %d, want the max", got)
	}
}

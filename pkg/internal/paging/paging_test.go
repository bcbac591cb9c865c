package paging

import (
	"math"
	"testing"
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

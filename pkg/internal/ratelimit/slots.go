package ratelimit

import "sync"

// Slots caps work in progress: at most maxAll at once in all, and at most
// maxPerKey for one key (a user, a client network). Unlike a Limiter it
// counts what is running now, not what started lately: it is for work that
// holds CPU or a connection for as long as it runs.
type Slots[K comparable] struct {
	mu        sync.Mutex
	maxAll    int
	maxPerKey int
	active    int
	perKey    map[K]int
}

// NewSlots makes Slots with the two caps (each at least 1).
func NewSlots[K comparable](maxAll, maxPerKey int) *Slots[K] {
	return &Slots[K]{maxAll: max(maxAll, 1), maxPerKey: max(maxPerKey, 1), perKey: map[K]int{}}
}

// Active is how many slots are held now.
func (s *Slots[K]) Active() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active
}

// Take holds a slot for key, or reports false when either cap is reached.
// release gives it back; calling it more than once gives back one slot.
func (s *Slots[K]) Take(key K) (release func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active >= s.maxAll || s.perKey[key] >= s.maxPerKey {
		return nil, false
	}
	s.active++
	s.perKey[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.active--
			if s.perKey[key]--; s.perKey[key] <= 0 {
				delete(s.perKey, key)
			}
		})
	}, true
}

package chat

import (
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// WrittenBy is every message of user's the room still keeps, oldest first
// (for a copy of their data).
func (s *Service) WrittenBy(user uint64) ([]Message, error) {
	out := []Message{}
	if user == 0 {
		return out, nil
	}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(messagesBucket)), func(_ []byte, m *Message) error {
			if m.Author.ID == user {
				out = append(out, *m)
			}
			return nil
		})
	})
	return out, err
}

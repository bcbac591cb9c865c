package notify

import (
	"encoding/json"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// TakeUndigested returns userID's unread notifications that no digest
// carried yet, oldest first, and marks them carried: each notification is
// handed out at most once, even if the mail that carries it is lost. It
// returns none unless the account turned the digest on (nothing is marked
// then: turning it on mails those still unread).
func (s *Service) TakeUndigested(userID uint64) ([]Notification, error) {
	var out []Notification
	err := s.st.Update(func(tx *bolt.Tx) error {
		off, err := offKinds(tx, userID)
		if err != nil || !off[SettingEmailDigest] {
			return err
		}
		b := tx.Bucket([]byte(itemsBucket)).Bucket(store.Itob(userID))
		if b == nil {
			return nil
		}
		mailed := tx.Bucket([]byte(mailedBucket))
		var upTo uint64
		if v := mailed.Get(store.Itob(userID)); len(v) == 8 {
			upTo = store.Btoi(v)
		}
		c := b.Cursor()
		var last uint64
		for k, v := c.Seek(store.Itob(upTo + 1)); k != nil; k, v = c.Next() {
			var n Notification
			if err := json.Unmarshal(v, &n); err != nil {
				return err
			}
			last = n.ID
			if !n.Read {
				out = append(out, n)
			}
		}
		if last == 0 {
			return nil
		}
		return mailed.Put(store.Itob(userID), store.Itob(last))
	})
	return out, err
}

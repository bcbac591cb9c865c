package discuss

import (
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// AuthoredPost is a forum post with the title of its thread, as a copy of
// its author's writing lists it.
type AuthoredPost struct {
	Post
	ThreadTitle string `json:"threadTitle"`
}

// Writings is everything an account wrote here that is still kept, in any
// state (pending, published or hidden), oldest first (ids are given in
// the order things are written).
type Writings struct {
	Comments []Comment      `json:"comments"`
	Posts    []AuthoredPost `json:"posts"`
}

// WrittenBy gathers user's comments and forum posts (for a copy of their
// data). It reads every comment and post once: an export is rare, and no
// index by author is worth keeping up to date for it.
func (s *Service) WrittenBy(user uint64) (*Writings, error) {
	w := &Writings{Comments: []Comment{}, Posts: []AuthoredPost{}}
	if user == 0 {
		return w, nil
	}
	err := s.st.View(func(tx *bolt.Tx) error {
		err := store.ForEachJSON(tx.Bucket([]byte(bucketComments)), func(_ []byte, c *Comment) error {
			if c.Author.ID == user {
				w.Comments = append(w.Comments, *c)
			}
			return nil
		})
		if err != nil {
			return err
		}
		tb := tx.Bucket([]byte(bucketThreads))
		return store.ForEachJSON(tx.Bucket([]byte(bucketPosts)), func(_ []byte, p *Post) error {
			if p.Author.ID != user {
				return nil
			}
			ap := AuthoredPost{Post: *p}
			var t Thread
			if store.GetJSON(tb, store.Itob(p.ThreadID), &t) == nil {
				ap.ThreadTitle = t.Title
			}
			w.Posts = append(w.Posts, ap)
			return nil
		})
	})
	return w, err
}

package blog

import (
	"bytes"
	"context"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// bucketRevisions keeps earlier versions of articles' text, keyed by the
// article's id and then the revision's own sequence (both big-endian), so
// one article's revisions are one ordered key range.
var bucketRevisions = []byte("article_revisions")

// MaxRevisions is how many earlier versions are kept per article; a save
// past it drops the oldest.
const MaxRevisions = 20

// Revision is an earlier version of an article's text: what it said before
// a save changed it, when that version was saved and by whom.
type Revision struct {
	ID        uint64    `json:"id"`
	ArticleID uint64    `json:"articleId"`
	Version   int       `json:"version"`
	Name      string    `json:"name"`
	Excerpt   string    `json:"excerpt"`
	Content   string    `json:"content"`
	SavedAt   time.Time `json:"savedAt"`
	Author    string    `json:"author"`
}

func revisionKey(articleID, rev uint64) []byte {
	return append(store.Itob(articleID), store.Itob(rev)...)
}

// textChanged reports whether a save from old to next changes what a
// reader reads: the title, the excerpt or the body.
func textChanged(old, next *Article) bool {
	return old.Name != next.Name || old.Excerpt != next.Excerpt || old.Content != next.Content
}

// keepRevisionTx stores old's text as a revision of its article and drops
// the oldest ones past MaxRevisions.
func keepRevisionTx(tx *bolt.Tx, old *Article) error {
	b := tx.Bucket(bucketRevisions)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	r := Revision{ID: seq, ArticleID: old.ID, Version: old.Version, Name: old.Name, Excerpt: old.Excerpt,
		Content: old.Content, SavedAt: old.UpdatedAt, Author: old.EditedBy}
	if err := store.PutJSON(b, revisionKey(old.ID, seq), &r); err != nil {
		return err
	}
	keys := revisionKeys(b, old.ID)
	for len(keys) > MaxRevisions {
		if err := b.Delete(keys[0]); err != nil {
			return err
		}
		keys = keys[1:]
	}
	return nil
}

// revisionKeys lists an article's revision keys, oldest first.
func revisionKeys(b *bolt.Bucket, articleID uint64) [][]byte {
	prefix := store.Itob(articleID)
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	return keys
}

// deleteRevisionsTx removes every revision of an article.
func deleteRevisionsTx(tx *bolt.Tx, articleID uint64) error {
	b := tx.Bucket(bucketRevisions)
	for _, k := range revisionKeys(b, articleID) {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Revisions lists the kept earlier versions of the article with id, newest
// first; store.ErrNotFound when there is no such article.
func (s *Service) Revisions(id uint64) ([]Revision, error) {
	out := []Revision{}
	err := s.st.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketArticles).Get(store.Itob(id)) == nil {
			return store.ErrNotFound
		}
		b := tx.Bucket(bucketRevisions)
		keys := revisionKeys(b, id)
		for i := len(keys) - 1; i >= 0; i-- {
			var r Revision
			if err := store.GetJSON(b, keys[i], &r); err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// Revision returns one revision of the article with id.
func (s *Service) Revision(id, rev uint64) (*Revision, error) {
	var r Revision
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.GetJSON(tx.Bucket(bucketRevisions), revisionKey(id, rev), &r)
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Restore puts a revision's text back as a new save (the text it replaces
// is kept as a revision in turn). version, when set, must be the article's
// current one, as for Update.
func (s *Service) Restore(ctx context.Context, id, rev uint64, version *int, editor string) (*Article, error) {
	r, err := s.Revision(id, rev)
	if err != nil {
		return nil, err
	}
	return s.Update(ctx, id, Patch{Name: &r.Name, Excerpt: &r.Excerpt, Content: &r.Content, Version: version, EditedBy: editor})
}

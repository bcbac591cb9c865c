package newsletter

import (
	"context"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// Sent records that an article was dealt with: mailed to Recipients
// subscribers at At, or Skipped (its author switched the newsletter off).
// An article with a record is never mailed again.
type Sent struct {
	At         time.Time `json:"at"`
	Lang       string    `json:"lang"`
	Recipients int       `json:"recipients"`
	Skipped    bool      `json:"skipped,omitempty"`
}

// WasSent reports whether article id has a record.
func (s *Service) WasSent(id uint64) (bool, error) {
	var found bool
	err := s.st.View(func(tx *bolt.Tx) error {
		found = tx.Bucket(bucketSent).Get(store.Itob(id)) != nil
		return nil
	})
	return found, err
}

// SentRecord returns article id's record, or store.ErrNotFound.
func (s *Service) SentRecord(id uint64) (*Sent, error) {
	return store.ViewJSON[Sent](s.st, bucketSent, id)
}

// ArticleLang is the subscribers' language an article in lang (a BCP 47
// tag) is mailed to: its primary language, lower-cased.
func ArticleLang(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i > 0 {
		lang = lang[:i]
	}
	return lang
}

// Dispatch deals with article id, written in lang, once: in one transaction
// it checks that the article has no record yet, hands the confirmed
// subscribers of that language to enqueue (which queues their letters in
// the same transaction; skip leaves it uncalled) and writes the record. So
// the letters are queued exactly when the record is written, and a second
// call — after a restart, an edit, a re-publication — does nothing. It
// reports whether this call wrote the record.
func (s *Service) Dispatch(ctx context.Context, id uint64, lang string, skip bool,
	enqueue func(tx *bolt.Tx, subs []Subscriber) error) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	lang = ArticleLang(lang)
	done := false
	err := s.st.Update(func(tx *bolt.Tx) error {
		sent := tx.Bucket(bucketSent)
		if sent.Get(store.Itob(id)) != nil {
			return nil
		}
		rec := Sent{At: s.now(), Lang: lang, Skipped: skip}
		if !skip {
			var subs []Subscriber
			err := store.ForEachJSON(tx.Bucket(bucketSubscribers), func(_ []byte, sub *stored) error {
				if sub.Confirmed && sub.Lang == lang {
					subs = append(subs, sub.Subscriber)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if len(subs) > 0 {
				if err := enqueue(tx, subs); err != nil {
					return err
				}
			}
			rec.Recipients = len(subs)
		}
		done = true
		return store.PutJSON(sent, store.Itob(id), rec)
	})
	return done, err
}

package mail

import (
	"errors"
	"fmt"
	"net/mail"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// EnqueueTx stores msgs for delivery inside tx, the caller's transaction of
// the same store: the messages are queued if and only if the rest of the
// caller's write commits (a newsletter's "sent" mark and its letters).
// Call Wake after the transaction committed.
func (q *Queue) EnqueueTx(tx *bolt.Tx, msgs ...Message) error {
	b := tx.Bucket([]byte(bucket))
	if b == nil {
		return errors.New("mail: the queue's bucket is missing")
	}
	now := time.Now().UTC()
	for _, m := range msgs {
		if _, err := mail.ParseAddress(m.To); err != nil {
			return store.Invalid("to", "invalid", "not an e-mail address")
		}
		if m.Subject == "" || m.Text == "" {
			return errors.New("mail: a message needs a subject and a text")
		}
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := store.PutJSON(b, store.Itob(id), queued{Message: m, QueuedAt: now, NextAt: now}); err != nil {
			return fmt.Errorf("mail: queue: %w", err)
		}
	}
	return nil
}

// Wake has the worker look at the queue now (after EnqueueTx).
func (q *Queue) Wake() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

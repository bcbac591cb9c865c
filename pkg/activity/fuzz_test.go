package activity

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// FuzzLog: any activity payload is stored within MaxStoredBytes or refused
// with a validation error, never half-stored, never a panic.
func FuzzLog(f *testing.F) {
	for _, s := range []string{
		`{"action":"page_load"}`,
		`{"action":"x","details":{"a":"<<<<>>>&&&"},"timestamp":"2025-01-01T00:00:00Z"}`,
		`{"action":"x","timestamp":1700000000000,"clientInfo":{"userAgent":"\u0001\u0002","screenWidth":-1}}`,
		`{"action":"x","details":[1]}`,
		`{"action":"1bad"}`,
		`{"action":"x","clientInfo":{"deviceType":"fridge","connection":{"effectiveType":"4g","rtt":null}}}`,
		`null`, `[]`, `{"action":"x","details":{"deep":{"deeper":{"deepest":[1,2,3,{"x":"\ud800"}]}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in Input
		if json.Unmarshal(body, &in) != nil {
			return // the route answers 400 before the service sees it
		}
		st := openStore(t)
		svc := newService(t, st, Options{})
		ev, err := svc.Log(context.Background(), in, Meta{IP: ip1})
		n, _ := svc.Count()
		if err != nil {
			var ve *store.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("not a validation error: %v", err)
			}
			if n != 0 {
				t.Fatalf("a refused event was stored")
			}
			return
		}
		var size int
		st.View(func(tx *bolt.Tx) error {
			size = len(tx.Bucket([]byte(bucketName)).Get(store.Itob(ev.ID)))
			return nil
		})
		if n != 1 || size == 0 || size > MaxStoredBytes {
			t.Fatalf("%d events, stored %d bytes", n, size)
		}
	})
}

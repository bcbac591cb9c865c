package safe

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPanicIsLoggedAndContained(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	Go(log, "thumbnail sweep", func() {
		var s []int
		_ = s[len(s)] // an index out of range: a runtime panic
	})
	Run(log, "rom scan", func() { panic("disk vanished") })
	// The goroutine's line is written once its panic has unwound: wait for it.
	var out string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		out = buf.String()
		mu.Unlock()
		if strings.Contains(out, "thumbnail sweep") {
			break
		}
	}
	for _, want := range []string{"what=\"thumbnail sweep\"", "index out of range", "what=\"rom scan\"", "disk vanished", "stack="} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

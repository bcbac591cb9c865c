// Package smtptest runs a real SMTP server (emersion/go-smtp) on 127.0.0.1
// inside a test process and keeps what it receives, for tests of the mail
// that devhub sends. Only tests import it.
package smtptest

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Received is one message as the server took it.
type Received struct {
	From string
	To   []string
	// Raw is the message as sent (headers and MIME body).
	Raw []byte
}

// Header parses the message's header.
func (r Received) Header() mail.Header {
	m, err := mail.ReadMessage(bytes.NewReader(r.Raw))
	if err != nil {
		return mail.Header{}
	}
	return m.Header
}

// Server is a running SMTP server.
type Server struct {
	Host string
	Port int

	mu       sync.Mutex
	got      []Received
	down     bool
	attempts int
	changed  chan struct{}
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, changed: make(chan struct{})}
	srv := smtp.NewServer(s)
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.AllowInsecureAuth = true
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// SetDown makes the server refuse every message with a temporary failure
// (an outage) or take them again.
func (s *Server) SetDown(down bool) {
	s.mu.Lock()
	s.down = down
	s.mu.Unlock()
}

// Attempts is how many messages were offered (refused ones too).
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// Messages returns what was received so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// Wait returns once n messages were received, or fails the test after
// timeout.
func (s *Server) Wait(t testing.TB, n int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		got, ch := append([]Received(nil), s.got...), s.changed
		s.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("smtptest: %d message(s) received within %s, want %d", len(got), timeout, n)
		}
	}
}

// WaitAttempts returns once n messages were offered, refused or not.
func (s *Server) WaitAttempts(t testing.TB, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		a, ch := s.attempts, s.changed
		s.mu.Unlock()
		if a >= n {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("smtptest: %d attempt(s) within %s, want %d", a, timeout, n)
		}
	}
}

func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// NewSession implements smtp.Backend.
func (s *Server) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }

type session struct {
	s    *Server
	from string
	to   []string
}

var errDown = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	x.s.attempts++
	x.s.notify()
	if x.s.down {
		return errDown
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	if x.s.down {
		return errDown
	}
	x.s.got = append(x.s.got, Received{From: x.from, To: x.to, Raw: raw})
	x.s.notify()
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

// Parts returns the message's text/plain and text/html parts, decoded.
func (r Received) Parts() (text, html string, err error) {
	m, err := mail.ReadMessage(bytes.NewReader(r.Raw))
	if err != nil {
		return "", "", err
	}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		return "", "", err
	}
	if !strings.HasPrefix(mt, "multipart/") {
		body, err := decodePart(m.Header.Get("Content-Transfer-Encoding"), m.Body)
		return body, "", err
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return text, html, nil
		}
		if err != nil {
			return "", "", err
		}
		// multipart.Reader decodes quoted-printable parts itself.
		body, err := decodePart(p.Header.Get("Content-Transfer-Encoding"), p)
		if err != nil {
			return "", "", err
		}
		switch ct := p.Header.Get("Content-Type"); {
		case strings.HasPrefix(ct, "text/plain"):
			text = body
		case strings.HasPrefix(ct, "text/html"):
			html = body
		}
	}
}

func decodePart(enc string, r io.Reader) (string, error) {
	switch strings.ToLower(enc) {
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

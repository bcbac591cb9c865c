// Package mail sends devhub's e-mail. A message is first written to a
// queue in the store (Queue.Enqueue), then a worker hands it to the SMTP
// server; one that fails stays queued and is tried again with a growing
// wait (the first retry within a minute), so an outage of the mail server
// loses nothing. Messages are text and HTML in the recipient's language
// (Letter renders the ones devhub sends).
//
// Other areas send mail through Queue.Enqueue:
//
//	err := queue.Enqueue(ctx, mail.Letter(mail.KindPasswordReset, lang, addr, mail.Data{Site: site, Link: url}))
//
// or with a Message of their own (Subject, Text, optional HTML and headers).
package mail

import (
	"context"
	"errors"
	"fmt"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/devhub/devhub/pkg/config"
)

// Message is one e-mail to one recipient.
type Message struct {
	To      string `json:"to"`
	Lang    string `json:"lang,omitempty"`
	Subject string `json:"subject"`
	Text    string `json:"text"`
	HTML    string `json:"html,omitempty"`
	// Headers are extra header fields (List-Unsubscribe, …).
	Headers map[string]string `json:"headers,omitempty"`
}

// Sender hands a message to a mail server.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SMTP sends through the SMTP server of mail.* in the configuration.
type SMTP struct {
	cfg config.Mail
}

// NewSMTP checks cfg and returns its sender.
func NewSMTP(cfg config.Mail) (*SMTP, error) {
	if !cfg.Enabled() {
		return nil, errors.New("mail is off: set mail.host (and mail.from)")
	}
	return &SMTP{cfg: cfg}, nil
}

// sendTimeout bounds one delivery: connect, greet, send.
const sendTimeout = 30 * time.Second

// Send delivers m in one connection.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("mail.from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("recipient %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetMessageID()
	msg.SetDate()
	if m.Lang != "" {
		msg.SetGenHeader(gomail.HeaderContentLang, m.Lang)
	}
	for k, v := range m.Headers {
		msg.SetGenHeader(gomail.Header(k), v)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	opts := []gomail.Option{gomail.WithPort(s.cfg.Port), gomail.WithTimeout(sendTimeout)}
	switch s.cfg.Security {
	case "tls":
		opts = append(opts, gomail.WithSSL())
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.cfg.User != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.cfg.User), gomail.WithPassword(s.cfg.Password))
	}
	c, err := gomail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, msg)
}

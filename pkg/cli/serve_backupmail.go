package cli

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/backup"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/usecase"
)

// openMail builds the mail queue when mail.host is set; the CLI's and the
// server's use-cases queue into it, and only serve delivers
// (startBackupMail).
func (s *services) openMail() error {
	if !s.cfg.Mail.Enabled() {
		return nil
	}
	sender, err := mail.NewSMTP(s.cfg.Mail)
	if err != nil {
		return err
	}
	s.Mail, err = mail.NewQueue(s.Store, sender, s.log)
	return err
}

// checkVerifyEmail refuses auth.verify_email required where no link can be
// mailed: nobody who registers could ever sign in.
func checkVerifyEmail(cfg config.Config) error {
	if cfg.Auth.VerifyEmail != auth.VerifyRequired {
		return nil
	}
	switch {
	case !cfg.Mail.Enabled():
		return errors.New("auth.verify_email is required but mail is off: set mail.host and mail.from (or make auth.verify_email optional or off)")
	case cfg.Server.PublicURL == "":
		return errors.New("auth.verify_email is required but server.public_url is empty: the verification links need the site's address")
	}
	return nil
}

// mailHooks are the use-cases' mail hooks where mail is on: a change of
// e-mail waits for the link sent to the new address (which needs
// server.public_url), and contact form messages are mailed to the admins.
func (s *services) mailHooks() {
	if s.Mail == nil {
		return
	}
	s.ContactMail = s.hub.MailContact
	if s.hub.EmailLinksAvailable() {
		s.ConfirmNewEmail = s.hub.MailEmailChangeLink
	}
}

// startBackupMail starts serve's background work of this area until ctx
// ends: the mail queue's deliveries, the notification digests (every
// usecase.DigestEvery) and the backup schedule. A failed
// scheduled backup is logged, counted (/metrics), reported by the
// scheduler's Health (readiness) and mailed to the admins.
func (s *services) startBackupMail(ctx context.Context) error {
	if s.Mail != nil {
		s.Mail.Start(ctx)
		if s.cfg.Server.PublicURL == "" {
			s.log.Warn("mail is on but server.public_url is empty: \"forgot password\", e-mail verification and the confirmation of a new e-mail stay off, since their links need the site's address")
		}
		s.hub.StartDigests(ctx, usecase.DigestEvery)
	}
	sched, err := backup.ParseSchedule(s.cfg.Backup.Schedule)
	if err != nil || sched == nil {
		return err
	}
	s.Backups = backup.NewScheduler(sched, func(ctx context.Context) error {
		_, _, err := s.backupToDest(ctx, s.cfg.Backup.To)
		return err
	}, s.log)
	s.Backups.OnFailure = func(ctx context.Context, at time.Time, err error) {
		s.hub.MailAdmins(ctx, mail.KindBackupFailed, mail.Data{When: at.UTC().Format("2006-01-02 15:04 UTC"), Detail: err.Error()})
	}
	s.Backups.Start(ctx)
	s.log.Info("scheduled backups on", slog.String("schedule", s.cfg.Backup.Schedule), slog.Int("keep", s.cfg.Backup.Keep))
	return nil
}

package cli

import (
	"context"
	"fmt"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/mail"
)

func newMailCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mail",
		Short: "Check outgoing e-mail (mail.* in the config)",
		Long: `mail checks the SMTP settings: mail.host, mail.port, mail.security
(none, starttls or tls), mail.user and mail.from, with the password in
DEVHUB_MAIL_PASSWORD.`,
		Example:      `  devhub mail test me@example.org`,
		SilenceUsage: true,
	}
	cmd.AddCommand(newMailTestCmd(env))
	return cmd
}

func newMailTestCmd(env *Env) *cobra.Command {
	var lang string
	cmd := &cobra.Command{
		Use:   "test ADDRESS",
		Short: "Send a test message to ADDRESS now, straight to the mail server",
		Long: `test sends one message to ADDRESS through the configured SMTP server and
waits for the server's answer, so a wrong setting shows here at once
(the site's own mail goes through the queue and is retried).`,
		Example: `  devhub mail test me@example.org
  devhub mail test me@example.org --lang en`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sender, err := mail.NewSMTP(env.cfg.Mail)
			if err != nil {
				return err
			}
			site := "devhub"
			if u, err := url.Parse(env.cfg.Server.PublicURL); err == nil && u.Host != "" {
				site = u.Host
			}
			msg := mail.Letter(mail.KindTest, lang, args[0], mail.Data{Site: site})
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			if err := sender.Send(ctx, msg); err != nil {
				return fmt.Errorf("mail to %s not sent: %w", args[0], err)
			}
			env.Printf("test message sent to %s through %s:%d\n", args[0], env.cfg.Mail.Host, env.cfg.Mail.Port)
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", mail.DefaultLang, "language of the message: uk, ru or en")
	return cmd
}

package mail

import (
	"bytes"
	"html/template"
	"strings"
	texttemplate "text/template"
)

// Kind names one of the letters devhub sends.
type Kind string

// The letters.
const (
	KindTest          Kind = "test"
	KindPasswordReset Kind = "password_reset"
	KindBackupFailed  Kind = "backup_failed"
	// KindVerifyEmail carries the link that verifies a new account's
	// address; KindEmailChange the link, sent to the new address, that
	// confirms a change of e-mail; KindEmailChanged tells the old address
	// that the change was made.
	KindVerifyEmail  Kind = "verify_email"
	KindEmailChange  Kind = "email_change"
	KindEmailChanged Kind = "email_changed"
	// KindContact is a contact form message, to the admins.
	KindContact Kind = "contact"
	// KindDigest lists a user's unread notifications.
	KindDigest Kind = "notification_digest"
)

// Languages are the languages letters are written in; DefaultLang is used
// for any other.
var Languages = []string{"uk", "ru", "en"}

// DefaultLang is the site's primary language.
const DefaultLang = "uk"

// Data fills a letter's blanks.
type Data struct {
	// Site is the site's name or address, shown in the greeting line.
	Site string
	// Link is the letter's one link (reset page, …), shown as a button in
	// HTML and as the bare URL in text.
	Link string
	// Detail is a short free text (a backup's error).
	Detail string
	// When is a time already formatted for the reader.
	When string
	// Email is an address the letter names (the new one of a change).
	Email string
	// From is who wrote a message ("Name <address>").
	From string
	// Count is how many things the letter is about; Items lists them (a
	// bullet list in HTML, dashed lines in text).
	Count int
	Items []string
}

type letter struct {
	Subject   string
	Lines     []string
	LinkLabel string
}

// letters[kind][lang]; every line is a text/template over Data.
var letters = map[Kind]map[string]letter{
	KindTest: {
		"uk": {Subject: "Тестовий лист від {{.Site}}", Lines: []string{"Це тестовий лист: пошта сайту {{.Site}} налаштована правильно."}},
		"ru": {Subject: "Тестовое письмо от {{.Site}}", Lines: []string{"Это тестовое письмо: почта сайта {{.Site}} настроена правильно."}},
		"en": {Subject: "Test message from {{.Site}}", Lines: []string{"This is a test message: mail from {{.Site}} is set up correctly."}},
	},
	KindPasswordReset: {
		"uk": {Subject: "Скидання пароля на {{.Site}}", LinkLabel: "Встановити новий пароль", Lines: []string{
			"Хтось (сподіваємося, ви) попросив скинути пароль вашого облікового запису на {{.Site}}.",
			"Посилання діє одну годину і лише один раз. Після зміни пароля всі ваші сеанси буде завершено.",
			"Якщо ви не просили скидання, просто проігноруйте цей лист: пароль не зміниться."}},
		"ru": {Subject: "Сброс пароля на {{.Site}}", LinkLabel: "Задать новый пароль", Lines: []string{
			"Кто-то (надеемся, вы) попросил сбросить пароль вашей учётной записи на {{.Site}}.",
			"Ссылка действует один час и только один раз. После смены пароля все ваши сеансы будут завершены.",
			"Если вы не просили сброс, просто проигнорируйте это письмо: пароль не изменится."}},
		"en": {Subject: "Reset your password on {{.Site}}", LinkLabel: "Set a new password", Lines: []string{
			"Someone (hopefully you) asked to reset the password of your account on {{.Site}}.",
			"The link works once, for one hour. Setting a new password signs out all your sessions.",
			"If you did not ask for this, ignore this message: your password stays as it is."}},
	},
	KindBackupFailed: {
		"uk": {Subject: "Резервне копіювання {{.Site}} не вдалося", Lines: []string{
			"Заплановане резервне копіювання о {{.When}} завершилося помилкою:", "{{.Detail}}",
			"Подробиці — у журналі сервера; `devhub backup list` показує наявні копії."}},
		"ru": {Subject: "Резервное копирование {{.Site}} не удалось", Lines: []string{
			"Запланированное резервное копирование в {{.When}} завершилось ошибкой:", "{{.Detail}}",
			"Подробности — в журнале сервера; `devhub backup list` показывает имеющиеся копии."}},
		"en": {Subject: "Backup of {{.Site}} failed", Lines: []string{
			"The scheduled backup at {{.When}} failed:", "{{.Detail}}",
			"The server's log has the details; `devhub backup list` shows the backups there are."}},
	},
}

func init() {
	for k, v := range flowLetters {
		letters[k] = v
	}
}

var page = template.Must(template.New("mail").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328;max-width:36em;margin:0 auto;padding:1em">
{{range .Lines}}<p style="white-space:pre-wrap">{{.}}</p>
{{end}}{{if .Items}}<ul>
{{range .Items}}<li>{{.}}</li>
{{end}}</ul>
{{end}}{{if .Link}}<p><a href="{{.Link}}" style="display:inline-block;padding:.6em 1.2em;background:#0b63ce;color:#fff;border-radius:6px;text-decoration:none">{{.LinkLabel}}</a></p>
<p style="font-size:.9em;color:#57606a">{{.Link}}</p>
{{end}}</body></html>
`))

// Lang is lang when letters are written in it, else DefaultLang.
func Lang(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i > 0 {
		lang = lang[:i]
	}
	for _, l := range Languages {
		if l == lang {
			return l
		}
	}
	return DefaultLang
}

// Render writes the letter of kind in lang (see Lang) as its subject, text
// and HTML.
func Render(kind Kind, lang string, d Data) (subject, text, html string) {
	lang = Lang(lang)
	l := letters[kind][lang]
	fill := func(s string) string {
		var b bytes.Buffer
		texttemplate.Must(texttemplate.New("").Parse(s)).Execute(&b, d)
		return b.String()
	}
	subject = fill(l.Subject)
	lines := make([]string, len(l.Lines))
	for i, s := range l.Lines {
		lines[i] = fill(s)
	}
	var tb strings.Builder
	for _, s := range lines {
		tb.WriteString(s + "\n\n")
	}
	if len(d.Items) > 0 {
		for _, it := range d.Items {
			tb.WriteString("- " + it + "\n")
		}
		tb.WriteString("\n")
	}
	if d.Link != "" {
		tb.WriteString(l.LinkLabel + ":\n" + d.Link + "\n")
	}
	var hb bytes.Buffer
	page.Execute(&hb, map[string]any{"Lang": lang, "Subject": subject, "Lines": lines, "Link": d.Link, "LinkLabel": l.LinkLabel, "Items": d.Items})
	return subject, strings.TrimSpace(tb.String()) + "\n", hb.String()
}

// Letter is Render as a Message to to.
func Letter(kind Kind, lang, to string, d Data) Message {
	subject, text, html := Render(kind, lang, d)
	return Message{To: to, Lang: Lang(lang), Subject: subject, Text: text, HTML: html}
}

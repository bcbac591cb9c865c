package newsletter

import (
	"bytes"
	"html/template"
	"strings"
	texttemplate "text/template"
)

// Languages are the languages subscribers read (and letters and pages are
// written in); DefaultLang is used for any other.
var Languages = []string{"uk", "ru", "en"}

// DefaultLang is the site's primary language.
const DefaultLang = "uk"

// Lang is lang when it is one of Languages (its primary subtag), else
// DefaultLang.
func Lang(lang string) string {
	l := ArticleLang(lang)
	for _, x := range Languages {
		if x == l {
			return l
		}
	}
	return DefaultLang
}

// LetterData fills a letter's blanks.
type LetterData struct {
	Site string
	// Title and Excerpt are an article's; Link is the letter's main link
	// (the confirmation link, or the article).
	Title, Excerpt, Link string
	// Unsubscribe is the subscriber's unsubscribe link (article letters).
	Unsubscribe string
}

type texts struct {
	ConfirmSubject, ConfirmLabel string
	ConfirmLines                 []string
	ArticleSubject, ArticleLabel string
	ArticleIntro                 string
	UnsubLine, UnsubLabel        string
	// The pages the links open: first the question (a GET changes
	// nothing), then what the button did.
	AskConfirmText, AskUnsubText  string
	ConfirmedTitle, ConfirmedText string
	GoneTitle, GoneText           string
	BadTitle, BadText             string
	BlogLink                      string
}

var byLang = map[string]texts{
	"uk": {
		ConfirmSubject: "Підтвердіть підписку на {{.Site}}", ConfirmLabel: "Підтвердити підписку",
		ConfirmLines: []string{
			"Хтось (сподіваємося, ви) підписав цю адресу на нові статті блогу {{.Site}}.",
			"Щоб отримувати їх, підтвердіть підписку. Посилання діє 48 годин.",
			"Якщо ви не підписувалися, просто проігноруйте цей лист: без підтвердження листів не буде."},
		ArticleSubject: "{{.Title}} — {{.Site}}", ArticleLabel: "Читати статтю",
		ArticleIntro: "Нова стаття в блозі {{.Site}}:",
		UnsubLine:    "Ви отримали цей лист, бо підписалися на блог {{.Site}}.", UnsubLabel: "Відписатися",
		AskConfirmText: "Підписати {{.Who}} на нові статті блогу?",
		AskUnsubText:   "Відписати {{.Who}} від розсилки блогу?",
		ConfirmedTitle: "Підписку підтверджено", ConfirmedText: "Дякуємо! Нові статті блогу надходитимуть на {{.Who}}.",
		GoneTitle: "Ви відписалися", GoneText: "Адресу {{.Who}} видалено зі списку розсилки. Листів більше не буде.",
		BadTitle: "Посилання не діє", BadText: "Це посилання недійсне, застаріле або вже використане.",
		BlogLink: "До блогу",
	},
	"ru": {
		ConfirmSubject: "Подтвердите подписку на {{.Site}}", ConfirmLabel: "Подтвердить подписку",
		ConfirmLines: []string{
			"Кто-то (надеемся, вы) подписал этот адрес на новые статьи блога {{.Site}}.",
			"Чтобы получать их, подтвердите подписку. Ссылка действует 48 часов.",
			"Если вы не подписывались, просто проигнорируйте это письмо: без подтверждения писем не будет."},
		ArticleSubject: "{{.Title}} — {{.Site}}", ArticleLabel: "Читать статью",
		ArticleIntro: "Новая статья в блоге {{.Site}}:",
		UnsubLine:    "Вы получили это письмо, потому что подписались на блог {{.Site}}.", UnsubLabel: "Отписаться",
		AskConfirmText: "Подписать {{.Who}} на новые статьи блога?",
		AskUnsubText:   "Отписать {{.Who}} от рассылки блога?",
		ConfirmedTitle: "Подписка подтверждена", ConfirmedText: "Спасибо! Новые статьи блога будут приходить на {{.Who}}.",
		GoneTitle: "Вы отписались", GoneText: "Адрес {{.Who}} удалён из списка рассылки. Писем больше не будет.",
		BadTitle: "Ссылка не действует", BadText: "Эта ссылка недействительна, устарела или уже использована.",
		BlogLink: "В блог",
	},
	"en": {
		ConfirmSubject: "Confirm your subscription to {{.Site}}", ConfirmLabel: "Confirm the subscription",
		ConfirmLines: []string{
			"Someone (hopefully you) subscribed this address to new articles of the {{.Site}} blog.",
			"To receive them, confirm the subscription. The link works for 48 hours.",
			"If you did not subscribe, ignore this message: nothing is sent without the confirmation."},
		ArticleSubject: "{{.Title}} — {{.Site}}", ArticleLabel: "Read the article",
		ArticleIntro: "A new article on the {{.Site}} blog:",
		UnsubLine:    "You receive this because you subscribed to the {{.Site}} blog.", UnsubLabel: "Unsubscribe",
		AskConfirmText: "Subscribe {{.Who}} to new articles of the blog?",
		AskUnsubText:   "Unsubscribe {{.Who}} from the blog's letters?",
		ConfirmedTitle: "Subscription confirmed", ConfirmedText: "Thank you! New articles of the blog will come to {{.Who}}.",
		GoneTitle: "You are unsubscribed", GoneText: "{{.Who}} was removed from the list. No more letters will come.",
		BadTitle: "This link does not work", BadText: "The link is invalid, expired or already used.",
		BlogLink: "To the blog",
	},
}

func fill(s string, d any) string {
	var b bytes.Buffer
	texttemplate.Must(texttemplate.New("").Parse(s)).Execute(&b, d)
	return b.String()
}

var letterHTML = template.Must(template.New("letter").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328;max-width:36em;margin:0 auto;padding:1em">
{{range .Lines}}<p>{{.}}</p>
{{end}}{{if .Title}}<h2 style="margin:.5em 0">{{.Title}}</h2>
{{if .Excerpt}}<p>{{.Excerpt}}</p>
{{end}}{{end}}<p><a href="{{.Link}}" style="display:inline-block;padding:.6em 1.2em;background:#0b63ce;color:#fff;border-radius:6px;text-decoration:none">{{.Label}}</a></p>
<p style="font-size:.9em;color:#57606a">{{.Link}}</p>
{{if .Unsub}}<hr style="border:0;border-top:1px solid #d0d7de">
<p style="font-size:.85em;color:#57606a">{{.UnsubLine}} <a href="{{.Unsub}}">{{.UnsubLabel}}</a></p>
{{end}}</body></html>
`))

// Letter is a rendered letter.
type Letter struct {
	Lang, Subject, Text, HTML string
}

// ConfirmLetter is the confirmation letter in lang (see Lang).
func ConfirmLetter(lang string, d LetterData) Letter {
	lang = Lang(lang)
	t := byLang[lang]
	lines := make([]string, len(t.ConfirmLines))
	for i, l := range t.ConfirmLines {
		lines[i] = fill(l, d)
	}
	subject := fill(t.ConfirmSubject, d)
	text := strings.Join(lines, "\n\n") + "\n\n" + t.ConfirmLabel + ":\n" + d.Link + "\n"
	var h bytes.Buffer
	letterHTML.Execute(&h, map[string]any{"Lang": lang, "Subject": subject, "Lines": lines, "Link": d.Link, "Label": t.ConfirmLabel})
	return Letter{Lang: lang, Subject: subject, Text: text, HTML: h.String()}
}

// ArticleLetter is the letter announcing an article, in lang (see Lang),
// with the subscriber's unsubscribe link.
func ArticleLetter(lang string, d LetterData) Letter {
	lang = Lang(lang)
	t := byLang[lang]
	intro, unsubLine := fill(t.ArticleIntro, d), fill(t.UnsubLine, d)
	subject := fill(t.ArticleSubject, d)
	var tb strings.Builder
	tb.WriteString(intro + "\n\n" + d.Title + "\n\n")
	if d.Excerpt != "" {
		tb.WriteString(d.Excerpt + "\n\n")
	}
	tb.WriteString(t.ArticleLabel + ":\n" + d.Link + "\n\n-- \n" + unsubLine + "\n" + t.UnsubLabel + ": " + d.Unsubscribe + "\n")
	var h bytes.Buffer
	letterHTML.Execute(&h, map[string]any{"Lang": lang, "Subject": subject, "Lines": []string{intro}, "Title": d.Title,
		"Excerpt": d.Excerpt, "Link": d.Link, "Label": t.ArticleLabel, "Unsub": d.Unsubscribe, "UnsubLine": unsubLine, "UnsubLabel": t.UnsubLabel})
	return Letter{Lang: lang, Subject: subject, Text: tb.String(), HTML: h.String()}
}

// Page outcomes of the links.
const (
	PageConfirmed    = "confirmed"
	PageUnsubscribed = "unsubscribed"
	PageBadLink      = "bad_link"
)

// PageText is the title and text of the page a link opens, in lang; who is
// the address (or site) the text names.
func PageText(outcome, lang, who string) (title, text, blogLink string) {
	t := byLang[Lang(lang)]
	d := map[string]string{"Who": who}
	switch outcome {
	case PageConfirmed:
		return t.ConfirmedTitle, fill(t.ConfirmedText, d), t.BlogLink
	case PageUnsubscribed:
		return t.GoneTitle, fill(t.GoneText, d), t.BlogLink
	default:
		return t.BadTitle, t.BadText, t.BlogLink
	}
}

// AskText is the page a link opens before anything is done (a GET, which
// mail scanners send on their own): its title, question and the label of
// the button that confirms (confirm) or unsubscribes, in lang; who is the
// address.
func AskText(confirm bool, lang, who string) (title, text, button string) {
	t := byLang[Lang(lang)]
	d := map[string]string{"Who": who}
	if confirm {
		return t.ConfirmLabel, fill(t.AskConfirmText, d), t.ConfirmLabel
	}
	return t.UnsubLabel, fill(t.AskUnsubText, d), t.UnsubLabel
}

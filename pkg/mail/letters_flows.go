package mail

import "strings"

// flowLetters are the letters of the account and notification flows:
// verifying an address, confirming a change of e-mail, the contact form
// and the notification digest.
var flowLetters = map[Kind]map[string]letter{
	KindVerifyEmail: {
		"uk": {Subject: "Підтвердіть адресу на {{.Site}}", LinkLabel: "Підтвердити адресу", Lines: []string{
			"Ви зареєструвалися на {{.Site}} з цією адресою. Відкрийте посилання, щоб підтвердити, що вона ваша.",
			"Посилання діє 24 години і лише один раз.",
			"Якщо ви не реєструвалися, просто проігноруйте цей лист."}},
		"ru": {Subject: "Подтвердите адрес на {{.Site}}", LinkLabel: "Подтвердить адрес", Lines: []string{
			"Вы зарегистрировались на {{.Site}} с этим адресом. Откройте ссылку, чтобы подтвердить, что он ваш.",
			"Ссылка действует 24 часа и только один раз.",
			"Если вы не регистрировались, просто проигнорируйте это письмо."}},
		"en": {Subject: "Confirm your address on {{.Site}}", LinkLabel: "Confirm my address", Lines: []string{
			"You signed up on {{.Site}} with this address. Open the link to confirm that it is yours.",
			"The link works once, for 24 hours.",
			"If you did not sign up, ignore this message."}},
	},
	KindEmailChange: {
		"uk": {Subject: "Підтвердіть нову адресу на {{.Site}}", LinkLabel: "Підтвердити нову адресу", Lines: []string{
			"Хтось (сподіваємося, ви) попросив змінити адресу облікового запису на {{.Site}} на {{.Email}}.",
			"Адреса зміниться, коли ви відкриєте посилання. Воно діє 24 години і лише один раз.",
			"Якщо ви цього не просили, просто проігноруйте цей лист: нічого не зміниться."}},
		"ru": {Subject: "Подтвердите новый адрес на {{.Site}}", LinkLabel: "Подтвердить новый адрес", Lines: []string{
			"Кто-то (надеемся, вы) попросил сменить адрес учётной записи на {{.Site}} на {{.Email}}.",
			"Адрес сменится, когда вы откроете ссылку. Она действует 24 часа и только один раз.",
			"Если вы этого не просили, просто проигнорируйте это письмо: ничего не изменится."}},
		"en": {Subject: "Confirm your new address on {{.Site}}", LinkLabel: "Confirm the new address", Lines: []string{
			"Someone (hopefully you) asked to change the address of an account on {{.Site}} to {{.Email}}.",
			"The address changes when you open the link. It works once, for 24 hours.",
			"If you did not ask for this, ignore this message: nothing changes."}},
	},
	KindEmailChanged: {
		"uk": {Subject: "Адресу облікового запису на {{.Site}} змінено", Lines: []string{
			"Адресу вашого облікового запису на {{.Site}} змінено на {{.Email}}; листи тепер надходитимуть туди.",
			"Якщо це були не ви, негайно напишіть адміністраторам сайту."}},
		"ru": {Subject: "Адрес учётной записи на {{.Site}} изменён", Lines: []string{
			"Адрес вашей учётной записи на {{.Site}} изменён на {{.Email}}; письма теперь будут приходить туда.",
			"Если это были не вы, немедленно напишите администраторам сайта."}},
		"en": {Subject: "The address of your account on {{.Site}} changed", Lines: []string{
			"The address of your account on {{.Site}} is now {{.Email}}; mail goes there from now on.",
			"If this was not you, write to the site's admins at once."}},
	},
	KindContact: {
		"uk": {Subject: "Повідомлення з контактної форми {{.Site}} від {{.From}}", LinkLabel: "Відкрити розмову", Lines: []string{
			"{{.From}} написав(-ла) через контактну форму:", "{{.Detail}}",
			"Відповісти можна, відповівши на цей лист."}},
		"ru": {Subject: "Сообщение из контактной формы {{.Site}} от {{.From}}", LinkLabel: "Открыть переписку", Lines: []string{
			"{{.From}} написал(а) через контактную форму:", "{{.Detail}}",
			"Ответить можно, ответив на это письмо."}},
		"en": {Subject: "Contact form message on {{.Site}} from {{.From}}", LinkLabel: "Open the conversation", Lines: []string{
			"{{.From}} wrote through the contact form:", "{{.Detail}}",
			"Reply to this message to answer them."}},
	},
	KindDigest: {
		"uk": {Subject: "Непрочитані сповіщення на {{.Site}}: {{.Count}}", LinkLabel: "Переглянути сповіщення", Lines: []string{
			"На {{.Site}} на вас чекають нові сповіщення:"}},
		"ru": {Subject: "Непрочитанные уведомления на {{.Site}}: {{.Count}}", LinkLabel: "Посмотреть уведомления", Lines: []string{
			"На {{.Site}} вас ждут новые уведомления:"}},
		"en": {Subject: "Unread notifications on {{.Site}}: {{.Count}}", LinkLabel: "See your notifications", Lines: []string{
			"New notifications wait for you on {{.Site}}:"}},
	},
}

// digestItems are how a digest names one notification, per language and
// kind (notify's kinds); %s is who did it ("" for the contact form's
// nameless or a deleted account).
var digestItems = map[string]map[string]string{
	"uk": {
		"friend.request":  "%s хоче додати вас у друзі",
		"friend.accepted": "%s прийняв(-ла) ваш запит у друзі",
		"dm.message":      "нове повідомлення від %s",
		"mention":         "%s згадав(-ла) вас",
		"forum.reply":     "%s відповідає в темі, за якою ви стежите",
		"comment.reply":   "%s відповів(-ла) на ваш коментар",
		"comment.new":     "новий коментар від %s",
		"":                "нове сповіщення",
	},
	"ru": {
		"friend.request":  "%s хочет добавить вас в друзья",
		"friend.accepted": "%s принял(а) ваш запрос в друзья",
		"dm.message":      "новое сообщение от %s",
		"mention":         "%s упомянул(а) вас",
		"forum.reply":     "%s отвечает в теме, за которой вы следите",
		"comment.reply":   "%s ответил(а) на ваш комментарий",
		"comment.new":     "новый комментарий от %s",
		"":                "новое уведомление",
	},
	"en": {
		"friend.request":  "%s wants to be your friend",
		"friend.accepted": "%s accepted your friend request",
		"dm.message":      "a new message from %s",
		"mention":         "%s mentioned you",
		"forum.reply":     "%s replied in a thread you follow",
		"comment.reply":   "%s replied to your comment",
		"comment.new":     "a new comment from %s",
		"":                "a new notification",
	},
}

// someone is how a digest names an unnamed author where the author is the
// sentence's subject ("хтось згадав(-ла) вас").
var someone = map[string]string{"uk": "хтось", "ru": "кто-то", "en": "someone"}

// unnamedItems replace the lines that name the author after a preposition
// ("від %s" wants the genitive, which "хтось" is not): with no name, the
// line leaves the author out.
var unnamedItems = map[string]map[string]string{
	"uk": {"dm.message": "нове повідомлення", "comment.new": "новий коментар"},
	"ru": {"dm.message": "новое сообщение", "comment.new": "новый комментарий"},
	"en": {"dm.message": "a new message", "comment.new": "a new comment"},
}

// DigestItem is one line of a digest in lang: what kind of notification,
// by whom.
func DigestItem(lang, kind, by string) string {
	lang = Lang(lang)
	f, ok := digestItems[lang][kind]
	if !ok {
		return digestItems[lang][""]
	}
	if by == "" {
		if line, ok := unnamedItems[lang][kind]; ok {
			return line
		}
		by = someone[lang]
	}
	return sprintf(f, by)
}

func sprintf(f, by string) string { return strings.Replace(f, "%s", by, 1) }

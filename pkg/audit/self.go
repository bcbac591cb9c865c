package audit

// Event types of an account's own settings.
const (
	NameChanged   = "account.name"
	EmailChanged  = "account.email"
	AvatarChanged = "account.avatar"
	DataExported  = "account.exported"
	// ProfileChanged: an admin edited the portfolio (content/profile.yaml).
	ProfileChanged = "profile.changed"
)

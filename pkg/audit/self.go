package audit

// Event types of an account's own settings.
const (
	NameChanged   = "account.name"
	EmailChanged  = "account.email"
	AvatarChanged = "account.avatar"
	DataExported  = "account.exported"
)

package blog

import (
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/devhub/devhub/pkg/store"
)

// Field limits. They keep one article well under the API body limit and the
// list answer small; the image limit leaves room for a small inline picture.
const (
	MaxNameLen     = 200
	MaxExcerptLen  = 1000
	MaxCategoryLen = 60
	MaxSlugLen     = 120
	MaxContentLen  = 512 << 10
	MaxImageLen    = 512 << 10
)

// Input is what a caller supplies to create an article. Slug is optional
// (derived from the name); ImageURL is optional.
type Input struct {
	Slug     string
	Name     string
	Excerpt  string
	Content  string
	Category string
	ImageURL string
	// Lang is the article's language (BCP 47, e.g. "uk" or "pt-br"); empty
	// means DefaultLang.
	Lang string
	// TranslationKey links translations: articles with the same key are
	// language versions of one text. Optional; slug-like.
	TranslationKey string
	// Status is draft, scheduled or published ("" means published);
	// PublishAt is required for scheduled.
	Status    string
	PublishAt *time.Time
	// EditedBy names who saves (kept with the revision this save makes).
	EditedBy string
	// Newsletter false keeps the article from being mailed to the
	// newsletter's subscribers; nil means it is mailed.
	Newsletter *bool
}

// Patch edits an article: nil fields stay as they are.
type Patch struct {
	Slug     *string
	Name     *string
	Excerpt  *string
	Content  *string
	Category *string
	ImageURL *string
	Lang     *string
	// TranslationKey set to "" unlinks the article from its translations.
	TranslationKey *string
	Status         *string
	// PublishAt sets the publication time of a scheduled article; it is
	// dropped when the status is not scheduled.
	PublishAt *time.Time
	// Version, when set, must be the article's current version: a save
	// based on an older one is refused as a conflict.
	Version *int
	// EditedBy names who saves.
	EditedBy string
	// Newsletter switches the mailing to subscribers on or off.
	Newsletter *bool
}

// normalize trims the single-line fields and the content's surrounding
// blank space and unifies line endings, so that the stored text is what an
// export writes and an import reads back (round trips are exact).
func (in *Input) normalize() {
	in.Slug = strings.TrimSpace(in.Slug)
	in.Name = strings.TrimSpace(oneLine(in.Name))
	in.Excerpt = strings.TrimSpace(oneLine(in.Excerpt))
	in.Category = strings.TrimSpace(oneLine(in.Category))
	in.ImageURL = strings.TrimSpace(in.ImageURL)
	in.Content = NormalizeContent(in.Content)
	in.Lang = strings.ToLower(strings.TrimSpace(in.Lang))
	if in.Lang == "" {
		in.Lang = DefaultLang
	}
	in.TranslationKey = strings.TrimSpace(in.TranslationKey)
}

// langRe is a language tag as articles carry it: a primary language of two
// or three letters and optional subtags ("uk", "pt-br", "zh-hant").
var langRe = regexp.MustCompile(`^[a-z]{2,3}(-[a-z0-9]{2,8})*$`)

// lineBreaks turns the line breaks and tabs of a single-line field into
// spaces: an excerpt typed in the create form's text area (or passed as a
// quoted multi-line shell argument) is one paragraph, not an error.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\t", " ")

func oneLine(s string) string { return lineBreaks.Replace(s) }

// NormalizeContent unifies line endings to \n and trims trailing white
// space and leading blank lines.
func NormalizeContent(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	for strings.HasPrefix(s, "\n") {
		s = s[1:]
	}
	// Leading blank lines made only of spaces.
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			break
		}
		s = s[i+1:]
	}
	return s
}

// validate checks a normalised input and reports every bad field at once.
func (in *Input) validate() error {
	var v store.Validator
	in.check(&v)
	return v.Err()
}

// validateSave is validate for a save that makes next (from prev, nil for a
// new article) at now: the fields, and the status with its dates.
func (in *Input) validateSave(next, prev *Article, now time.Time) error {
	var v store.Validator
	in.check(&v)
	applyStatus(&v, next, prev, now)
	return v.Err()
}

// check adds every bad field of a normalised input to v.
func (in *Input) check(v *store.Validator) {
	required := func(field, val string, max int) {
		switch n := utf8.RuneCountInString(val); {
		case n == 0:
			v.Add(field, "required", field+" is required")
		case n > max:
			v.Add(field, "too_long", field+" is too long")
		}
	}
	required("name", in.Name, MaxNameLen)
	required("excerpt", in.Excerpt, MaxExcerptLen)
	required("category", in.Category, MaxCategoryLen)
	if in.Content == "" {
		v.Add("content", "required", "content is required")
	} else if len(in.Content) > MaxContentLen {
		v.Add("content", "too_long", "content is too long")
	}
	for field, val := range map[string]string{"name": in.Name, "excerpt": in.Excerpt, "category": in.Category} {
		if strings.ContainsFunc(val, isControl) {
			v.Add(field, "invalid", field+" must not contain control characters")
		}
	}
	if !utf8.ValidString(in.Name + in.Excerpt + in.Category + in.Content + in.ImageURL) {
		v.Add("content", "invalid", "text must be valid UTF-8")
	}
	if in.Slug != "" {
		if len(in.Slug) > MaxSlugLen {
			v.Add("slug", "too_long", "slug is too long")
		} else if Slugify(in.Slug) != in.Slug {
			v.Add("slug", "invalid", "slug may hold only lower-case letters, digits and single hyphens")
		}
	}
	if len(in.Lang) > 35 || !langRe.MatchString(in.Lang) {
		v.Add("lang", "invalid", "lang must be a language code such as en, uk or pt-br")
	}
	if in.TranslationKey != "" {
		if len(in.TranslationKey) > MaxSlugLen {
			v.Add("translationKey", "too_long", "translationKey is too long")
		} else if Slugify(in.TranslationKey) != in.TranslationKey {
			v.Add("translationKey", "invalid", "translationKey may hold only lower-case letters, digits and single hyphens")
		}
	}
	if err := ValidateImageURL(in.ImageURL); err != "" {
		v.Add("image_url", "invalid", err)
	}
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

var (
	dataImageRe = regexp.MustCompile(`(?i)^data:image/(png|jpeg|gif|webp)(;[a-z0-9=._+-]+)*(;base64)?,`)
	svgOpenRe   = regexp.MustCompile(`(?is)^(<\?xml[^>]*\?>\s*)?(<!--.*?-->\s*)*<svg[\s>/]`)
	svgCloseRe  = regexp.MustCompile(`(?is)(</svg\s*>|/>)\s*$`)
)

// IsInlineSVG reports whether v is SVG markup (as opposed to a URL). Such a
// value is stored as given and only ever shown as a data: URL in an <img>,
// where the browser runs none of its scripts.
func IsInlineSVG(v string) bool {
	v = strings.TrimSpace(v)
	return svgOpenRe.MatchString(v) && svgCloseRe.MatchString(v)
}

// ValidateImageURL accepts an empty value, an absolute http(s) URL, a site
// path starting with a single '/', a data: URL of a PNG, JPEG, GIF or WebP
// image, or inline SVG markup. It returns a message for anything else.
func ValidateImageURL(v string) string {
	if v == "" {
		return ""
	}
	if len(v) > MaxImageLen {
		return "image_url is too long"
	}
	if IsInlineSVG(v) {
		return ""
	}
	if strings.ContainsFunc(v, func(r rune) bool { return isControl(r) || r == ' ' || r == '\\' }) {
		return "image_url must be an http(s) URL, a site path, a data:image URL or SVG markup"
	}
	switch {
	case strings.HasPrefix(v, "//"):
		return "image_url must not be protocol-relative; use https://"
	case strings.HasPrefix(v, "/"):
		if _, err := url.Parse(v); err != nil {
			return "image_url is not a valid path"
		}
		return ""
	case dataImageRe.MatchString(v):
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Host == "" {
		return "image_url must be an http(s) URL, a site path, a data:image URL (png, jpeg, gif, webp) or SVG markup"
	}
	return ""
}

// Slugify makes a URL- and file-name-safe slug: lower-case letters (any
// script) and digits, words joined by single hyphens.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	out := b.String()
	for len(out) > MaxSlugLen {
		// Cut on a rune boundary, then drop a trailing hyphen.
		_, size := utf8.DecodeLastRuneInString(out)
		out = strings.TrimSuffix(out[:len(out)-size], "-")
	}
	return out
}
